/// Finds credentials embedded in URL-shaped values: `scheme://user:password@host/…` and query
/// parameters such as `?password=…`, `&access_token=…`, `&X-Amz-Signature=…`.
///
/// The parser is deliberately lenient: connection strings are often not valid URLs
/// (`postgres://app:pa55@db1,db2/app`, `redis://:secret@cache:6379/0`, unescaped characters in
/// passwords), so it splits the text by hand instead of using `URLComponents`.
enum URLCredential {
    /// Query parameter names (lowercased, with `-` and `_` removed) that carry a secret.
    static let secretParameterMarkers = ["password", "passwd", "pwd", "secret", "token", "apikey", "accesskey",
                                         "signature", "sig", "auth", "credential", "sslpassword", "privatekey"]

    /// A description of the secret part of `text` (`a password (user:password@)`, `a 'token'
    /// query parameter`), or `nil` when `text` is not a URL or carries no secret. Never contains
    /// the secret itself.
    static func secretPart(of text: String) -> String? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound]
        guard !scheme.isEmpty, !scheme.contains(where: \.isWhitespace),
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":"), userInfo.index(after: colon) < userInfo.endIndex {
                return "a password (user:password@)"
            }
        }
        guard let questionMark = rest.firstIndex(of: "?") else { return nil }
        let query = rest[rest.index(after: questionMark)...].prefix { $0 != "#" }
        for parameter in query.split(whereSeparator: { $0 == "&" || $0 == ";" }) {
            guard let equals = parameter.firstIndex(of: "="), parameter.index(after: equals) < parameter.endIndex else { continue }
            let name = parameter[..<equals].lowercased().filter { $0 != "-" && $0 != "_" }
            if secretParameterMarkers.contains(where: name.hasSuffix) {
                return "a '\(parameter[..<equals])' query parameter"
            }
        }
        return nil
    }
}
