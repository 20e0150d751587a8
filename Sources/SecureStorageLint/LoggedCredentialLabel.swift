import SwiftSyntax

/// Finds a log message that labels an interpolated value as a credential: the literal text right
/// before the interpolation ends with a credential's name and `:`, `=`, ` is` or a space
/// (`"token: \(value)"`, `"encryption key is \(aVendor)"`, `"password=\(p)"`), whatever the value is called.
///
/// Not a label of the value: an error, a status, a count, a flag, a type or a date (`"Invalid password:
/// \(error)"`, `"token: \(isValid)"`, `"password: \(p.count)"`), text built in the interpolation
/// (`"token: \(t == nil ? "none" : "set")"`), a value the unified log redacts (`privacy: .private`), and
/// labels that are not credentials (`"token refresh failed: \(error)"`).
enum LoggedCredentialLabel {
    /// Words of names of values that describe a credential rather than hold it.
    private static let describingWords: Set<String> = [
        "error", "errors", "err", "status", "state", "count", "length", "size", "type", "kind", "reason", "exception",
        "date", "time", "expiry", "expiration", "expires", "duration", "url", "uri", "id", "ids", "name", "names",
        "scope", "scopes", "field", "textfield", "label", "view", "button", "cell", "index", "response", "result",
        "success", "valid", "request", "attempt", "attempts", "level", "strength", "policy", "format", "source",
        "hash", "hashed", "empty", "digest", "fingerprint"
    ]

    /// The credential a message labels an interpolated value as, for an exposed part of a log call
    /// (a whole message, or one public interpolation of a unified-logging message), or nil.
    static func label(in exposed: ExprSyntax, evidence: CredentialEvidence) -> String? {
        if let literal = CredentialEvidence.unwrapped(exposed).as(StringLiteralExprSyntax.self) {
            var previous: StringSegmentSyntax?
            for segment in literal.segments.prefix(64) {
                if let interpolation = segment.as(ExpressionSegmentSyntax.self), let previous,
                    let name = label(of: interpolation, after: previous, evidence: evidence)
                {
                    return name
                }
                previous = segment.as(StringSegmentSyntax.self)
            }
            return nil
        }
        // `logger.info("token: \(value, privacy: .public)")`: the exposed part is the interpolated value.
        guard let interpolation = exposed.parent?.parent?.parent?.as(ExpressionSegmentSyntax.self),
            let segments = interpolation.parent?.as(StringLiteralSegmentListSyntax.self)
        else { return nil }
        var previous: StringSegmentSyntax?
        for segment in segments.prefix(64) {
            if segment.id == interpolation.id {
                return previous.flatMap { label(of: interpolation, after: $0, evidence: evidence) }
            }
            previous = segment.as(StringSegmentSyntax.self)
        }
        return nil
    }

    /// The credential `text` labels `interpolation` as, when its value may be that credential.
    private static func label(
        of interpolation: ExpressionSegmentSyntax, after text: StringSegmentSyntax, evidence: CredentialEvidence
    ) -> String? {
        // "Firebase registration token refreshed, new token: …": a push token, an address.
        let words = CredentialNames.words(of: text.content.text)
        guard !words.contains(where: pushWords.contains), let name = credentialLabel(endingText: text.content.text),
            let value = interpolation.expressions.first?.expression,
            interpolation.expressions.count == 1
                || interpolation.expressions.dropFirst().allSatisfy({
                    $0.label?.text == "privacy"
                        && LogSink.privacyLevel($0.expression) == "public"
                })
        else { return nil }
        guard mayBeTheCredential(value, evidence: evidence) else { return nil }
        // `"secrets: \(availableSecrets)"`, `"token: \(tokenExpiry)"`: a name that speaks of the
        // credential without being it says more about the value than the label does.
        if let name = CredentialEvidence.unwrapped(value).as(DeclReferenceExprSyntax.self)?.baseName.text,
            !CredentialNames.isCredential(name),
            CredentialNames.words(of: name).contains(where: CredentialNames.isCredential)
        {
            return nil
        }
        // `let loggable = fcmToken ?? "(null)"`: what a local name was bound to counts too.
        if let local = CredentialEvidence.unwrapped(value).as(DeclReferenceExprSyntax.self),
            let initial = evidence.declaration(
                of: local.baseName.text, at: Syntax(local), budget: LookBackBudget()
            )?.initializer,
            !mayBeTheCredential(initial, evidence: evidence, allowingLiterals: true)
        {
            return nil
        }
        return name
    }

    /// Words that make a message's token a push token (`"APNs device token: …"`).
    private static let pushWords: Set<String> = [
        "push", "device", "apns", "apn", "fcm", "gcm", "voip", "registration", "firebase", "notification",
        "notifications"
    ]

    /// The credential a message's text ends by naming, before `:`, `=`, ` is` or a space.
    static func credentialLabel(endingText text: String) -> String? {
        var body = Substring(text)
        var separated = false
        func trimSpaces() {
            while body.last == " " {
                body.removeLast()
                separated = true
            }
        }
        trimSpaces()
        if body.last == ":" || body.last == "=" {
            body.removeLast()
            separated = true
            trimSpaces()
        } else if body.lowercased().hasSuffix(" is") {
            body.removeLast(3)
            separated = true
            trimSpaces()
        }
        guard separated, let last = body.unicodeScalars.last, isNameCharacter(last) else { return nil }
        let words = body.split(whereSeparator: { !$0.unicodeScalars.allSatisfy(isNameCharacter) }).suffix(2)
        let phrase = words.joined(separator: " ")
        guard CredentialNames.isCredential(phrase), LoggedCredentialProbe.isLoggable(phrase) else { return nil }
        return phrase
    }

    /// Whether a logged value may be the credential its label names: not a flag, count, error, status,
    /// literal or text built in place.
    private static func mayBeTheCredential(
        _ value: ExprSyntax, evidence: CredentialEvidence, allowingLiterals: Bool = false
    ) -> Bool {
        if evidence.isFlagOrNumber(value) { return false }
        var tokens = 0
        for token in value.tokens(viewMode: .sourceAccurate) {
            tokens += 1
            if tokens > 64 { return false }
            switch token.tokenKind {
            case .stringQuote, .multilineStringQuote, .binaryOperator:
                if !allowingLiterals { return false }
            case .leftBrace, .integerLiteral, .floatLiteral, .keyword(.nil), .keyword(.true), .keyword(.false),
                .infixQuestionMark:
                return false
            case .identifier(let name):
                if CredentialNames.words(of: name).contains(where: describingWords.contains) { return false }
                if LoggedCredentialProbe.isPushToken(CredentialNames.words(of: name)) { return false }
            default:
                continue
            }
        }
        return true
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
            || scalar == "_" || scalar == "-"
    }
}
