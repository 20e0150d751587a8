import Foundation

/// Text from the server or another device, made safe to show: control and bidirectional
/// formatting characters become `?` (no terminal escapes, no reordered lines), and it is cut to
/// `limit` characters.
enum PrintableText {
    static func sanitized(_ text: String, limit: Int = 200) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            let value = scalar.value
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            let isBidi = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F || value == 0x061C
            out.unicodeScalars.append(isControl || isBidi ? "?" : scalar)
        }
        return out
    }
}

/// What a libpq connection error may say: never a password, nor the fragments of a connection
/// string libpq quotes when it cannot parse one.
enum ConnectionErrorText {
    /// libpq's message, or a generic one when it is about the string itself.
    static func safe(_ message: String, connectionString: String) -> String {
        let parsing = ["missing \"=\"", "invalid percent-encoded", "invalid connection option", "unterminated quoted", "invalid URI",
                       "invalid integer value", "invalid sslmode", "invalid port", "invalid value"]
        if parsing.contains(where: { message.contains($0) }) {
            return "the connection string is malformed (see libpq's \"Connection Strings\"; its text is not repeated here, as it may hold a password)"
        }
        var redacted = message
        for secret in passwords(in: connectionString) where secret.count >= 1 {
            redacted = redacted.replacingOccurrences(of: secret, with: "<redacted>")
        }
        return PrintableText.sanitized(redacted)
    }

    /// The passwords a connection string holds: `password=…` and `user:password@` of a URI.
    static func passwords(in connectionString: String) -> [String] {
        var found: [String] = []
        if let scheme = connectionString.range(of: "://"), let at = connectionString[scheme.upperBound...].firstIndex(of: "@") {
            let credentials = connectionString[scheme.upperBound..<at]
            if let colon = credentials.firstIndex(of: ":") { found.append(String(credentials[credentials.index(after: colon)...])) }
        }
        for part in connectionString.split(whereSeparator: { $0 == " " || $0 == "&" || $0 == "?" }) {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "password" {
                found.append(String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: "'")))
            }
        }
        return found.filter { !$0.isEmpty }
    }

    /// Whether a connection string holds a password.
    static func holdsPassword(_ connectionString: String) -> Bool { !passwords(in: connectionString).isEmpty }
}
