/// Finds credentials embedded in connection strings and URLs:
/// - user info with a password, `scheme://user:password@host/…` (also `jdbc:postgresql://…`,
///   `redis://:password@host`, several hosts, and passwords with unescaped `/`, `?` or `#`);
/// - a token as the user name, `https://ghp_…@github.com/…`;
/// - Go's DSNs, `user:password@tcp(host:3306)/db`;
/// - secret parameters in a query or fragment (`?password=`, `&access_token=`, `#id_token=`,
///   `X-Amz-Signature=`, `key=`);
/// - secret fields of `;`-separated connection strings (`Server=db;Password=…;`,
///   `AccountKey=…`, `sqlserver://db:1433;password=…`).
///
/// Descriptions name the kind of secret and, for parameters, only the marker that matched, never
/// text taken from the value: a parameter name may itself be part of a mangled password.
///
/// The parsing is deliberately lenient and hand-written: connection strings are often not valid
/// URLs, so `URLComponents` would miss the very values that need moving.
enum EmbeddedCredential {
    /// Parameter and field names (lowercased, without `-`, `_` and spaces) that hold a secret,
    /// matched as suffixes: `access_token` → `token`, `X-Amz-Signature` → `signature`,
    /// `AccountKey` → `key`.
    static let secretNameMarkers = [
        "password", "passwd", "pwd", "pass", "pw", "secret", "token", "key", "signature", "sig",
        "auth", "credential", "credentials"
    ]

    /// What kind of secret `text` embeds (`a password (user:password@)`, `a token parameter`), or
    /// `nil`. Never contains any part of `text`.
    static func secretPart(of text: String) -> String? {
        if let part = userInfoSecret(in: text) { return part }
        if let marker = secretParameter(in: text) { return "a \(marker) parameter" }
        if let marker = secretField(in: text) { return "a connection string with a \(marker) field" }
        return nil
    }

    // MARK: - User info

    private static func userInfoSecret(in text: String) -> String? {
        if let schemeEnd = text.range(of: "://") {
            let scheme = text[..<schemeEnd.lowerBound]
            guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.:".contains($0) }) else {
                return nil
            }
            let rest = text[schemeEnd.upperBound...]
            // The last "@" followed by a host: a password may itself hold "@", "/", "?" or "#".
            guard let at = rest.lastIndex(of: "@") else { return nil }
            let host = rest[rest.index(after: at)...].prefix { !"/?#;".contains($0) }
            guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
            return credential(inUserInfo: rest[..<at])
        }
        // Go's DSN: user:password@tcp(host:port)/db, @unix(/path), @udp(…).
        for transport in ["@tcp(", "@unix(", "@udp("] {
            if let at = text.range(of: transport), !text[..<at.lowerBound].contains("://") {
                return credential(inUserInfo: text[..<at.lowerBound]).map { _ in
                    "a password (user:password\(transport)…))"
                }
            }
        }
        return nil
    }

    private static func credential(inUserInfo userInfo: Substring) -> String? {
        guard !userInfo.isEmpty, !userInfo.contains(where: \.isWhitespace) else { return nil }
        guard let colon = userInfo.firstIndex(of: ":") else {
            // A user name alone is no secret, unless it is a token (git remotes: https://ghp_…@github.com).
            let token = String(userInfo)
            guard !token.contains(where: { "/?#".contains($0) }),
                SecretDetector.valueMarkers.contains(where: token.hasPrefix) || SecretDetector.isHighEntropy(token)
            else { return nil }
            return "a token as user name (token@)"
        }
        let user = userInfo[..<colon]
        let password = userInfo[userInfo.index(after: colon)...]
        guard !user.contains(where: { "/?#".contains($0) }), !password.isEmpty else { return nil }
        // `host:8080/path/@x` is a port and a path with an "@" in it, not user info.
        let port = password.prefix { $0.isNumber }
        if !port.isEmpty, port.count == password.count || "/?#".contains(password[port.endIndex]) { return nil }
        return "a password (user:password@)"
    }

    // MARK: - Parameters and fields

    /// The marker of the first secret `name=value` parameter in the query or fragment.
    private static func secretParameter(in text: String) -> String? {
        guard text.contains("://") || text.hasPrefix("jdbc:"),
            let start = text.firstIndex(where: { $0 == "?" || $0 == "#" })
        else { return nil }
        return secretName(in: text[text.index(after: start)...].split(whereSeparator: { "&;#?".contains($0) }))
    }

    /// The marker of the first secret field of a `;`-separated `Name=value` connection string.
    private static func secretField(in text: String) -> String? {
        guard text.contains(";") else { return nil }
        return secretName(in: text.split(separator: ";"))
    }

    private static func secretName(in pairs: [Substring]) -> String? {
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), pair.index(after: equals) < pair.endIndex else { continue }
            let name = pair[..<equals].lowercased().filter { !"-_ ".contains($0) }
            guard !name.isEmpty, !name.contains(where: { "/:@".contains($0) }) else { continue }
            if let marker = secretNameMarkers.first(where: name.hasSuffix) { return marker }
        }
        return nil
    }
}
