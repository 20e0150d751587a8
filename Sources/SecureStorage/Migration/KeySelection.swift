import Foundation
import SecureStorageFoundation

/// Which keys of a source to migrate: explicit names, glob patterns (`*token*`, `auth.*`), and/or
/// the built-in ``SecretDetector``.
public struct KeySelection: Sendable, Hashable {
    /// Exact key names; each must exist in the source with a migratable value.
    public var names: [String]
    /// `fnmatch`-style patterns (`*`, `?`, `[…]`), matched against whole keys, case-insensitively.
    public var patterns: [String]
    /// Whether secret-looking keys are selected too.
    public var detectSecrets: Bool

    /// Creates a selection; with nothing given, the detector alone decides.
    public init(names: [String] = [], patterns: [String] = [], detectSecrets: Bool? = nil) {
        self.names = names
        self.patterns = patterns
        self.detectSecrets = detectSecrets ?? (names.isEmpty && patterns.isEmpty)
    }

    /// Why `entry` is selected, or `nil`.
    func reason(for entry: SourceEntry) -> String? {
        if names.contains(entry.key) { return "named" }
        if let pattern = patterns.first(where: { fnmatch($0.lowercased(), entry.key.lowercased(), 0) == 0 }) {
            return "matches \(pattern)"
        }
        return detectSecrets ? SecretDetector.reason(for: entry) : nil
    }
}

/// Spots secret-looking entries by key name (token, password, secret, api key, auth, credential,
/// private key…) or value (PEM and JWT markers, well-known key prefixes, URLs that carry a
/// password or a secret query parameter, high-entropy strings).
///
/// A connection string such as `DATABASE_URL=postgres://app:pa55@db/app` is selected because of
/// its `user:password@` part; the whole value moves to the keychain, since that is what the app
/// reads. The reason names the part, never the password.
public enum SecretDetector {
    static let nameMarkers = [
        "token", "password", "passwd", "pwd", "secret", "apikey", "api_key", "api-key", "auth",
        "credential", "private_key", "privatekey", "private-key", "session", "bearer", "jwt", "signing", "cookie"
    ]
    static let valueMarkers = [
        "-----BEGIN", "eyJ", "sk_live_", "sk_test_", "ghp_", "github_pat_", "xoxb-", "xoxp-", "AKIA", "AIza",
        "https://hooks.slack.com/services/", "https://discord.com/api/webhooks/"
    ]

    /// Why the entry looks secret, or `nil`.
    public static func reason(for entry: SourceEntry) -> String? {
        let name = entry.key.lowercased()
        if let marker = nameMarkers.first(where: name.contains) { return "key name contains '\(marker)'" }
        let texts: [String] =
            switch entry.value {
            case .string(let text): [text]
            case .strings(let texts): texts
            default: []
            }
        for text in texts {
            if let marker = valueMarkers.first(where: text.hasPrefix) {
                return "value starts like a credential (\(marker)…)"
            }
            if let part = EmbeddedCredential.secretPart(of: text) { return "value embeds \(part)" }
            if isHighEntropy(text) { return "high-entropy value" }
        }
        return nil
    }

    /// At least 20 characters without spaces, at least 3.5 bits of entropy per character, and
    /// both letters and digits: random tokens pass, words, URLs and paths mostly do not.
    static func isHighEntropy(_ text: String) -> Bool {
        guard text.count >= 20, !text.contains(" "), !text.contains("://"),
            text.contains(where: \.isNumber), text.contains(where: \.isLetter)
        else { return false }
        var counts: [Character: Int] = [:]
        for character in text { counts[character, default: 0] += 1 }
        let total = Double(text.count)
        let entropy = counts.values.reduce(0.0) { sum, count in
            let p = Double(count) / total
            return sum - p * log2(p)
        }
        return entropy >= 3.5
    }
}
