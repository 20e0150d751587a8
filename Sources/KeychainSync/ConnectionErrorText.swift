import Foundation
import KeychainCore

/// What a libpq connection error may say: never a password, nor the fragments of a connection
/// string libpq quotes when it cannot parse one.
enum ConnectionErrorText {
    /// libpq's message, or a generic one when it is about the string itself.
    static func safe(_ message: String, connectionString: String) -> String {
        let parsing = [
            "missing \"=\"", "invalid percent-encoded", "invalid connection option", "unterminated quoted",
            "invalid URI",
            "invalid integer value", "invalid sslmode", "invalid port", "invalid value"
        ]
        if parsing.contains(where: { message.contains($0) }) {
            return
                "the connection string is malformed (see libpq's \"Connection Strings\"; its text is not repeated here, as it may hold a password)"
        }
        var redacted = message
        for secret in passwords(in: connectionString) {
            redacted = redacted.replacingOccurrences(of: secret, with: "<redacted>")
        }
        return PrintableText.sanitized(redacted, limit: 200)
    }

    /// The secrets libpq reads from a connection string (``ConnectionStringSecrets``).
    static func passwords(in connectionString: String) -> [String] {
        guard case .readable(let secrets) = ConnectionStringSecrets.read(connectionString) else { return [] }
        return secrets.map(\.value)
    }
}
