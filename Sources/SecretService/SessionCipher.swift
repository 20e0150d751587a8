import Crypto
import CryptoExtras
import Foundation
import SecureStorageFoundation

/// How a session carries secrets over the bus: `plain`, or AES-128-CBC with PKCS#7 padding under
/// the key both ends derived (`dh-ietf1024-sha256-aes128-cbc-pkcs7`).
///
/// `plain` is offered because the spec requires it and clients (secretstorage's tests, some
/// `secret-tool` builds) choose it; the client choosing it is the client's decision, and the
/// provider never picks it for a client. Secrets then cross the bus in clear, visible to the bus
/// daemon and to a monitor with the bus's eavesdropping rights (root, or the user on a session bus
/// that allows `BecomeMonitor`), which the DH algorithm prevents.
enum SessionCipher: Sendable {
    /// Secrets travel as they are; parameters are empty.
    case plain
    /// AES-128-CBC-PKCS7 under this key; parameters are the 16-byte IV.
    case aes128(SymmetricKey)

    /// The algorithm names the spec defines.
    static let plainName = "plain"
    static let dhName = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

    /// Starts a DH session from the client's public key: returns the cipher and the provider's
    /// public key (128 bytes, big-endian). The shared secret is padded to 128 bytes before HKDF, as
    /// gnome-keyring and secretstorage do, so a secret with leading zero bytes derives the same key.
    static func agree(clientPublicKey: [UInt8]) throws(SecretServiceError) -> (SessionCipher, [UInt8]) {
        guard OakleyGroup2.isAvailable else { throw .keyAgreementUnavailable() }
        guard clientPublicKey.count <= OakleyGroup2.byteCount, OakleyGroup2.isAcceptablePublicKey(clientPublicKey)
        else {
            throw .degenerateClientKey()
        }
        var privateKey = [UInt8](repeating: 0, count: 64)
        var generator = SystemRandomNumberGenerator()
        for index in privateKey.indices { privateKey[index] = generator.next() }
        defer { _ = SecretWiping.wipe(&privateKey) }
        guard let publicKey = OakleyGroup2.power([2], privateKey),
            var shared = OakleyGroup2.power(clientPublicKey, privateKey)
        else { throw .keyAgreementUnavailable() }
        defer { _ = SecretWiping.wipe(&shared) }
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared), info: Data(), outputByteCount: 16)
        return (.aes128(key), publicKey)
    }

    /// The `(parameters, value)` of a secret sent to the client.
    func seal(_ secret: Data) throws(SecretServiceError) -> (parameters: Data, value: Data) {
        switch self {
        case .plain:
            return (Data(), secret)
        case .aes128(let key):
            var generator = SystemRandomNumberGenerator()
            let iv = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            do {
                let ciphertext = try AES._CBC.encrypt(secret, using: key, iv: AES._CBC.IV(ivBytes: iv))
                return (Data(iv), ciphertext)
            } catch {
                throw .undecryptableSecret()
            }
        }
    }

    /// The secret a client sent as `(parameters, value)`.
    func open(parameters: Data, value: Data) throws(SecretServiceError) -> Data {
        switch self {
        case .plain:
            return value
        case .aes128(let key):
            guard parameters.count == 16, !value.isEmpty, value.count % 16 == 0 else {
                throw .undecryptableSecret()
            }
            do {
                return try AES._CBC.decrypt(value, using: key, iv: AES._CBC.IV(ivBytes: parameters))
            } catch {
                throw .undecryptableSecret()
            }
        }
    }
}
