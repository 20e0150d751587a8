import SwiftSyntax

/// Recognises a hard-coded credential check: a string literal compared with `==` or `!=` to a value
/// named like a credential or to the text of a field named like one (`password == "root"`,
/// `"1234" != pin`, `passwordTextField.text == "…"`,
/// `username == "admin" && password == "…"`), so the expected credential ships in the app.
///
/// Not a check: an empty or blank literal, `"nil"`/`"null"` (a value decoded from JSON), a literal
/// equal to the name (`token == "token"`), a comparison within a larger expression
/// (`password == "a" + suffix`), and names too often something else (`session`, `auth`, push tokens).
enum CredentialComparison {
    /// Literals that stand for a missing value rather than a credential.
    private static let missingValues: Set<String> = ["nil", "null", "none", "undefined", "(null)", "<null>", "nan"]
    /// Members that are their base's value (`passwordTextField.text`).
    private static let valueMembers: Set<String> = ["text", "stringValue"]
    /// Last words of names of input fields.
    private static let fieldWords: Set<String> = ["field", "textfield", "input", "entry", "box", "view", "tf", "txt"]

    /// The credential `literal` (whose text is `text`) is compared with, or nil.
    static func comparedCredential(with literal: StringLiteralExprSyntax, text: String) -> String? {
        guard let list = literal.parent?.as(ExprListSyntax.self), list.count <= 64 else { return nil }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == literal.id }) else { return nil }
        func isEquality(_ position: Int) -> Bool {
            guard elements.indices.contains(position),
                let text = elements[position].as(BinaryOperatorExprSyntax.self)?.operator.text
            else { return false }
            return text == "==" || text == "!="
        }
        // Where a comparison ends: the list's ends, `&&`, `||`, or a ternary's `?`.
        func isBoundary(_ position: Int) -> Bool {
            guard elements.indices.contains(position) else { return true }
            if elements[position].is(UnresolvedTernaryExprSyntax.self) { return true }
            let text = elements[position].as(BinaryOperatorExprSyntax.self)?.operator.text
            return text == "&&" || text == "||"
        }
        let other: ExprSyntax
        if isEquality(index - 1), index >= 2, isBoundary(index + 1), isBoundary(index - 3) {
            other = elements[index - 2]
        } else if isEquality(index + 1), index + 2 < elements.count, isBoundary(index - 1), isBoundary(index + 3) {
            other = elements[index + 2]
        } else {
            return nil
        }
        guard let name = credentialName(of: other), isExpectedValue(text, name: name) else { return nil }
        return name
    }

    /// The credential name of a compared operand: `password`, `user.password`, `passwordTextField.text`.
    private static func credentialName(of operand: ExprSyntax) -> String? {
        let value = CredentialEvidence.unwrapped(operand)
        var name: String?
        if let reference = value.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = value.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            if valueMembers.contains(member.declName.baseName.text), let base = member.base {
                // The text of a field (`passwordTextField.text`); not of anything else (a lexer's `token.text`).
                let inner = CredentialEvidence.unwrapped(base)
                name =
                    inner.as(DeclReferenceExprSyntax.self)?.baseName.text
                    ?? inner.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                guard let last = name.flatMap({ CredentialNames.words(of: $0).last }), fieldWords.contains(last)
                else { return nil }
            }
        }
        guard let name, CredentialNames.isCredential(name) else { return nil }
        var words = CredentialNames.words(of: name)
        if LoggedCredentialProbe.isPushToken(words) { return nil }
        while words.count > 1, let last = words.last, ["text", "field", "textfield", "value", "string"].contains(last) {
            words.removeLast()
        }
        return ["session", "auth", "authorization"].contains(words.last ?? "") ? nil : name
    }

    /// Whether `text` can be an expected credential for `name`: not blank, not a missing value, not the name.
    private static func isExpectedValue(_ text: String, name: String) -> Bool {
        guard let decoded = ChosenCredential.decodedCharacters(text, raw: false),
            decoded.unicodeScalars.contains(where: { $0 != " " }),
            !missingValues.contains(decoded.lowercased())
        else { return false }
        return normalized(decoded) != normalized(name) && !normalized(decoded).isEmpty
    }

    /// Lower-case letters and digits only: `"api_key"` and `"apiKey"` compare equal.
    private static func normalized(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") })
    }
}
