import SwiftSyntax

/// Reports `logged-secret`: a value read from the keychain, or a credential known by its name or
/// origin (``CredentialEvidence``), reaching a log unredacted (``LogSink``): `print`,
/// `debugPrint`, `dump`, `NSLog`, `fatalError`, a logger's methods, and in Apple's unified logging
/// (`os_log`, `Logger`) only values marked public.
///
/// Values read from the keychain are the `&result` of `SecItemCopyMatching`, what a keychain
/// wrapper's getter returns (`keychain.get("token")`, `KeychainWrapper.standard.string(forKey:)`,
/// `keychain["token"]`), what a function of the same file returns when it returns one of those,
/// and every name bound from them (`let data = result as? Data`, `String(data: data, …)`).
/// Their `count`, `isEmpty` and comparisons with `nil` are not secret, nor is an interpolation
/// marked `privacy: .private`, `.sensitive` or `.auto`. Credentials by name are judged by
/// ``LoggedCredentialProbe``.
final class LoggedSecretVisitor: SyntaxVisitor {
    private let context: FileLintContext
    /// Functions of this file that return a keychain value (found by the first pass).
    private let secretReturningFunctions: Set<String>
    /// Whether this pass reports (the first pass only learns which functions return secrets).
    private let reports: Bool
    /// Functions found returning a keychain value.
    private(set) var functionsReturningSecrets: Set<String> = []
    /// Names holding keychain values, and names rebound to something else, per block.
    private var scopes: [TaintScope] = [TaintScope()]
    /// Query dictionaries written as literals, by variable name (to tell attribute-only reads).
    private var queryLiterals: [String: DictionaryExprSyntax] = [:]
    private var functionNames: [String] = []
    /// Whether the file imports `os` or `OSLog` (so that `logger.debug` is Apple's `Logger`).
    private var importsUnifiedLogging = false
    private let evidence: CredentialEvidence

    private static let getterPrefixes = [
        "get", "string", "data", "retrieve", "read", "load", "password", "find", "value", "object", "fetch", "token",
        "secret"
    ]

