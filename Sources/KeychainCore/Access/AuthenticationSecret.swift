import Crypto
import Foundation

/// The key material an ``Authenticator`` releases when the user authenticates, and the
/// identifier of the enrolment it belongs to.
///
/// The keychain keeps its presence key only wrapped by the secrets of enrolled authenticators
/// (``Keychain/enroll(_:for:authorizedBy:authentication:)``), so an authenticator that says
/// "authenticated" without the enrolled secret opens nothing. A PIN authenticator derives the
/// secret from the PIN with a KDF; a hardware token would return what the token computes.
///
/// Its `description` never shows the key material.
public struct AuthenticationSecret: Sendable, Equatable, CustomStringConvertible {
    /// Identifies the enrolment (16 bytes for enrolments this library creates): the keychain
    /// records it, so a replaced authenticator is told apart from a wrong secret.
    public let identifier: Data
    /// The key material (at least 32 bytes).
    let keyMaterial: SymmetricKey

    /// Creates a secret.
    /// - Throws: `.invalidParameter` when `keyMaterial` is shorter than 32 bytes or the
    ///   identifier is empty or longer than 64 bytes.
    public init(identifier: Data, keyMaterial: some ContiguousBytes) throws(KeychainError) {
        let key = SymmetricKey(data: keyMaterial)
        guard key.bitCount >= 256 else {
            throw KeychainError.authenticationSecretTooShort()
        }
        guard (1...64).contains(identifier.count) else {
            throw KeychainError.enrolmentIdentifierLength()
        }
        self.identifier = identifier
        self.keyMaterial = key
    }

    /// Compares identifiers and key material (in constant time for equal lengths).
    public static func == (lhs: AuthenticationSecret, rhs: AuthenticationSecret) -> Bool {
        lhs.identifier == rhs.identifier && lhs.keyMaterial == rhs.keyMaterial
    }

    /// `AuthenticationSecret(enrolment 3f2a…, key redacted)`.
    public var description: String {
        "AuthenticationSecret(enrolment \(identifier.prefix(4).map { String(format: "%02x", $0) }.joined())…, key redacted)"
    }
}
