import SwiftSyntax

/// Reports `hardcoded-secret`: string literals in a well-known credential format anywhere, and
/// literals given a credential's name (`let apiKey = "…"`, `["password": "…"]`,
/// `login(password: "…")`, `Config(secret: "…")`) that look random or chosen by a person
/// (``ChosenCredential``).
///
/// Keys that are public by design (``CredentialLiteral/publicKeyProvider(in:)``) and literals
/// given to analytics and crash-reporting SDKs are not reported.
final class HardcodedSecretVisitor: SyntaxVisitor {
    private let context: FileLintContext

    init(context: FileLintContext) {
        self.context = context
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        guard let text = Self.constantText(of: node) else { return .skipChildren }
        if text.utf8.count >= ChosenCredential.minimumLength, let format = CredentialLiteral.knownFormat(in: text) {
            context.report(
                .hardcodedSecret, at: node,
                "this literal contains \(format); revoke it and load the credential at run time "
                    + "(the Keychain, the environment, a server)."
            )
            return .skipChildren
        }
        if !context.isTestFile, let name = CredentialComparison.comparedCredential(with: node, text: text) {
            context.report(
                .hardcodedSecret, at: node,
                "`\(name)` is compared with a literal, so the credential ships in the app for anyone to read; "
                    + "check it on a server, or against a salted hash kept in the Keychain."
            )
            return .skipChildren
        }
        guard text.utf8.count >= ChosenCredential.minimumLength, let evidence = credentialContext(of: node),
            CredentialLiteral.publicKeyProvider(in: text) == nil, !Self.isInPreview(node),
            !evidence.isDigitPlaceholder(text),
            // Judged on the characters it stands for: `"\u{001A}"` is one control character, no credential.
            let decoded = ChosenCredential.decodedCharacters(text, raw: node.openingPounds != nil)
        else { return .skipChildren }
        if text.utf8.count >= 16, CredentialLiteral.looksRandom(Self.droppingScheme(text)) {
            context.report(
                .hardcodedSecret, at: node,
                "a random-looking literal is \(evidence.description); if it is a real credential, revoke it "
                    + "and load it at run time (the Keychain, the environment, a server)."
            )
        } else if !context.isTestFile, !evidence.isKeyName, !evidence.isWeak || Self.droppingScheme(text) != text,
            !(evidence.isArgument && text.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A }),
            ChosenCredential.looksChosen(Self.droppingScheme(decoded), name: evidence.name)
        {
            // (Test code chooses passwords on purpose; a plain lower-case word passed to a function,
            // `passphrase: "benchmark"`, is a stand-in far more often than a password.)
            context.report(
                .hardcodedSecret, at: node,
                "a literal is \(evidence.description), so the credential ships in the app; change it, and load "
                    + "it at run time (the Keychain, the user, a server)."
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

    /// The credential-like name the literal is given to, and how: a variable, parameter,
    /// argument label, dictionary key, assignment target or the `forKey:` of the same call; nil
    /// inside a call to an analytics or crash-reporting SDK.
    private func credentialContext(of literal: StringLiteralExprSyntax) -> CredentialContext? {
        var node = Syntax(literal)
        for _ in 0..<16 {
            guard let parent = node.parent else { return nil }
            if let argument = parent.as(LabeledExprSyntax.self) {
                let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
                if Self.isInAnalyticsCall(argument) { return nil }
                // The key itself (`forKey: "token"`), not a value.
                if let label = argument.label?.text, Self.keyLabels.contains(label) { return nil }
                if let label = argument.label?.text, CredentialNames.isCredential(label) {
                    return CredentialContext(name: label, description: "passed as `\(label):`", isArgument: true)
                }
                if let call {
                    if let key = call.argument(labeled: "forKey") ?? call.argument(labeled: "forHTTPHeaderField"),
                        let name = Self.credentialWord(in: key)
                    {
                        return CredentialContext(name: name, description: "stored under `\(name)`")
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
                guard element.value.id == node.id, let name = Self.credentialWord(in: element.key) else { return nil }
                return CredentialContext(name: name, description: "stored under the key `\(name)`")
            }
            if let initializer = parent.as(InitializerClauseSyntax.self) {
                if let binding = initializer.parent?.as(PatternBindingSyntax.self),
                    let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                {
                    return CredentialNames.isCredential(name)
                        ? CredentialContext(name: name, description: "assigned to `\(name)`") : nil
                }
                if let parameter = initializer.parent?.as(FunctionParameterSyntax.self) {
                    let name = (parameter.secondName ?? parameter.firstName).text
                    return CredentialNames.isCredential(name)
                        ? CredentialContext(name: name, description: "the default of `\(name)`") : nil
                }
                return nil
            }
            if let list = parent.as(ExprListSyntax.self) {
                guard let (target, value) = list.parent?.as(SequenceExprSyntax.self)?.assignment, value?.id == node.id,
                    let name = Self.assignedName(target)
                else { return nil }
                return CredentialContext(name: name, description: "assigned to `\(name)`")
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

    /// Labels of arguments that name a key rather than hold a value.
    private static let keyLabels: Set<String> = ["forKey", "forHTTPHeaderField", "key", "named", "service", "account"]

    /// The credential name an assignment's target ends with: `password` in `self.password = …`
    /// and `user.password = …`, the key of `keychain["password"] = …`; not `passwordLabel.text`.
    private static func assignedName(_ target: ExprSyntax) -> String? {
        if let reference = target.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            return CredentialNames.isCredential(name) ? name : nil
        }
        if let member = target.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            return CredentialNames.isCredential(name) ? name : nil
        }
        if let subscriptCall = target.as(SubscriptCallExprSyntax.self) {
            return credentialWord(in: subscriptCall.arguments)
        }
        return nil
    }

    /// Whether an argument goes to an analytics or crash-reporting SDK, whose keys identify a project
    /// and are public by design (Mixpanel and Amplitude project tokens, Segment write keys,
    /// Sentry DSNs, PostHog project keys, Firebase options).
    /// (The argument's call and up to three calls around it: `Amplitude(configuration:
    /// Configuration(apiKey: "…"))`.)
    private static func isInAnalyticsCall(_ argument: LabeledExprSyntax) -> Bool {
        var node: Syntax? = argument.parent
        var calls = 0
        var depth = 0
        while let current = node, calls < 4, depth < 24 {
            if let call = current.as(FunctionCallExprSyntax.self) {
                calls += 1
                for token in call.calledExpression.tokens(viewMode: .sourceAccurate).prefix(16)
                where token.tokenKind.isIdentifier {
                    let words = CredentialNames.words(of: token.text)
                    if words.contains(where: { analyticsWords.contains($0) }) { return true }
                }
            }
            node = current.parent
            depth += 1
        }
        return false
    }
    private static let analyticsWords: Set<String> = [
        "mixpanel", "amplitude", "segment", "analytics", "posthog", "sentry", "firebase", "crashlytics", "bugsnag",
        "datadog", "appcenter", "onesignal", "braze", "appsflyer", "adjust", "heap", "telemetrydeck", "purchases",
        "revenuecat", "gms", "places", "flurry"
    ]

    /// Whether the literal is in a SwiftUI preview (`#Preview { … }`, a `PreviewProvider`, or a type
    /// nested in one at any depth), whose values are made up to show a view.
    private static func isInPreview(_ literal: StringLiteralExprSyntax) -> Bool {
        var node = literal.parent
        var depth = 0
        while let current = node, depth < 64 {
            if let macro = current.as(MacroExpansionExprSyntax.self), macro.macroName.text == "Preview" { return true }
            if let macro = current.as(MacroExpansionDeclSyntax.self), macro.macroName.text == "Preview" { return true }
            if let clause = current.asProtocol(DeclGroupSyntax.self)?.inheritanceClause,
                clause.inheritedTypes.contains(where: {
                    ["PreviewProvider", "SwiftUI.PreviewProvider"].contains($0.type.trimmedDescription)
                })
            {
                return true
            }
            node = current.parent
            depth += 1
        }
        return false
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

/// The name a literal is given and how (`assigned to `password``), for the message.
private struct CredentialContext {
    let name: String
    let description: String
    /// Whether the literal is an argument of a call (`login(password: "…")`).
    var isArgument = false

    /// Whether the name's credential word is one that more often names something else
    /// (`accuracyAuthorization`, `Sections.authorization`, `sessionName`), or a push token
    /// (`apnsToken`): only a literal with an authorization scheme (`"Basic …"`) or a random one
    /// is then reported.
    var isWeak: Bool {
        var words = CredentialNames.words(of: name)
        if LoggedCredentialProbe.isPushToken(words) { return true }
        while words.count > 1, let last = words.last, ["value", "string", "data", "header"].contains(last) {
            words.removeLast()
        }
        return words.last.map { ["authorization", "auth", "session"].contains($0) } ?? false
    }

    /// Whether `text` is all digits given a key's, token's or secret's name (`apiKey = "1234567"`): a
    /// placeholder. All-digit passwords, PINs and passcodes (`pin = "482913"`) are still chosen.
    func isDigitPlaceholder(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        let numericCredentials: Set<String> = [
            "password", "passwords", "passwd", "pwd", "pin", "passcode", "otp", "cvv", "cvc", "code"
        ]
        return !CredentialNames.words(of: name).contains(where: numericCredentials.contains)
    }

    /// Whether the name is that of a key under which a credential is kept (`passwordKey`,
    /// `tokenId`), not of the credential (`apiKey`, `secretKey`): its value is a key name.
    var isKeyName: Bool {
        let words = CredentialNames.words(of: name)
        guard words.count >= 2, let last = words.last,
            ["key", "keys", "id", "ids", "name", "identifier", "field", "ref"].contains(last)
        else { return false }
        let previous = words[words.count - 2]
        if last == "id" && previous == "session" { return false }
        if last == "key" || last == "keys" {
            // `secretKey`, `authKey`: pairs that are a credential; `passwordKey`: the key of one.
            if ["secret", "auth"].contains(previous) { return false }
            return CredentialNames.isCredential(words.dropLast().joined(separator: "_"))
        }
        return true
    }
}
