import SwiftSyntax

/// Reports `hardcoded-secret`: string literals in a well-known credential format anywhere, and
/// long random-looking literals whose name says credential (`let apiKey = "…"`,
/// `["client_secret": "…"]`, `Config(token: "…")`).
final class HardcodedSecretVisitor: SyntaxVisitor {
    private let context: FileLintContext

    init(context: FileLintContext) {
        self.context = context
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        guard let text = Self.constantText(of: node), text.utf8.count >= 16 else { return .skipChildren }
        if let format = CredentialLiteral.knownFormat(in: text) {
            context.report(
                .hardcodedSecret, at: node,
                "this literal contains \(format); revoke it and load the credential at run time (the Keychain, the environment, a server)."
            )
        } else if CredentialLiteral.looksRandom(Self.droppingScheme(text)), let name = credentialContext(of: node) {
            context.report(
                .hardcodedSecret, at: node,
                "a random-looking literal is used as `\(name)`; if it is a real credential, revoke it and load it at run time (the Keychain, the environment, a server)."
            )
        }
        return .skipChildren
    }

    /// `Bearer 9fK2…` → `9fK2…` (an Authorization header's value).
    static func droppingScheme(_ text: String) -> String {
        for scheme in ["Bearer ", "Basic ", "Token ", "token ", "bearer "] where text.hasPrefix(scheme) {
            return String(text.dropFirst(scheme.count))
        }
        return text
    }

    /// The literal's text when it has no interpolation (multi-line literals joined).
    static func constantText(of literal: StringLiteralExprSyntax) -> String? {
        if literal.segments.count == 1, case .stringSegment(let segment)? = literal.segments.first {
            return segment.content.text
        }
        var text = ""
        for segment in literal.segments {
            guard case .stringSegment(let part) = segment else { return nil }
            text += part.content.text
        }
        return text
    }

    /// The credential-like name the literal is given to: a variable, parameter, argument label,
    /// dictionary key, assignment target or the `forKey:` of the same call.
    private func credentialContext(of literal: StringLiteralExprSyntax) -> String? {
        var node = Syntax(literal)
        while let parent = node.parent {
            if let argument = parent.as(LabeledExprSyntax.self) {
                if let label = argument.label?.text, CredentialNames.isCredential(label) { return label }
                if let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
                    if let key = call.argument(labeled: "forKey") ?? call.argument(labeled: "forHTTPHeaderField"),
                        let name = Self.credentialWord(in: key)
                    {
                        return name
                    }
                    // `String("…")`, `Data("…".utf8)`: look through the conversion.
                    if call.calledExpression.as(DeclReferenceExprSyntax.self).map({
                        ["String", "Data", "Array"].contains($0.baseName.text)
                    }) == true {
                        node = Syntax(call)
                        continue
                    }
                }
                return nil
            }
            if let element = parent.as(DictionaryElementSyntax.self) {
                guard element.value.id == node.id else { return nil }
                return Self.credentialWord(in: element.key)
            }
            if let initializer = parent.as(InitializerClauseSyntax.self) {
                if let binding = initializer.parent?.as(PatternBindingSyntax.self) {
                    let name = binding.pattern.trimmedDescription
                    return CredentialNames.isCredential(name) ? name : nil
                }
                if let parameter = initializer.parent?.as(FunctionParameterSyntax.self) {
                    let name = (parameter.secondName ?? parameter.firstName).text
                    return CredentialNames.isCredential(name) ? name : nil
                }
                return nil
            }
            if let list = parent.as(ExprListSyntax.self) {
                guard let (target, value) = list.parent?.as(SequenceExprSyntax.self)?.assignment, value?.id == node.id
                else { return nil }
                return Self.credentialWord(in: target)
            }
            if parent.is(ExprSyntax.self) || parent.is(LabeledExprListSyntax.self)
                || parent.is(MemberAccessExprSyntax.self)
            {
                node = parent
                continue
            }
            return nil
        }
        return nil
    }

    /// The first credential-like identifier or string in an expression.
    static func credentialWord(in expression: some SyntaxProtocol) -> String? {
        for token in expression.tokens(viewMode: .sourceAccurate) {
            switch token.tokenKind {
            case .identifier(let text), .stringSegment(let text):
                if CredentialNames.isCredential(text) { return text }
            default:
                continue
            }
        }
        return nil
    }
}
