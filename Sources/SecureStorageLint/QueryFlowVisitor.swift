import SwiftSyntax

/// Follows query dictionaries and SecItem statuses through each function of a file and reports
/// `delete-then-add`, `unchecked-status`, `implicit-accessibility` and `return-data-match-all`.
///
/// A scope is a function, initializer, accessor or closure body (the file's top level is one
/// too). Within a scope the visitor sees statements in source order: it records each query
/// variable's keys as they are built (`let query = [kSecClass: …]`, `query[kSecValueData] = data`,
/// `var add = query`), each SecItem call with the query it was given, and each status variable
/// with the ways it is read. The rules are decided when the scope ends.
///
/// What the module declares (``QueryFacts``) is known too: Security constant aliases in key
/// position (`K.attrAccount`), queries returned by builders (`baseQuery(key)`, `self.baseQuery`)
/// with their parameters replaced by the call's arguments, and which functions delete or add
/// (transitively). `delete-then-add` is reported when, in one scope, a delete (SecItemDelete or a
/// deleting function) is followed by an add of the same item (same class and identity, or an
/// account built from the deleting call's argument: `delete(key)` then `keyPrefix + key`). It is
/// not reported for a move (another key), a delete in another function, a delete of every item of
/// a service followed by an add of one account, an add that runs only when the delete returned
/// `errSecItemNotFound` (nothing was deleted), or an adding call on another receiver than the
/// deleting one (`keychain.remove(key)` then `defaults.set(true, forKey: key)`).
final class QueryFlowVisitor: SyntaxVisitor {
    private let context: FileLintContext
    private var scopes: [FunctionScope]
    /// Deletions through one of the module's deleting functions (`delete(key)`) followed by
    /// `SecItemAdd` of a query built from the same argument, reported when the file is done.
    private var helperDeletions: [(call: FunctionCallExprSyntax, add: RecordedCall)] = []
    /// How many status variables the open scopes hold (reads are only classified when some are).
    private var openStatusVariables = 0

    /// How many calls of deleting and adding functions of one scope are paired.
    static let maximumHelperCalls = 32

    /// What the module declares: aliases, query builders, deleting and adding functions.
    let facts: QueryFacts
    /// Names the module gives Security constants.
    let aliases: SecurityAliases
    /// A deleting function's call followed by an adding function's call on the same receiver
    /// that shares an argument with it (`remove(key); set(value, key: key)`).
    private var helperReplacements: [(delete: FunctionCallExprSyntax, add: FunctionCallExprSyntax)] = []

    init(context: FileLintContext) {
        self.context = context
        facts = context.module.queries
        aliases = SecurityAliases(facts: context.module.queries)
        scopes = [FunctionScope(allowsImplicitReturn: false)]
        super.init(viewMode: .sourceAccurate)
    }

    /// Decides the rules for the top level and the helper deletions; call after `walk`.
    func finish() {
        closeScope()
        var reported: Set<SyntaxIdentifier> = []
        for (delete, add) in helperReplacements where reported.insert(delete.id).inserted {
            context.report(
                .deleteThenAdd, at: delete,
                "\(delete.calleeName ?? "this call") deletes the item before \(add.calleeName ?? "the next call") adds it again; if the add fails (a locked device returns errSecInteractionNotAllowed) the value is lost. Add, and on errSecDuplicateItem call SecItemUpdate.",
                related: (add, "the item is added again here"))
        }
        for (call, add) in helperDeletions where reported.insert(call.id).inserted {
            context.report(
                .deleteThenAdd, at: call,
                "\(call.calleeName ?? "this call") deletes the item before SecItemAdd adds it again; if the add fails (a locked device returns errSecInteractionNotAllowed) the value is lost. Add, and on errSecDuplicateItem call SecItemUpdate.",
                related: (add.node, "the item is added again here"))
        }
    }

