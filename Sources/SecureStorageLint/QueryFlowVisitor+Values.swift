import SwiftSyntax

/// How ``QueryFlowVisitor`` reads values and queries: local constants followed
/// (`let prefixedKey = keyPrefix + key`), the module's query builders called
/// (`baseQuery(key)`, `self.baseQuery`), and the names a value is built from.
extension QueryFlowVisitor {
    /// How many `let`s a value is followed through.
    private static let maximumConstantDepth = 4

    /// What is known about a value expression of a query or an argument.
    func value(of expression: ExprSyntax) -> QueryValue {
        var resolved = expression
        var roots: Set<String> = []
        for _ in 0..<Self.maximumConstantDepth {
            guard let reference = resolved.strippingConversions.as(DeclReferenceExprSyntax.self),
                let value = localConstant(reference.baseName.text),
                !value.strippingConversions.is(DictionaryExprSyntax.self),
                !value.strippingConversions.is(ClosureExprSyntax.self)
            else { break }
            roots.insert(reference.baseName.text)
            resolved = value
        }
        let identity = QueryTemplate.of(resolved)
        // A parameter or variable named like an alias (`itemClass`) is not the alias.
        let isLocalName = resolved.strippingConversions.as(DeclReferenceExprSyntax.self).map {
            isDeclared($0.baseName.text)
        }
        let constant = isLocalName == true ? resolved.securityConstantName : aliases.constantName(resolved)
        if let identity { roots.formUnion(QueryTemplate.names(in: identity)) }
        return QueryValue(
            expression: expression, identity: identity, constant: constant,
            isTrue: resolved.isTrueLiteral, roots: roots)
    }

    /// The query a call of a module builder (`query(for: key)`) or a reference to a computed
    /// query property (`baseQuery`, `self.baseQuery`) returns, if the expression is one.
    func builtQuery(_ expression: ExprSyntax) -> KeychainQuery? {
        guard !facts.builders.isEmpty else { return nil }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            guard call.trailingClosure == nil, let signature = call.shortSignature,
                let builder = facts.builders[signature],
                let mapping = QueryBuilder.match(labels: call.argumentLabels, to: builder.parameters)
            else { return nil }
            let arguments = Array(call.arguments)
            var values: [Int: QueryValue] = [:]
            for (parameter, argument) in mapping { values[parameter] = value(of: arguments[argument].expression) }
            let origin =
                signature + "("
                + arguments.indices.map { index in
                    values.first { mapping[$0.key] == index }?.value.identity ?? "?\(index)@\(call.position.utf8Offset)"
                }.joined(separator: ", ") + ")"
            return KeychainQuery(builder: builder, arguments: values, origin: origin, facts: facts)
        }
        guard let name = expression.lastName ?? expression.referencedName, let builder = facts.builders[name],
            builder.parameters.isEmpty, lookupQuery(name) == nil,
            expression.is(MemberAccessExprSyntax.self) || !isDeclared(name)
        else { return nil }
        return KeychainQuery(builder: builder, arguments: [:], origin: "property " + name, facts: facts)
    }

    /// A known query passed through a function that returns a query (`query =
    /// addAccessGroupWhenPresent(query)`): the same item, perhaps with more keys.
    func queryPassedThrough(_ expression: ExprSyntax) -> KeychainQuery? {
        guard let call = expression.as(FunctionCallExprSyntax.self), SecItemFunction(call: call) == nil,
            let known = call.arguments.lazy.compactMap({ $0.expression.referencedName.flatMap(self.lookupQuery) }).first
        else { return nil }
        var query = known
        query.isComplete = false
        return query
    }

    /// Whether an added query names its item by one of a deleting call's arguments: the same
    /// expression, or built from the same variable (`delete(key)`, then an account `keyPrefix + key`).
    ///
    /// When the added item has an account (server, tag), only that counts: a deleting call given
    /// the service alone (`deleteAll(service)`) deletes every account of it, on purpose.
    func addsItem(named deleted: [QueryValue], _ query: KeychainQuery) -> Bool {
        let primary = KeychainQuery.primaryKeys.filter { query.entries[$0] != nil }
        let keys = primary.isEmpty ? KeychainQuery.identityKeys.filter { $0 != "kSecClass" } : primary
        return keys.contains { key in query.entries[key].map { sharesName(deleted, $0) } == true }
    }

    /// Whether a value is one of the arguments, or built from an argument that is a variable.
    func sharesName(_ arguments: [QueryValue], _ value: QueryValue) -> Bool {
        arguments.contains { argument in
            guard let identity = argument.identity else { return false }
            if identity == value.identity { return true }
            return !identity.contains(" ") && identity.first.map { $0.isLetter || $0 == "_" } == true
                && value.roots.contains(identity)
        }
    }

    /// Whether a call on `base` can be the module's keychain function of that name: a call on
    /// nothing, `self` or a type of the module (`KeychainWrapper.standard.removeObject(forKey:)`),
    /// or on a value named like a keychain store (`keychain`, `tokenStore`, `secureStorage`).
    /// `UserDefaults.standard.removeObject(forKey:)` and `pendingKeys.remove(key)` are another
    /// type's methods with the same name; without types, the rule stays silent on them.
    static func mayBeKeychainReceiver(_ base: ExprSyntax?) -> Bool {
        guard var expression = base?.strippingConversions else { return true }
        var names: [String] = []
        while let member = expression.as(MemberAccessExprSyntax.self), let next = member.base {
            names.append(member.declName.baseName.text)
            expression = next.strippingConversions
        }
        if let call = expression.as(FunctionCallExprSyntax.self) { expression = call.calledExpression }
        guard let root = expression.as(DeclReferenceExprSyntax.self) else { return false }
        if root.baseName.tokenKind == .keyword(.self) || root.baseName.tokenKind == .keyword(.Self) {
            guard let first = names.last else { return true }
            return isStoreName(first)
        }
        let name = root.baseName.text
        if name.first?.isUppercase == true { return !platformTypes.contains(name) }
        return isStoreName(name)
    }

    private static func isStoreName(_ name: String) -> Bool {
        CredentialNames.words(of: name).contains { storeWords.contains($0) }
    }

    private static let storeWords: Set<String> = [
        "keychain", "keychains", "vault", "secure", "secret", "secrets", "credential", "credentials", "token",
        "tokens", "password", "passwords", "wrapper", "storage", "store", "locksmith", "valet", "auth", "item", "items"
    ]

    private static let platformTypes: Set<String> = [
        "UserDefaults", "NSUbiquitousKeyValueStore", "FileManager", "NotificationCenter", "URLCache",
        "HTTPCookieStorage",
        "NSCache", "Set", "Array", "Dictionary", "UIPasteboard", "NSPasteboard"
    ]

    /// The receiver a call is made on, as text (`""` for none or `self`).
    func receiver(of call: FunctionCallExprSyntax) -> String {
        guard let base = call.calleeBase else { return "" }
        if base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) { return "" }
        return QueryTemplate.of(base) ?? "?"
    }
}