    init(context: FileLintContext, secretReturningFunctions: Set<String>, reports: Bool) {
        self.context = context
        self.secretReturningFunctions = secretReturningFunctions
        self.reports = reports
        self.evidence = CredentialEvidence(context: context, judgesLoggedText: true)
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Scopes

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let module = node.path.first?.name.text, module == "os" || module == "OSLog" { importsUnifiedLogging = true }
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(TaintScope())
        functionNames.append(node.name.text)
        return .visitChildren
    }
    override func visitPost(_ node: FunctionDeclSyntax) {
        scopes.removeLast()
        functionNames.removeLast()
    }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(TaintScope())
        return .visitChildren
    }
    override func visitPost(_ node: ClosureExprSyntax) { scopes.removeLast() }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        scopes.append(TaintScope())
        return .visitChildren
    }
    override func visitPost(_ node: CodeBlockSyntax) { scopes.removeLast() }

    // MARK: Sources

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if SecItemFunction(call: node) == .copyMatching, node.arguments.count == 2,
            let name = node.arguments.last?.expression.as(InOutExprSyntax.self)?.expression.referencedName,
            !returnsAttributesOnly(node.arguments.first?.expression)
        {
            taint(name)
        }
        if reports, let sink = LogSink(call: node, unifiedLoggingImported: importsUnifiedLogging) {
            report(sink, at: node)
        }
        return .visitChildren
    }

    override func visitPost(_ node: PatternBindingSyntax) {
        guard let value = node.initializer?.value else { return }
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let literal = value.strippingConversions.as(DictionaryExprSyntax.self)
        {
            queryLiterals[name] = literal
        }
        bind(node.pattern, secret: secretExpression(in: value) != nil)
    }

    override func visitPost(_ node: OptionalBindingConditionSyntax) {
        let source: ExprSyntax? =
            node.initializer?.value
            ?? node.pattern.as(IdentifierPatternSyntax.self).map {
                ExprSyntax(DeclReferenceExprSyntax(baseName: $0.identifier))
            }
        guard let source else { return }
        bind(node.pattern, secret: isSecret(source))
    }

    /// Taints the names of a pattern, or marks them rebound to something that is not a keychain
    /// value (`if let data = try? Data(contentsOf: url)` after `let data = result as? Data`).
    private func bind(_ pattern: PatternSyntax, secret: Bool) {
        for token in pattern.tokens(viewMode: .sourceAccurate) where token.tokenKind.isIdentifier {
            if secret {
                taint(token.text)
            } else if isTainted(token.text) {
                scopes[scopes.count - 1].cleared.insert(token.text)
            }
        }
    }

    /// Whether a `SecItemCopyMatching` query asks for attributes or references and not for data.
    private func returnsAttributesOnly(_ query: ExprSyntax?) -> Bool {
        guard let query = query?.strippingConversions else { return false }
        let literal = query.as(DictionaryExprSyntax.self) ?? query.referencedName.flatMap { queryLiterals[$0] }
        guard let literal, case .elements(let elements) = literal.content else { return false }
        var asksForData = false
        var asksForOther = false
        for element in elements {
            switch element.key.securityConstantName {
            case "kSecReturnData": asksForData = asksForData || element.value.isTrueLiteral
            case "kSecReturnAttributes", "kSecReturnRef", "kSecReturnPersistentRef":
                asksForOther = asksForOther || element.value.isTrueLiteral
            default: break
            }
        }
        return asksForOther && !asksForData
    }

    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        var scope = TaintScope()
        if secretExpression(in: node.sequence) != nil {
            scope.tainted = Set(
                node.pattern.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind.isIdentifier }.map(\.text))
        }
        scopes.append(scope)
        return .visitChildren
    }
    override func visitPost(_ node: ForStmtSyntax) { scopes.removeLast() }

    override func visitPost(_ node: SequenceExprSyntax) {
        guard let (target, value) = node.assignment, let name = target.referencedName,
            secretExpression(in: value ?? ExprSyntax(node)) != nil
        else { return }
        taint(name)
    }

    override func visitPost(_ node: ReturnStmtSyntax) {
        guard let value = node.expression, let function = functionNames.last, secretExpression(in: value) != nil else {
            return
        }
        functionsReturningSecrets.insert(function)
    }

    // MARK: Reporting

    /// Reports the first exposed part of a sink's call that is a keychain value or a credential.
    private func report(_ sink: LogSink, at call: FunctionCallExprSyntax) {
        let consequence =
            sink.isUnifiedLogging
            ? "\(sink.name) with public privacy, which keeps it unredacted in the unified log; drop `public` "
                + "or log its length instead."
            : "\(sink.name), which keeps it in logs or on standard output; log that it was found, or its length, "
                + "instead."
        for exposed in sink.exposed {
            if let secret = secretExpression(in: exposed) {
                context.report(
                    .loggedSecret, at: call, "\(secret) comes from the keychain and is passed to \(consequence)")
                return
            }
        }
        for exposed in sink.exposed {
            if let credential = LoggedCredentialProbe.credential(in: exposed, evidence: evidence) {
                context.report(.loggedSecret, at: call, "a credential (\(credential)) is passed to \(consequence)")
                return
            }
        }
        for exposed in sink.exposed {
            if let label = LoggedCredentialLabel.label(in: exposed, evidence: evidence) {
                context.report(
                    .loggedSecret, at: call, "a value the message labels `\(label)` is passed to \(consequence)")
                return
            }
        }
    }

    // MARK: Judging

    private func taint(_ name: String) {
        scopes[scopes.count - 1].tainted.insert(name)
        scopes[scopes.count - 1].cleared.remove(name)
    }

    private func isTainted(_ name: String) -> Bool {
        for scope in scopes.reversed() {
            if scope.cleared.contains(name) { return false }
            if scope.tainted.contains(name) { return true }
        }
        return false
    }

    /// Whether the expression is (not merely mentions) a keychain value.
    private func isSecret(_ expression: ExprSyntax) -> Bool { secretExpression(in: expression) != nil }

    /// How a keychain value appears in an expression (`result`, `keychain.get(…)`), if it does.
    private func secretExpression(in expression: ExprSyntax) -> String? {
        let probe = SecretProbe(isTainted: isTainted, isSecretCall: isSecretCall)
        probe.walk(expression)
        return probe.found
    }

    private func isSecretCall(_ call: FunctionCallExprSyntax) -> Bool {
        guard let callee = call.calleeName else { return false }
        if SecItemFunction(call: call) != nil { return false }
        let isOwnFunction =
            call.calleeBase == nil
            || call.calleeBase?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
        if isOwnFunction && secretReturningFunctions.contains(callee) { return true }
        guard let base = call.calleeBase, Self.isKeychainReceiver(base) else { return false }
        let lowered = callee.lowercased()
        return Self.getterPrefixes.contains { lowered.hasPrefix($0) }
    }

    static func isKeychainReceiver(_ expression: some SyntaxProtocol) -> Bool {
        for token in expression.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind else { continue }
            let words = CredentialNames.words(of: name)
            if words.contains(where: { $0 == "keychain" || $0 == "valet" || $0 == "vault" })
                || (words.contains("secure") && words.contains("storage"))
            {
                return true
            }
        }
        return false
    }
}