    // MARK: Scopes

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let scope = FunctionScope(allowsImplicitReturn: node.signature.returnClause != nil, name: node.name.text)
        // A parameter hides a query property of the same name.
        for parameter in node.signature.parameterClause.parameters {
            scope.declared.insert((parameter.secondName ?? parameter.firstName).text)
        }
        scopes.append(scope)
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) { closeScope() }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(FunctionScope(allowsImplicitReturn: false))
        return .visitChildren
    }
    override func visitPost(_ node: InitializerDeclSyntax) { closeScope() }

    override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(FunctionScope(allowsImplicitReturn: node.accessorSpecifier.tokenKind == .keyword(.get)))
        return .visitChildren
    }
    override func visitPost(_ node: AccessorDeclSyntax) { closeScope() }

    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind {
        // `var status: OSStatus { SecItemAdd(…) }`: a getter written without `get`.
        if case .getter = node.accessors { scopes.append(FunctionScope(allowsImplicitReturn: true)) }
        return .visitChildren
    }
    override func visitPost(_ node: AccessorBlockSyntax) {
        if case .getter = node.accessors { closeScope() }
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(FunctionScope(allowsImplicitReturn: true))
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) { closeScope() }

    // MARK: Queries and statuses

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return .visitChildren }
        currentScope.declared.insert(name)
        guard let value = node.initializer?.value else { return .visitChildren }
        if node.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.let) {
            currentScope.constants[name] = value
        }
        bind(name, to: value, at: node)
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        guard let (target, assigned) = node.assignment else { return .visitChildren }
        let value = assigned ?? node.assignedExpression ?? ExprSyntax(node)
        if target.is(DiscardAssignmentExprSyntax.self),
            let call = value.strippingConversions.as(FunctionCallExprSyntax.self),
            SecItemFunction(call: call) != nil
        {
            currentScope.discardedCalls.insert(call.id)
        } else if let subscriptCall = target.as(SubscriptCallExprSyntax.self),
            let name = subscriptCall.calledExpression.referencedName,
            subscriptCall.arguments.count == 1, let key = subscriptCall.arguments.first?.expression
        {
            updateQuery(named: name) { query in
                if let constant = aliases.constantName(key) {
                    if value.is(NilLiteralExprSyntax.self) {
                        query.entries[constant] = nil
                    } else {
                        query.entries[constant] = self.value(of: value)
                    }
                } else {
                    query.isComplete = false
                }
            }
        } else if let name = target.referencedName {
            bind(name, to: value, at: node, isReassignment: true)
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let function = SecItemFunction(call: node) {
            record(function, node)
        } else if let name = node.calleeBase?.referencedName, let callee = node.calleeName {
            switch callee {
            case "merge", "merging", "addEntries", "setValue", "setObject", "updateValue":
                updateQuery(named: name) { $0.isComplete = false }
            case "removeValue", "removeObject":
                if let key = node.arguments.first.flatMap({ aliases.constantName($0.expression) }) {
                    updateQuery(named: name) { $0.entries[key] = nil }
                }
            default:
                break
            }
        }
        if !node.arguments.isEmpty, facts.isDeleting(node), SecItemFunction(call: node) == nil,
            Self.mayBeKeychainReceiver(node.calleeBase)
        {
            currentScope.helperCalls.append((node, currentScope.calls.count))
        } else if !currentScope.helperCalls.isEmpty, !node.arguments.isEmpty, facts.isAdding(node),
            SecItemFunction(call: node) == nil
        {
            currentScope.addingCallsAfterHelpers.append(node)
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        guard openStatusVariables > 0 else { return .visitChildren }
        // `response.status` is another value's member, not the variable.
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
            return .visitChildren
        }
        let name = node.baseName.text
        for scope in scopes.reversed() where scope.statuses[name] != nil {
            if node.parent?.is(PatternBindingSyntax.self) == true { break }
            if let isAssignmentTarget = assignmentTarget(node), isAssignmentTarget { break }
            if comparedOnlyWithItemNotFound(ExprSyntax(node)) {
                scope.statuses[name]?.notFoundComparisons.append(Syntax(node))
            } else {
                scope.statuses[name]?.otherUses += 1
            }
            break
        }
        return .visitChildren
    }

    // MARK: Recording

    private var currentScope: FunctionScope { scopes[scopes.count - 1] }

    private func record(_ function: SecItemFunction, _ call: FunctionCallExprSyntax) {
        let query = call.arguments.first.map { self.query(of: $0.expression) }
        currentScope.calls.append(RecordedCall(function: function, node: call, query: query))
    }

    private func bind(_ name: String, to value: ExprSyntax, at node: some SyntaxProtocol, isReassignment: Bool = false)
    {
        let stripped = value.strippingConversions
        if let call = stripped.as(FunctionCallExprSyntax.self), let function = SecItemFunction(call: call) {
            // `var status = errSecNotAvailable; queue.sync { status = SecItemAdd(…) }`: the variable
            // belongs to the scope that declared it, where it is read.
            let scope =
                isReassignment
                ? (scopes.last { $0.statuses[name] != nil } ?? scopes.last { $0.declared.contains(name) }
                    ?? currentScope) : currentScope
            if scope.statuses[name] == nil { openStatusVariables += 1 }
            scope.statuses[name, default: StatusVariable(function: function, call: call)].assignments += 1
            currentScope.assignedCalls.insert(call.id)
            return
        }
        let origin = "\(name)#\(node.position.utf8Offset)"
        let query: KeychainQuery
        if let literal = stripped.as(DictionaryExprSyntax.self) {
            query = KeychainQuery(literal: literal, origin: origin, aliases: aliases, value: self.value(of:))
        } else if let built = builtQuery(stripped) {
            query = built
        } else if let passedOn = queryPassedThrough(stripped) {
            query = passedOn
        } else if let source = stripped.referencedName {
            // A copy: of a known query, or of a parameter or property known only by its name.
            query = lookupQuery(source) ?? KeychainQuery(opaque: stripped.trimmedDescription)
        } else if let call = stripped.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
            call.trailingClosure == nil,
            call.calledExpression.is(DictionaryExprSyntax.self)
                || call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "NSMutableDictionary"
        {
            query = KeychainQuery(
                literal: DictionaryExprSyntax(content: .colon(.colonToken())), origin: origin, aliases: aliases,
                value: self.value(of:))
        } else {
            // Built elsewhere (`makeQuery(account:)`): nothing known but that it is this binding's,
            // so a reassigned variable names another item than before.
            query = KeychainQuery(opaque: origin)
        }
        let scope =
            isReassignment
            ? (scopes.last { $0.queries[name] != nil } ?? scopes.last { $0.declared.contains(name) } ?? currentScope)
            : currentScope
        scope.queries[name] = query
    }

    func lookupQuery(_ name: String) -> KeychainQuery? {
        for scope in scopes.reversed() { if let query = scope.queries[name] { return query } }
        return nil
    }

    private func updateQuery(named name: String, _ change: (inout KeychainQuery) -> Void) {
        guard let scope = scopes.last(where: { $0.queries[name] != nil }) else { return }
        change(&scope.queries[name]!)
    }

    private func query(of expression: ExprSyntax) -> KeychainQuery {
        let stripped = expression.strippingConversions
        if let literal = stripped.as(DictionaryExprSyntax.self) {
            return KeychainQuery(
                literal: literal, origin: "literal#\(literal.position.utf8Offset)", aliases: aliases,
                value: self.value(of:))
        }
        if let name = stripped.referencedName, let known = lookupQuery(name) { return known }
        if let built = builtQuery(stripped) { return built }
        return KeychainQuery(opaque: stripped.trimmedDescription)
    }

    /// Whether a name is a variable or parameter of an open scope.
    func isDeclared(_ name: String) -> Bool { scopes.contains { $0.declared.contains(name) } }

    /// The value of a `let` declared in an open scope.
    func localConstant(_ name: String) -> ExprSyntax? {
        for scope in scopes.reversed() { if let value = scope.constants[name] { return value } }
        return nil
    }

    /// Whether the reference is the left side of `=` (a new value, not a read).
    private func assignmentTarget(_ node: DeclReferenceExprSyntax) -> Bool? {
        guard let list = node.parent?.as(ExprListSyntax.self), list.first?.id == node.id,
            list.count >= 2
        else { return nil }
        return list.dropFirst().first?.is(AssignmentExprSyntax.self)
    }

    /// Whether an expression is only compared with `errSecItemNotFound` (`== errSecItemNotFound`,
    /// `errSecItemNotFound != status`).
    private func comparedOnlyWithItemNotFound(_ expression: ExprSyntax) -> Bool {
        // Comparisons are short sequences; a long one (`a + b + …`) is not a comparison with a constant.
        guard let list = expression.parent?.as(ExprListSyntax.self), list.count <= 16 else { return false }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == expression.id }) else { return false }
        func isEquality(_ element: ExprSyntax) -> Bool {
            guard let text = element.as(BinaryOperatorExprSyntax.self)?.operator.text else { return false }
            return text == "==" || text == "!="
        }
        if index + 2 < elements.count, isEquality(elements[index + 1]) {
            return elements[index + 2].securityConstantName == "errSecItemNotFound"
        }
        if index >= 2, isEquality(elements[index - 1]) {
            return elements[index - 2].securityConstantName == "errSecItemNotFound"
        }
        return false
    }

    // MARK: Deciding

    private func closeScope() {
        let scope = scopes.removeLast()
        openStatusVariables -= scope.statuses.count
        var reportedDeletes: Set<SyntaxIdentifier> = []
        for (index, delete) in scope.calls.enumerated() where delete.function == .delete {
            guard let deleteQuery = delete.query,
                let add = scope.calls[(index + 1)...].first(where: {
                    $0.function == .add && $0.query.map(deleteQuery.isSameItem) == true
                }),
                !runsOnlyWhenNothingDeleted(add.node, after: delete.node, statuses: scope.statuses),
                !deletePathEnds(delete.node, before: add.node)
            else { continue }
            reportedDeletes.insert(delete.node.id)
            context.report(
                .deleteThenAdd, at: delete.node,
                "SecItemDelete removes the item that SecItemAdd adds again below; if the add fails (a locked device returns errSecInteractionNotAllowed) the value is lost. Add, and on errSecDuplicateItem call SecItemUpdate.",
                related: (add.node, "the item is added again here"))
        }
        // Real functions delete a few times; a generated one with thousands of calls is not paired quadratically.
        for (helper, callsBefore) in scope.helperCalls.prefix(Self.maximumHelperCalls) {
            let deleted = helper.arguments.map { value(of: $0.expression) }
            if let add = scope.calls[callsBefore...].first(where: { call in
                call.function == .add && call.query.map { addsItem(named: deleted, $0) } == true
            }), !deletePathEnds(helper, before: add.node) {
                helperDeletions.append((helper, add))
            }
        }
        for (helper, _) in scope.helperCalls.prefix(Self.maximumHelperCalls) {
            let deleted = helper.arguments.map { value(of: $0.expression) }
            let helperReceiver = receiver(of: helper)
            if let add = scope.addingCallsAfterHelpers.prefix(Self.maximumHelperCalls).first(where: { call in
                call.position > helper.position && receiver(of: call) == helperReceiver
                    && call.arguments.contains { argument in sharesName(deleted, value(of: argument.expression)) }
            }), !deletePathEnds(helper, before: add) {
                helperReplacements.append((helper, add))
            }
        }
        for call in scope.calls {
            if let query = call.query { checkQuery(call, query) }
            guard !reportedDeletes.contains(call.node.id), !scope.assignedCalls.contains(call.node.id) else { continue }
            if scope.discardedCalls.contains(call.node.id) {
                context.report(
                    .uncheckedStatus, at: call.node,
                    "the status of \(call.function.rawValue) is discarded; a failure (errSecInteractionNotAllowed while the device is locked, errSecDuplicateItem, a full disk) goes unnoticed."
                )
                continue
            }
            if isIgnoredStatement(call.node, scopeAllowsImplicitReturn: scope.allowsImplicitReturn) {
                context.report(
                    .uncheckedStatus, at: call.node,
                    "the status of \(call.function.rawValue) is ignored; a failure (errSecInteractionNotAllowed while the device is locked, errSecDuplicateItem, a full disk) goes unnoticed."
                )
            } else if comparedOnlyWithItemNotFound(ExprSyntax(call.node)) {
                context.report(.uncheckedStatus, at: call.node, notFoundOnlyMessage(call.function))
            }
        }
        for (name, status) in scope.statuses.sorted(by: { $0.key < $1.key }) where status.otherUses == 0 {
            if let first = status.notFoundComparisons.first {
                context.report(.uncheckedStatus, at: first, notFoundOnlyMessage(status.function) + " (`\(name)`)")
            } else {
                context.report(
                    .uncheckedStatus, at: status.call,
                    "`\(name)`, the status of \(status.function.rawValue), is never read; a failure goes unnoticed.")
            }
        }
    }

    private func notFoundOnlyMessage(_ function: SecItemFunction) -> String {
        "the status of \(function.rawValue) is only compared with errSecItemNotFound; every other failure, such as errSecInteractionNotAllowed (-25308) on a locked device, passes as success or as a missing item."
    }

    private func checkQuery(_ call: RecordedCall, _ query: KeychainQuery) {
        switch call.function {
        case .add:
            guard query.isComplete, query.entries["kSecAttrAccessible"] == nil,
                query.entries["kSecAttrAccessControl"] == nil
            else { return }
            let itemClass = query.constant(for: "kSecClass")
            let isPassword =
                itemClass == "kSecClassGenericPassword" || itemClass == "kSecClassInternetPassword"
                || (query.entries["kSecClass"] != nil && itemClass == nil && query.entries["kSecValueData"] != nil)
            guard isPassword else { return }
            context.report(
                .implicitAccessibility, at: call.node,
                "this item is added without kSecAttrAccessible, so it is kSecAttrAccessibleWhenUnlocked and unreadable from the background while the device is locked; say which accessibility it needs."
            )
        case .copyMatching:
            guard query.entries["kSecReturnData"]?.isTrue == true,
                query.constant(for: "kSecMatchLimit") == "kSecMatchLimitAll"
            else { return }
            context.report(
                .returnDataMatchAll, at: call.node,
                "kSecReturnData with kSecMatchLimitAll decrypts every matching item at once and is refused with errSecParam for some classes; return attributes and persistent references, then read one item's data."
            )
        case .update, .delete:
            return
        }
    }

    /// Whether a one-statement closure's value is used: not when it is the work given to a queue,
    /// a task or an event (`DispatchQueue.global().async { SecItemDelete(q) }`, `Button("Sign out")
    /// { SecItemDelete(q) }`), or a handler stored in a property (`onLogout = { SecItemDelete(q) }`).
    private func returnsValue(_ closure: ClosureExprSyntax) -> Bool {
        if let list = closure.parent?.as(ExprListSyntax.self), list.count == 3, list.last?.id == closure.id,
            list.dropFirst().first?.is(AssignmentExprSyntax.self) == true
        {
            return false
        }
        var call = closure.parent?.as(FunctionCallExprSyntax.self)
        if call == nil, let argument = closure.parent?.as(LabeledExprSyntax.self) {
            call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        }
        guard let name = call?.calleeName else { return true }
        return ![
            "async", "asyncAfter", "sync", "forEach", "perform", "performAndWait", "Task", "detached", "addOperation",
            "execute",
            "asyncAndWait", "addTask", "Button", "onAppear", "onDisappear", "onTapGesture", "task", "sink",
            "addObserver", "onChange",
            "onReceive", "onSubmit", "scheduledTimer", "addAction", "UIAction", "Timer", "refreshable"
        ].contains(name)
    }

    /// Whether a call is a statement of its own whose value nobody uses (not the implicit return
    /// of a one-statement closure, getter or function that returns something).
    private func isIgnoredStatement(_ call: FunctionCallExprSyntax, scopeAllowsImplicitReturn: Bool) -> Bool {
        var node = Syntax(call)
        // `try? SecItemAdd(…)` and `await` do not change what happens to the status.
        while let parent = node.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
            node = parent
        }
        guard let item = node.parent?.as(CodeBlockItemSyntax.self) else { return false }
        if scopeAllowsImplicitReturn, let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
            list.parent?.as(ClosureExprSyntax.self).map(returnsValue) == true
                || list.parent?.parent?.is(FunctionDeclSyntax.self) == true
                || list.parent?.parent?.is(AccessorDeclSyntax.self) == true
                || list.parent?.is(AccessorBlockSyntax.self) == true
        {
            return false
        }
        return true
    }
}