extension QueryFlowVisitor {
    /// Whether an add runs only when the delete found nothing (`if status == errSecItemNotFound
    /// { SecItemAdd(…) }`, the status being the delete's): nothing deleted is then lost.
    func runsOnlyWhenNothingDeleted(
        _ add: FunctionCallExprSyntax, after delete: FunctionCallExprSyntax, statuses: [String: StatusVariable]
    ) -> Bool {
        var node = Syntax(add)
        for _ in 0..<12 {
            guard let parent = node.parent, !parent.is(FunctionDeclSyntax.self), !parent.is(ClosureExprSyntax.self)
            else { return false }
            if let branch = parent.as(IfExprSyntax.self), branch.body.id == node.id {
                return branch.conditions.count == 1
                    && branch.conditions.first.map { isNotFound($0.condition, delete, statuses) } == true
            }
            node = parent
        }
        return false
    }

    private func isNotFound(
        _ condition: ConditionElementSyntax.Condition, _ delete: FunctionCallExprSyntax,
        _ statuses: [String: StatusVariable]
    ) -> Bool {
        guard case .expression(let expression) = condition,
            let elements = expression.as(SequenceExprSyntax.self)?.elements, elements.count == 3
        else { return false }
        let parts = Array(elements)
        guard parts[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "==" else { return false }
        let (status, constant) =
            parts[2].securityConstantName == "errSecItemNotFound" ? (parts[0], parts[2]) : (parts[2], parts[0])
        guard constant.securityConstantName == "errSecItemNotFound" else { return false }
        let stripped = status.strippingConversions
        if stripped.id == delete.id { return true }
        guard let name = stripped.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        return statuses[name]?.call.id == delete.id
    }

    /// Whether the path that deletes ends before `add` can run: the delete is part of a `return`
    /// or `throw` (`return SecItemDelete(q) == errSecSuccess`), or sits in a block that leaves
    /// (a `guard`'s `else`, an `if` body ending in `return`, `throw`, `break` or `continue`) and
    /// the add is outside that block. Such a function deletes or adds, never both.
    func deletePathEnds(_ delete: FunctionCallExprSyntax, before add: FunctionCallExprSyntax) -> Bool {
        var node = Syntax(delete)
        for _ in 0..<16 {
            guard let parent = node.parent, !parent.is(FunctionDeclSyntax.self), !parent.is(ClosureExprSyntax.self),
                !parent.is(AccessorDeclSyntax.self), !parent.is(InitializerDeclSyntax.self)
            else { return false }
            if parent.is(ReturnStmtSyntax.self) || parent.is(ThrowStmtSyntax.self) { return true }
            if let block = parent.as(CodeBlockSyntax.self), !add.isDescendant(of: block) {
                if block.parent?.is(GuardStmtSyntax.self) == true { return true }
                if let last = block.statements.last?.item, Self.leavesBlock(last) { return true }
            }
            node = parent
        }
        return false
    }

    /// `return`, `throw`, `break` or `continue`.
    private static func leavesBlock(_ item: CodeBlockItemSyntax.Item) -> Bool {
        guard case .stmt(let statement) = item else { return false }
        return statement.is(ReturnStmtSyntax.self) || statement.is(ThrowStmtSyntax.self)
            || statement.is(BreakStmtSyntax.self) || statement.is(ContinueStmtSyntax.self)
    }
}

extension SyntaxProtocol {
    /// Whether this node lies inside `ancestor`.
    func isDescendant(of ancestor: some SyntaxProtocol) -> Bool {
        let range = ancestor.position.utf8Offset..<ancestor.endPosition.utf8Offset
        return range.contains(position.utf8Offset)
    }
}
