import SwiftSyntax

/// Decides whether an expression holds a credential, and says why, from what the expression is
/// called, where its value came from in the enclosing function (a parameter, a local binding, a
/// property), and what the module knows (``CredentialFacts``: constants, model types).
///
/// It is stateless: the value of a local name is found by looking back through the enclosing
/// blocks for its binding, so any rule can ask about any expression. It stays silent rather than
/// guess: `nil` means "not known to be a credential".
///
/// An expression holds a credential when
/// - its name says so: `password`, `self.authToken`, `user?.token`, `token!`, `password.utf8`,
///   `token.data(using: .utf8)`, `Data(password.utf8)`, `String(data: token, encoding: .utf8)`,
///   `"Bearer \(token)"`, `["password": value]`;
/// - it is a local name bound to such a value (`let body = try JSONEncoder().encode(credentials)`),
///   or a dictionary given a credential after its binding (`dict["token"] = token`);
/// - it is a parameter whose label or name says so (`func save(password value: String)`);
/// - it is a whole value of a type the module knows holds a credential (`LoginInfo(…)`, a parameter
///   `info: LoginInfo`, or `loginInfo` itself).
///
/// Flags and counts (`token != nil`, `password.count`, a `Bool` parameter) never hold one, and a
/// string literal's content is never taken for a value's name. Look-back is bounded: eight
/// levels of bindings, and a fixed budget of steps per question.
package struct CredentialEvidence {
    /// The file and its module.
    package let context: FileLintContext
    /// The statements of the file's blocks, indexed as they are first looked through.
    let statementIndex = StatementIndex()

    /// Whether the question is what a log shows: a whole value of a type that declares its own
    /// `description` shows that description, not the credential the type holds.
    let judgesLoggedText: Bool

    /// Evidence about expressions of `context`'s file; `judgesLoggedText` for what a log shows of them.
    package init(context: FileLintContext, judgesLoggedText: Bool = false) {
        self.context = context
        self.judgesLoggedText = judgesLoggedText
    }

    /// What makes a whole value of module type `type` hold a credential, unless a log shows only
    /// the type's own `description` of it.
    private func credentialHolder(ofType type: String) -> String? {
        if judgesLoggedText && context.module.credentials.describesItself(type) { return nil }
        return context.module.credentials.credentialProperty(ofType: type)
    }

    /// Why `expression` holds a credential (`` `authToken` ``, `` `password`, a parameter ``), or
    /// nil when nothing says it does.
    package func reason(for expression: ExprSyntax) -> String? {
        let budget = LookBackBudget()
        return reason(for: expression, depth: 0, budget: budget)
    }

    /// Whether `expression` is a flag, a count or a number: a literal, a comparison, `x.count`, a
    /// name like `isSessionActive`, or a name bound or declared as `Bool`, `Int`, `Date`….
    package func isFlagOrNumber(_ expression: ExprSyntax) -> Bool {
        let value = Self.unwrapped(expression)
        if InsecureStorageVisitor.isFlagOrCount(value) { return true }
        guard let name = value.as(DeclReferenceExprSyntax.self)?.baseName.text ?? value.referencedName else {
            return false
        }
        let words = CredentialNames.words(of: name)
        if let first = words.first, words.count > 1, ["is", "has", "did", "should", "was", "can"].contains(first) {
            return true
        }
        if let last = words.last, words.count > 1, Self.numberWords.contains(last) { return true }
        if name == "newValue", let type = Self.typeOfPropertyBeingSet(around: Syntax(value)) {
            return CredentialDeclarationCollector.flagOrNumberTypes.contains(type)
        }
        let budget = LookBackBudget()
        guard let declaration = declaration(of: name, at: Syntax(value), budget: budget) else { return false }
        if let type = declaration.type, CredentialDeclarationCollector.flagOrNumberTypes.contains(type) { return true }
        if let initial = declaration.initializer { return InsecureStorageVisitor.isFlagOrCount(initial) }
        return false
    }

    /// The declared type of the property whose `set` accessor encloses `node` (`newValue`'s type).
    private static func typeOfPropertyBeingSet(around node: Syntax) -> String? {
        var current = node.parent
        for _ in 0..<32 {
            guard let ancestor = current else { return nil }
            if let binding = ancestor.as(PatternBindingSyntax.self) {
                return binding.typeAnnotation.map { CredentialDeclarationCollector.simpleTypeName($0.type) }
            }
            if ancestor.is(SubscriptDeclSyntax.self) || ancestor.is(FunctionDeclSyntax.self) { return nil }
            current = ancestor.parent
        }
        return nil
    }

    /// Last words of names of counts and moments.
    private static let numberWords: Set<String> = [
        "count", "counter", "length", "duration", "timeout", "interval", "date", "time", "timestamp", "expired",
        "expiry", "expiration", "active", "enabled", "valid", "attempts", "index", "version", "age"
    ]

    private func reason(for expression: ExprSyntax, depth: Int, budget: LookBackBudget) -> String? {
        guard depth <= 8, budget.spend() else { return nil }
        let value = Self.unwrapped(expression)
        if InsecureStorageVisitor.isFlagOrCount(value) { return nil }
        if let reference = value.as(DeclReferenceExprSyntax.self) {
            return reason(forName: reference.baseName.text, at: Syntax(value), depth: depth, budget: budget)
        }
        if let member = value.as(MemberAccessExprSyntax.self) {
            return reason(forMember: member, depth: depth, budget: budget)
        }
        if let call = value.as(FunctionCallExprSyntax.self) {
            return reason(forCall: call, depth: depth, budget: budget)
        }
        if let literal = value.as(StringLiteralExprSyntax.self) {
            for segment in literal.segments {
                guard let interpolation = segment.as(ExpressionSegmentSyntax.self),
                    let inner = interpolation.expressions.first?.expression
                else { continue }
                if let found = reason(for: inner, depth: depth + 1, budget: budget) { return found }
            }
            return nil
        }
        if let dictionary = value.as(DictionaryExprSyntax.self), case .elements(let elements) = dictionary.content {
            for element in elements.prefix(32) {
                if let found = reason(forEntry: element.key, value: element.value, depth: depth, budget: budget) {
                    return found
                }
            }
            return nil
        }
        if let array = value.as(ArrayExprSyntax.self) {
            for element in array.elements.prefix(32) {
                if let found = reason(for: element.expression, depth: depth + 1, budget: budget) { return found }
            }
            return nil
        }
        if let sequence = value.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            sequence.elements.dropFirst().first?.as(BinaryOperatorExprSyntax.self)?.operator.text == "??",
            let first = sequence.elements.first
        {
            return reason(for: first, depth: depth + 1, budget: budget)
        }
        return nil
    }

    /// A dictionary entry holds a credential when its key names one (`"password": value`, a key
    /// constant) or its value holds one.
    private func reason(forEntry key: ExprSyntax, value: ExprSyntax, depth: Int, budget: LookBackBudget) -> String? {
        if isFlagOrNumber(value) { return nil }
        if let name = keyName(key) { return "the `\(name)` entry" }
        return reason(for: value, depth: depth + 1, budget: budget)
    }

    /// The credential a key names: a string literal (`"auth_token"`), a constant whose value names
    /// one (`Keys.token`), or a name that does (`Keys.password`, `tokenKey`).
    package func keyName(_ key: ExprSyntax) -> String? {
        var stripped = Self.unwrapped(key)
        // `Keys.token.rawValue` names what `Keys.token` names (eight levels at most).
        for _ in 0..<8 {
            guard let member = stripped.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "rawValue",
                let base = member.base
            else { break }
            stripped = Self.unwrapped(base)
        }
        if let literal = stripped.as(StringLiteralExprSyntax.self) {
            guard let text = CredentialDeclarationCollector.plainText(literal), CredentialNames.isCredential(text)
            else { return nil }
            return text
        }
        let name: String
        if let reference = stripped.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = stripped.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            if let base = member.base?.trimmedDescription,
                context.module.credentials.isCredentialKeyConstant("\(base).\(name)")
            {
                return "\(base).\(name)"
            }
        } else {
            return nil
        }
        if context.module.credentials.isCredentialKeyConstant(name) || CredentialNames.isCredential(name) {
            return name
        }
        // A constant of the enclosing type used without its type name (`forKey: defaultsKey`).
        if stripped.is(DeclReferenceExprSyntax.self), let type = Self.enclosingTypeName(of: Syntax(stripped)),
            context.module.credentials.isCredentialKeyConstant("\(type).\(name)")
        {
            return "\(type).\(name)"
        }
        return nil
    }

    /// The name of the type or extension `node` is in (32 ancestors at most).
    private static func enclosingTypeName(of node: Syntax) -> String? {
        var current = node.parent
        for _ in 0..<32 {
            guard let ancestor = current else { return nil }
            if let type = ancestor.as(StructDeclSyntax.self) { return type.name.text }
            if let type = ancestor.as(ClassDeclSyntax.self) { return type.name.text }
            if let type = ancestor.as(EnumDeclSyntax.self) { return type.name.text }
            if let type = ancestor.as(ActorDeclSyntax.self) { return type.name.text }
            if let type = ancestor.as(ExtensionDeclSyntax.self) {
                return type.extendedType.trimmedDescription.split(separator: ".").last.map(String.init)
            }
            current = ancestor.parent
        }
        return nil
    }

    private func reason(forName name: String, at node: Syntax, depth: Int, budget: LookBackBudget) -> String? {
        if CredentialNames.isCredential(name) { return "`\(name)`" }
        guard let declaration = declaration(of: name, at: node, budget: budget) else {
            return typeReason(forValueNamed: name)
        }
        if let label = declaration.label, CredentialNames.isCredential(label) {
            return "`\(name)`, a parameter labelled `\(label)`"
        }
        if let type = declaration.type, let holder = credentialHolder(ofType: type) {
            return "`\(name)`, a `\(type)` that holds \(holder)"
        }
        if let initial = declaration.initializer, depth < 8,
            let origin = reason(for: initial, depth: depth + 1, budget: budget)
        {
            return origin.hasPrefix("`\(name)`") ? origin : "`\(name)` (from \(origin))"
        }
        if let entry = declaration.credentialEntry { return "`\(name)` (given \(entry))" }
        return nil
    }

    /// `loginInfo` for a module type `LoginInfo` that holds a credential.
    private func typeReason(forValueNamed name: String) -> String? {
        guard let first = name.first, first.isLowercase else { return nil }
        let type = first.uppercased() + name.dropFirst()
        guard let holder = credentialHolder(ofType: type) else { return nil }
        return "`\(name)`, a `\(type)` that holds \(holder)"
    }

    /// Members that hold their base's value in another form (`passwordField.text` is the password).
    private static let transformingMembers: Set<String> = [
        "utf8", "utf16", "utf8CString", "unicodeScalars", "text", "stringValue", "wrappedValue"
    ]

    private func reason(forMember member: MemberAccessExprSyntax, depth: Int, budget: LookBackBudget) -> String? {
        let name = member.declName.baseName.text
        guard let base = member.base else { return nil }
        if Self.transformingMembers.contains(name) { return reason(for: base, depth: depth + 1, budget: budget) }
        if base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            return reason(forName: name, at: Syntax(member), depth: depth, budget: budget)
        }
        // `Keys.token`, whose value is `"auth_token"`, is the name of a key, not a credential.
        if context.module.credentials.isCredentialKeyConstant("\(base.trimmedDescription).\(name)") { return nil }
        return CredentialNames.isCredential(name) ? "`\(name)`" : nil
    }

    /// Calls that turn their argument into bytes or text, or wrap it.
    private static let encodingFunctions: Set<String> = [
        "encode", "archivedData", "data", "jsonData", "base64EncodedString", "base64EncodedData", "encrypt",
        "serialize"
    ]

    private func reason(forCall call: FunctionCallExprSyntax, depth: Int, budget: LookBackBudget) -> String? {
        guard let callee = call.calleeName else { return nil }
        if let base = call.calleeBase {
            // `token.data(using: .utf8)`, `password.base64EncodedString()`.
            if ["data", "base64EncodedString", "base64EncodedData", "trimmingCharacters", "addingPercentEncoding"]
                .contains(callee), call.arguments.allSatisfy({ $0.label?.text != "withJSONObject" }),
                call.arguments.allSatisfy({ $0.label?.text != "fromPropertyList" }),
                let found = reason(for: base, depth: depth + 1, budget: budget)
            {
                return found
            }
            guard Self.encodingFunctions.contains(callee) else { return nil }
            // `JSONEncoder().encode(credentials)`, `NSKeyedArchiver.archivedData(withRootObject: token, …)`,
            // `JSONSerialization.data(withJSONObject: ["password": pw])`.
            for argument in call.arguments.prefix(2)
            where argument.label == nil
                || ["withRootObject", "withJSONObject", "fromPropertyList"]
                    .contains(argument.label?.text ?? "")
            {
                if let found = reason(for: argument.expression, depth: depth + 1, budget: budget) {
                    return "data encoded from \(found)"
                }
            }
            return nil
        }
        // `authToken()`, `currentPassword()`: a function named after the credential it returns.
        if call.arguments.isEmpty, call.trailingClosure == nil, CredentialNames.isCredential(callee) {
            return "`\(callee)()`"
        }
        if let holder = credentialHolder(ofType: callee) {
            return "a `\(callee)` that holds \(holder)"
        }
        // `Data(password.utf8)`, `String(data: token, encoding: .utf8)`, `NSDictionary(dictionary: d)`.
        let wrappers: Set<String> = [
            "Data", "String", "NSString", "NSData", "Array", "NSDictionary", "NSMutableDictionary", "NSArray",
            "CachedURLResponse"
        ]
        guard wrappers.contains(callee) else { return nil }
        for argument in call.arguments.prefix(3)
        where argument.label == nil
            || ["data", "decoding", "dictionary", "string", "bytes", "contentsOf", "array", "describing", "object"]
                .contains(argument.label?.text ?? "")
        {
            if let found = reason(for: argument.expression, depth: depth + 1, budget: budget) { return found }
        }
        return nil
    }

    /// Strips conversions, `try`, `await`, optional chaining and force unwraps.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        var current = expression
        for _ in 0..<16 {
            let stripped = current.strippingConversions
            if let tryExpression = stripped.as(TryExprSyntax.self) {
                current = tryExpression.expression
            } else if let awaitExpression = stripped.as(AwaitExprSyntax.self) {
                current = awaitExpression.expression
            } else if let optional = stripped.as(OptionalChainingExprSyntax.self) {
                current = optional.expression
            } else {
                return stripped
            }
        }
        return current
    }
}

/// A bounded number of look-back steps, shared by one question's recursion.
final class LookBackBudget {
    private var remaining = 400

    /// Takes one step; false when none is left.
    func spend() -> Bool {
        remaining -= 1
        return remaining >= 0
    }
}
