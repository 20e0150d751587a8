import Crypto
import Foundation

/// The keychain's presence key pair (X25519): what makes user presence a key rather than a
/// question.
///
/// - The public half sits in the keybag in clear (covered by the header MAC), so adding a
///   protected item never prompts: its secret key is wrapped to the public half with a fresh
///   ephemeral key (X25519, HKDF-SHA256, AES key wrap), inside the usual class-key wrap.
/// - The private half exists in the file only wrapped by the secret an enrolled authenticator
///   releases when the user authenticates (``PresenceEnrollment``). No authentication, no key:
///   whatever `Authenticator` a process installs, the item's secret key does not unwrap.
struct PresencePublicKey: Sendable, Equatable {
    let key: Curve25519.KeyAgreement.PublicKey

    /// Length of the inner wrap ``seal(_:vaultID:)`` produces: ephemeral public key and the
    /// AES-KW of a 256-bit key.
    static let sealedLength = 32 + 40

    init(rawRepresentation: Data) throws(KeychainError) {
        do {
            key = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: rawRepresentation)
        } catch {
            throw KeychainError.tamperedPresencePublicKey()
        }
    }

    init(_ key: Curve25519.KeyAgreement.PublicKey) { self.key = key }

    var rawRepresentation: Data { key.rawRepresentation }

    static func == (lhs: PresencePublicKey, rhs: PresencePublicKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }

    /// Wraps an item's secret key so that only the presence private key unwraps it.
    func seal(_ itemKey: SymmetricKey, vaultID: UUID) throws(KeychainError) -> Data {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        do {
            let kek = try Self.wrappingKey(
                ephemeral.sharedSecretFromKeyAgreement(with: key), ephemeral: ephemeral.publicKey.rawRepresentation,
                recipient: rawRepresentation, vaultID: vaultID)
            return ephemeral.publicKey.rawRepresentation + (try AES.KeyWrap.wrap(itemKey, using: kek))
        } catch {
            throw KeychainError.itemKeyPresenceWrappingFailed(error: error)
        }
    }

    /// HKDF-SHA256 of the X25519 shared secret, bound to the vault and both public keys.
    static func wrappingKey(_ shared: SharedSecret, ephemeral: Data, recipient: Data, vaultID: UUID) -> SymmetricKey {
        shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: vaultID.bytes,
            sharedInfo: Data("SecureStorage presence item v1".utf8) + ephemeral + recipient,
            outputByteCount: 32)
    }
}

/// The presence private key, in memory only after a successful authentication.
struct PresencePrivateKey: Sendable {
    let key: Curve25519.KeyAgreement.PrivateKey
    /// Its public half, derived once.
    let publicKey: PresencePublicKey

    init(key: Curve25519.KeyAgreement.PrivateKey) {
        self.key = key
        publicKey = PresencePublicKey(key.publicKey)
    }

    /// A new random key pair (the first enrolment creates it).
    static func generate() -> PresencePrivateKey { PresencePrivateKey(key: Curve25519.KeyAgreement.PrivateKey()) }

    /// Unwraps an item key ``PresencePublicKey/seal(_:vaultID:)`` wrapped.
    /// - Throws: `.integrityViolation` when it does not unwrap (the row was edited or belongs to
    ///   another presence key).
    func open(_ sealed: Data, vaultID: UUID) throws(KeychainError) -> SymmetricKey {
        guard sealed.count == PresencePublicKey.sealedLength else { throw KeychainError.tamperedPresenceWrapLength() }
        let ephemeral = Data(sealed.prefix(32))
        do {
            let shared = try key.sharedSecretFromKeyAgreement(
                with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: ephemeral))
            let kek = PresencePublicKey.wrappingKey(
                shared, ephemeral: ephemeral, recipient: key.publicKey.rawRepresentation, vaultID: vaultID)
            return try AES.KeyWrap.unwrap(Data(sealed.suffix(40)), using: kek)
        } catch {
            throw KeychainError.tamperedPresenceWrappedKey()
        }
    }
}
