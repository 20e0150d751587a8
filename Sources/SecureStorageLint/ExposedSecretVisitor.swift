import SwiftSyntax

/// Reports `exposed-secret`: a credential put where others can read it.
///
/// - the general pasteboard: `UIPasteboard.general.string = password`, `setString`, `setValue`,
///   `setItems`/`addItems` (unless the items are `.localOnly` with an `.expirationDate`), `items =`;
/// - a cookie made with `HTTPCookie(properties:)` whose name or value is a credential and which
///   is not `.secure`;
/// - a cached response holding a credential: `URLCache.shared.storeCachedResponse(…)`.
///
/// Silent in test files.
final class ExposedSecretVisitor: SyntaxVisitor {
    private let context: FileLintContext
    private let evidence: CredentialEvidence

    private static let pasteboardProperties: Set<String> = ["string", "strings", "items", "url", "urls"]
    private static let pasteboardSetters: Set<String> = [
        "setString", "setValue", "setItems", "addItems", "setData", "setObjects", "setStrings"
    ]

    init(context: FileLintContext) {
        self.context = context
        evidence = CredentialEvidence(context: context)
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Pasteboard

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        guard let (target, value) = node.assignment, let value, let member = target.as(MemberAccessExprSyntax.self),
            Self.pasteboardProperties.contains(member.declName.baseName.text), isGeneralPasteboard(member.base),
            let reason = evidence.reason(for: value)
        else { return .visitChildren }
        reportPasteboard(target, reason)
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let callee = node.calleeName else { return .visitChildren }
        if Self.pasteboardSetters.contains(callee), isGeneralPasteboard(node.calleeBase),
            let value = node.arguments.first?.expression, !isLocalAndExpiring(node.argument(labeled: "options")),
            let reason = evidence.reason(for: value)
        {
            reportPasteboard(node, reason)
        } else if callee == "HTTPCookie", node.calleeBase == nil, let properties = node.argument(labeled: "properties")
        {
            checkCookie(node, properties: properties)
        } else if callee == "storeCachedResponse", let cached = node.arguments.first?.expression,
            let reason = evidence.reason(for: cached)
        {
            context.report(
                .exposedSecret, at: node,
                "a response holding a credential (\(reason)) is stored in the URL cache, "
                    + "an unencrypted database in Library/Caches; "
                    + "do not cache responses that carry credentials."
            )
        }
        return .visitChildren
    }

    private func reportPasteboard(_ node: some SyntaxProtocol, _ reason: String) {
        guard !Self.isUserCopyAction(Syntax(node)) else { return }
        context.report(
            .exposedSecret, at: node,
            "a credential (\(reason)) is put on the general pasteboard, which every app and nearby device can read; "
                + "do not copy it, or use setItems with .localOnly and an .expirationDate."
        )
    }

    /// Whether `node` is in a copy action the user asked for: a function named like one
    /// (`copyToPasteboard`, `didTapCopyPassword`), or a block that also confirms the copy
    /// (`presentCopyConfirmation(…)`, `showToast(.copied)`). A password manager's "Copy password"
    /// button is its feature, not a leak.
    private static func isUserCopyAction(_ node: Syntax) -> Bool {
        var current = node.parent
        var checkedBlock = false
        for _ in 0..<48 {
            guard let ancestor = current else { return false }
            if !checkedBlock, let block = ancestor.as(CodeBlockItemListSyntax.self) {
                checkedBlock = true
                for token in block.tokens(viewMode: .sourceAccurate).prefix(400) where token.tokenKind.isIdentifier {
                    if token.text.range(of: "cop", options: .caseInsensitive) != nil,
                        Self.isCopyWord(token.text)
                    {
                        return true
                    }
                }
            }
            if let function = ancestor.as(FunctionDeclSyntax.self) { return isCopyWord(function.name.text) }
            current = ancestor.parent
        }
        return false
    }

    private static func isCopyWord(_ name: String) -> Bool {
        CredentialNames.words(of: name).contains { $0 == "copy" || $0 == "copied" }
    }

    /// `UIPasteboard.general`, `NSPasteboard.general`, or a name bound to one.
    private func isGeneralPasteboard(_ base: ExprSyntax?) -> Bool {
        guard let base else { return false }
        let stripped = CredentialEvidence.unwrapped(base)
        if let member = stripped.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "general",
            let type = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text
        {
            return type == "UIPasteboard" || type == "NSPasteboard"
        }
        guard let name = stripped.referencedName,
            let initial = evidence.declaration(of: name, at: Syntax(stripped), budget: LookBackBudget())?.initializer
        else { return false }
        return initial.trimmedDescription.hasSuffix("Pasteboard.general")
    }

    private func isLocalAndExpiring(_ options: ExprSyntax?) -> Bool {
        guard let text = options?.trimmedDescription else { return false }
        return text.contains("localOnly") && text.contains("expirationDate")
    }

    // MARK: Cookies

    /// Reports a cookie whose name or value is a credential and that is not secure.
    private func checkCookie(_ call: FunctionCallExprSyntax, properties: ExprSyntax) {
        var dictionary = CredentialEvidence.unwrapped(properties).as(DictionaryExprSyntax.self)
        if dictionary == nil, let name = CredentialEvidence.unwrapped(properties).referencedName,
            let initial = evidence.declaration(of: name, at: Syntax(properties), budget: LookBackBudget())?.initializer
        {
            dictionary = CredentialEvidence.unwrapped(initial).as(DictionaryExprSyntax.self)
        }
        guard let dictionary, case .elements(let elements) = dictionary.content else { return }
        var reason: String?
        for element in elements.prefix(32) {
            let key = Self.cookieKey(element.key)
            if key == "secure" { return }
            if key == "name", reason == nil {
                if let literal = element.value.as(StringLiteralExprSyntax.self),
                    let text = CredentialDeclarationCollector.plainText(literal), CredentialNames.isCredential(text)
                {
                    reason = "named `\(text)`"
                } else if let found = evidence.reason(for: element.value) {
                    reason = "named by \(found)"
                }
            }
            if key == "value", reason == nil, let found = evidence.reason(for: element.value) {
                reason = "holding \(found)"
            }
        }
        guard let reason else { return }
        context.report(
            .exposedSecret, at: call,
            "a cookie \(reason) is made without the Secure attribute, so it is also sent over plain HTTP; "
                + "add .secure: \"TRUE\" (and HTTPOnly)."
        )
    }

    /// `name`, `value` or `secure` for `.name`, `HTTPCookiePropertyKey.secure`, `"Name"`.
    private static func cookieKey(_ key: ExprSyntax) -> String? {
        let stripped = CredentialEvidence.unwrapped(key)
        if let member = stripped.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text.lowercased() }
        if let literal = stripped.as(StringLiteralExprSyntax.self) {
            return CredentialDeclarationCollector.plainText(literal)?.lowercased()
        }
        return nil
    }
}
