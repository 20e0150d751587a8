#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore
import SecureStorageFoundation

/// Apple's `kSecKeyAlgorithmRSAEncryptionOAEPSHA…AESGCM`: a random AES key, 16 bytes for
/// moduli under 4096 bits and 32 from 4096 bits, wrapped with RSA-OAEP (the same hash), then
/// AES-GCM over the plaintext with a 16-byte all-zero IV, the public key's PKCS#1 DER as
/// additional data and a 16-byte tag. Output: wrapped key (the modulus size) ‖ ciphertext ‖ tag.
struct RSAAESGCM {
    /// The GCM tag size.
    static let tagByteCount = 16

    let rsa: RSAPublicKeyMaterial
    let hash: SecKeyAlgorithmMeaning.Hash

    /// The AES key size for this modulus.
    var sessionKeyByteCount: Int { rsa.bitCount >= 4096 ? 32 : 16 }

    /// The all-zero 16-byte IV (swift-crypto accepts GCM nonces of 12 bytes or more).
    private var nonce: AES.GCM.Nonce { try! AES.GCM.Nonce(data: Data(count: 16)) }

    /// Encrypts with the public `key`.
    func seal(_ plaintext: Data, key: SecKey) throws(SecKeyFailure) -> Data {
        var sessionKey = RSAPadding.randomBytes(sessionKeyByteCount)
        defer { SecretWiping.wipe(&sessionKey) }
        let wrapped = try key.rsaEncrypt(.oaep(hash), sessionKey, rsa)
        do {
            let box = try AES.GCM.seal(
                plaintext, using: SymmetricKey(data: sessionKey), nonce: nonce, authenticating: rsa.pkcs1)
            return wrapped + box.ciphertext + box.tag
        } catch {
            throw SecKeyFailure(errSecParam, "RSAWRAP: Failed to aes-gcm encrypt data.")
        }
    }

    /// Decrypts with the private `key`.
    func open(_ packet: Data, key: SecKey) throws(SecKeyFailure) -> Data {
        let wrappedSize = rsa.modulusByteCount
        guard packet.count >= wrappedSize + Self.tagByteCount else {
            throw SecKeyFailure(
                errSecParam,
                "RSA-WRAP too short input data: \(packet.count) bytes, at least \(wrappedSize + Self.tagByteCount) expected."
            )
        }
        var sessionKey = try key.rsaDecrypt(.oaep(hash), Data(packet.prefix(wrappedSize)), rsa)
        defer { SecretWiping.wipe(&sessionKey) }
        guard sessionKey.count == sessionKeyByteCount else {
            throw SecKeyFailure(errSecParam, "RSA-WRAP bad ciphertext, unexpected session key size.")
        }
        let body = packet.dropFirst(wrappedSize)
        do {
            let box = try AES.GCM.SealedBox(
                nonce: nonce, ciphertext: body.dropLast(Self.tagByteCount), tag: body.suffix(Self.tagByteCount))
            return try AES.GCM.open(box, using: SymmetricKey(data: sessionKey), authenticating: rsa.pkcs1)
        } catch {
            throw SecKeyFailure(
                errSecParam,
                "RSA-WRAP: Failed to aes-gcm decrypt data (wrong key or algorithm, or the data was altered).")
        }
    }
}
#endif