/// The names of one block that hold keychain values, and those rebound to other values.
private struct TaintScope {
    var tainted: Set<String> = []
    var cleared: Set<String> = []
}

/// Looks through one expression for a keychain value that is used as itself (not its `count`).
private final class SecretProbe: SyntaxVisitor {
    let isTainted: (String) -> Bool
    let isSecretCall: (FunctionCallExprSyntax) -> Bool
    var found: String?

    init(isTainted: @escaping (String) -> Bool, isSecretCall: @escaping (FunctionCallExprSyntax) -> Bool) {
        self.isTainted = isTainted
        self.isSecretCall = isSecretCall
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, isTainted(node.baseName.text), !isNeutralized(Syntax(node)) {
            found = "`\(node.baseName.text)`"
        }
        return .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if SecItemFunction(call: node) != nil { return .skipChildren }
        if found == nil, isSecretCall(node), !isNeutralized(Syntax(node)) {
            found = "`\(node.calledExpression.trimmedDescription)(…)`"
        }
        return .visitChildren
    }

    override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, LoggedSecretVisitor.isKeychainReceiver(node.calledExpression), !isNeutralized(Syntax(node)) {
            found = "`\(node.calledExpression.trimmedDescription)[…]`"
        }
        return .visitChildren
    }

    override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        // `result.count`, `data.isEmpty`: the length is not the secret.
        ["count", "isEmpty", "hashValue", "byteCount"].contains(node.declName.baseName.text)
            ? .skipChildren : .visitChildren
    }

    override func visit(_ node: ExpressionSegmentSyntax) -> SyntaxVisitorContinueKind {
        // `"\(token, privacy: .private)"`, `.sensitive`, `.auto`: os.Logger redacts it.
        let redacted = node.expressions.contains { argument in
            argument.label?.text == "privacy" && LogSink.privacyLevel(argument.expression) != "public"
        }
        return redacted ? .skipChildren : .visitChildren
    }

    /// `value == nil`, `value != nil`: whether it exists is not the secret.
    private func isNeutralized(_ node: Syntax) -> Bool {
        // Comparisons are short sequences; a long one (`a + b + …`) is not a nil check.
        guard let list = node.parent?.as(ExprListSyntax.self), list.count <= 16 else { return false }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == node.id }) else { return false }
        func isNilComparison(_ operatorIndex: Int, _ operandIndex: Int) -> Bool {
            guard elements.indices.contains(operatorIndex), elements.indices.contains(operandIndex),
                let text = elements[operatorIndex].as(BinaryOperatorExprSyntax.self)?.operator.text
            else { return false }
            return (text == "==" || text == "!=") && elements[operandIndex].is(NilLiteralExprSyntax.self)
        }
        return isNilComparison(index + 1, index + 2) || isNilComparison(index - 1, index - 2)
    }
}