/// What one function (or closure) body has done so far.
final class FunctionScope {
    /// Whether a lone expression statement is the body's value (closures, functions with a result).
    let allowsImplicitReturn: Bool
    /// The function's name, for functions.
    let name: String?
    /// Query variables declared here.
    var queries: [String: KeychainQuery] = [:]
    /// SecItem calls, in source order.
    var calls: [RecordedCall] = []
    /// Names declared here (`let`, `var`).
    var declared: Set<String> = []
    /// Status variables declared here (`let status = SecItemAdd(…)`).
    var statuses: [String: StatusVariable] = [:]
    /// Calls whose status is assigned to a variable.
    var assignedCalls: Set<SyntaxIdentifier> = []
    /// Calls whose status is assigned to `_`.
    var discardedCalls: Set<SyntaxIdentifier> = []
    /// Calls of the module's adding functions after such a call (`set(value, key: key)`).
    var addingCallsAfterHelpers: [FunctionCallExprSyntax] = []
    /// Values of the `let`s declared here, by name.
    var constants: [String: ExprSyntax] = [:]
    /// Calls of the module's deleting functions (`delete(key)`), with the number of SecItem calls before them.
    var helperCalls: [(FunctionCallExprSyntax, Int)] = []

    init(allowsImplicitReturn: Bool, name: String? = nil) {
        self.allowsImplicitReturn = allowsImplicitReturn
        self.name = name
    }
}

/// A SecItem call and the query it was given.
struct RecordedCall {
    let function: SecItemFunction
    let node: FunctionCallExprSyntax
    let query: KeychainQuery?
}

/// A variable holding a SecItem status and how it is read.
struct StatusVariable {
    let function: SecItemFunction
    let call: FunctionCallExprSyntax
    var assignments = 0
    var notFoundComparisons: [Syntax] = []
    var otherUses = 0
}
