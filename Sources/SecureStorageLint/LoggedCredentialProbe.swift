import SwiftSyntax

/// Looks through one logged expression for a credential by its name or origin (what
/// ``CredentialEvidence`` says), used as itself: `password`, `user.password`, `"\(token)"`,
/// `String(describing: credentials)`, `pinTextField.text`, `params["password"]`.
///
/// Not as itself: its length or emptiness (`token.count`, `password.isEmpty`), a comparison
/// (`token == nil`, `a == b`), other properties (`token.expiresAt`), what a function makes of it
/// (`hash(password)`), names of settings (`hasToken`) and of views (`passwordField`), and the
/// words `session`, `auth` and `authorization` alone (usually an `URLSession`, a `FirebaseAuth`
/// or an `ASAuthorization`, whose description holds no secret).
final class LoggedCredentialProbe: SyntaxVisitor {
    private let evidence: CredentialEvidence
    /// Why the first credential found is one (`` `token` ``), once found.
    private(set) var found: String?

    /// Members that are not the value: its length, emptiness, hash.
    private static let neutralMembers: Set<String> = [
        "count", "isEmpty", "hashValue", "byteCount", "length", "hash", "utf8CString", "startIndex", "endIndex"
    ]
    /// Members and methods that are the value in another form.
    private static let transparentMembers: Set<String> = [
        "description", "debugDescription", "text", "stringValue", "utf8", "rawValue", "base64EncodedString",
        "uppercased", "lowercased", "trimmingCharacters", "absoluteString", "data", "string", "value", "wrappedValue"
    ]
    /// Conversions whose arguments are the value (`String(describing: token)`).
    private static let conversions: Set<String> = ["String", "NSString", "Data", "Substring", "Array", "Optional"]
    /// Last words of names of views that show a credential rather than hold it (`passwordField`).
    private static let viewWords: Set<String> = [
        "field", "textfield", "input", "label", "view", "button", "cell", "entry", "box", "row", "controller"
    ]
    /// Credential words too often something else to report alone in a log.
    private static let weakWords: Set<String> = ["session", "auth", "authorization"]
    /// Operators whose result is not the operand: comparisons and logic.
    private static let neutralOperators: Set<String> = [
        "==", "!=", "===", "!==", "<", ">", "<=", ">=", "&&", "||", "~="
    ]

    init(evidence: CredentialEvidence) {
        self.evidence = evidence
        super.init(viewMode: .sourceAccurate)
    }

    /// Why `expression` logs a credential, or nil.
    static func credential(in expression: ExprSyntax, evidence: CredentialEvidence) -> String? {
        let probe = LoggedCredentialProbe(evidence: evidence)
        probe.walk(expression)
        return probe.found
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        guard found == nil, let first = name.utf8.first, Self.isLoggable(name) else { return .skipChildren }
        // A capitalised name is a type (`Token.self`) unless it is bound in the function (`let JWT = …`).
        if first >= 0x41 && first <= 0x5A,
            evidence.declaration(of: name, at: Syntax(node), budget: LookBackBudget()) == nil
        {
            return .skipChildren
        }
        found = evidence.reason(for: ExprSyntax(node))
        return .skipChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        guard found == nil, let base = node.base else { return .skipChildren }
        let member = node.declName.baseName.text
        if Self.neutralMembers.contains(member) { return .skipChildren }
        if member == "text" || member == "stringValue" {
            // `pinTextField.text`: the text of a view named for a credential.
            if let name = base.as(DeclReferenceExprSyntax.self)?.baseName.text
                ?? base.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                let last = CredentialNames.words(of: name).last, Self.viewWords.contains(last)
            {
                found = evidence.reason(for: base)
                return .skipChildren
            }
        }
        if Self.isLoggable(member), let reason = evidence.reason(for: ExprSyntax(node)) {
            found = reason
            return .skipChildren
        }
        return Self.transparentMembers.contains(member) ? .visitChildren : .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            guard Self.conversions.contains(reference.baseName.text) else { return .skipChildren }
            walk(node.arguments)
            return .skipChildren
        }
        // `token.base64EncodedString()`, `password.trimmingCharacters(in: .whitespaces)`.
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
            Self.transparentMembers.contains(member.declName.baseName.text), let base = member.base
        {
            walk(base)
        }
        return .skipChildren
    }

    override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind {
        // `params["password"]`: a value kept under a credential's name.
        if found == nil, node.arguments.count == 1,
            let key = node.arguments.first?.expression.as(
                StringLiteralExprSyntax.self),
            let text = HardcodedSecretVisitor.constantText(of: key), CredentialNames.isCredential(text),
            Self.isLoggable(text)
        {
            found = "`\(text)`"
            return .skipChildren
        }
        walk(node.calledExpression)
        return .skipChildren
    }

    override func visit(_ node: ExprListSyntax) -> SyntaxVisitorContinueKind {
        // `token == nil`, `a == b && c`: a Boolean, not the operands. (Bounded: long lists are
        // concatenations, which are walked.)
        let isComparison = node.prefix(32).contains { element in
            if let binary = element.as(BinaryOperatorExprSyntax.self) {
                return Self.neutralOperators.contains(binary.operator.text)
            }
            return element.is(UnresolvedIsExprSyntax.self)
        }
        return isComparison ? .skipChildren : .visitChildren
    }

    override func visit(_ node: ExpressionSegmentSyntax) -> SyntaxVisitorContinueKind {
        // `"\(token, privacy: .private)"`: redacted wherever a privacy label exists.
        if let privacy = node.expressions.first(where: { $0.label?.text == "privacy" })?.expression,
            LogSink.privacyLevel(privacy) != "public"
        {
            return .skipChildren
        }
        return .visitChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: KeyPathExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: IsExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    /// Whether a name may be reported in a log: not a view, not a push token, not a weak word alone.
    static func isLoggable(_ name: String) -> Bool {
        var words = CredentialNames.words(of: name)
        guard let last = words.last, !viewWords.contains(last), !isPushToken(words) else { return false }
        while words.count > 1, let tail = words.last, ["data", "string", "value", "id"].contains(tail) {
            words.removeLast()
        }
        return !(words.count >= 1 && weakWords.contains(words[words.count - 1]))
    }

    /// Whether the words name a push notification token (`apnsToken`, `deviceToken`, `pushToken`,
    /// `fcmToken`): an address for notifications that Apple and Firebase hand out, not a secret.
    static func isPushToken(_ words: [String]) -> Bool {
        guard words.contains(where: { $0 == "token" || $0 == "tokens" }) else { return false }
        return words.contains { ["apns", "push", "fcm", "device", "registration", "notification"].contains($0) }
    }
}
