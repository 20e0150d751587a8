#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore
import SecureStorageFoundation

/// Encrypts data to a public key: Apple's ECIES (`kSecKeyAlgorithmECIESEncryption…AESGCM`) for
/// EC keys; for RSA keys `rsaEncryptionRaw`, `rsaEncryptionPKCS1`, `rsaEncryptionOAEPSHA1…512`
/// and the `…OAEPSHA…AESGCM` variants (a random AES-GCM key wrapped with OAEP, in Apple's format).
///
/// The output is Apple's format, so iOS and macOS decrypt it with `SecKeyCreateDecryptedData`
/// and vice versa: ephemeral public key (X9.63 `04 ‖ X ‖ Y`) ‖ AES-GCM ciphertext ‖ 16-byte tag.
/// See `ECIES` for the key derivation. Prefer the `…VariableIV…` algorithms in new code, as
/// Apple does.
///
/// - Returns: the ciphertext, or `nil` with `error` set: `errSecParam` (-50) when the key is
///   not a public key, the algorithm is not one of its key type, an RSA modulus is too small
///   for the padding, or the plaintext is too long for an RSA modulus and padding.
public func SecKeyCreateEncryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecKeyCall.run("SecKeyCreateEncryptedData", error) { () throws(SecKeyFailure) -> CFData in
        if key.rsaPublicMaterial != nil {
            return NSData(data: try key.rsaEncrypt(algorithm, Data(referencing: plaintext)))
        }
        let scheme = try ECIES(key, algorithm, .encrypt)
        var (ephemeralPublicKey, secret) = try key.curve.ephemeralAgreement(with: key.publicKeyX963)
        defer { SecretWiping.wipe(&secret) }
        return NSData(
            data: try scheme.seal(
                Data(referencing: plaintext), sharedSecret: secret, ephemeralPublicKey: ephemeralPublicKey))
    }
}

/// Decrypts what ``SecKeyCreateEncryptedData(_:_:_:_:)`` (or Apple's) encrypted to this private
/// key's public key, with the same algorithm. A key generated inside the keychain computes the
/// ECDH there (after the authentication its access control asks for); only the shared secret
/// leaves it. RSA private keys decrypt the RSA algorithms; as Apple's, an RSA public key
/// "decrypts" the raw, PKCS#1 and OAEP algorithms with its public operation (only the raw one
/// gives a result: the padding never matches).
///
/// - Returns: the plaintext, or `nil` with `error` set: `errSecParam` (-50) when the key is not
///   a private key, the algorithm is not one of its key type, an RSA ciphertext is longer than
///   the modulus or its padding is wrong, the input is too short, its ephemeral key
///   is not on the curve, or the ciphertext fails authentication (wrong key, algorithm or
///   tampered data — Apple reports these as `errSecParam` too); the authentication statuses
///   of ``SecKeyCreateSignature(_:_:_:_:)`` for
///   keychain-generated keys.
public func SecKeyCreateDecryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecKeyCall.run("SecKeyCreateDecryptedData", error) { () throws(SecKeyFailure) -> CFData in
        if key.rsaPublicMaterial != nil {
            return NSData(data: try key.rsaDecrypt(algorithm, Data(referencing: ciphertext)))
        }
        let scheme = try ECIES(key, algorithm, .decrypt)
        let packet = Data(referencing: ciphertext)
        let keyLength = key.curve.publicKeyByteCount
        guard packet.count >= keyLength + ECIES.tagByteCount else {
            throw SecKeyFailure(
                errSecParam,
                "The input is too short for ECIES: \(packet.count) bytes, at least \(keyLength + ECIES.tagByteCount) expected (ephemeral key and tag)."
            )
        }
        let ephemeralPublicKey = Data(packet.prefix(keyLength))
        guard key.curve.isValidPublicKey(ephemeralPublicKey) else {
            throw SecKeyFailure(
                errSecParam, "The input does not start with an ephemeral \(key.curve.rawValue)-bit EC public key.")
        }
        var secret = try key.sharedSecret(withPeer: ephemeralPublicKey)
        defer { SecretWiping.wipe(&secret) }
        return NSData(
            data: try scheme.open(
                Data(packet.dropFirst(keyLength)), sharedSecret: secret, ephemeralPublicKey: ephemeralPublicKey))
    }
}

/// Apple's ECIES with the ANSI X9.63 KDF and AES-GCM, as `SecKeyCreateEncryptedData` does it.
///
/// Facts checked against public sources: Apple's open-source `SecKeyAdaptors.m`
/// (apple-oss-distributions/Security: `SecKeyECIESKeyExchangeKDFX963CopyResult`,
/// `SecKeyECIESEncryptAESGCMCopyResult`) and the Go port jedda/ECIES (`ecies.go`), which
/// interoperates with SecKey:
/// - ECDH between an ephemeral key on the recipient's curve and the recipient's key (the
///   cofactor variants are identical on the NIST curves);
/// - KDF: X9.63 with the algorithm's hash over the shared secret, SharedInfo = the ephemeral
///   public key (X9.63, 65 bytes for P-256);
/// - AES key: 16 bytes for curves up to 256 bits, 32 bytes above;
/// - IV: 16 bytes — all zero for the "Standard"/"Cofactor" algorithms, the 16 KDF bytes after
///   the AES key for the "VariableIV" ones (the KDF then produces key size + 16 bytes);
/// - AES-GCM with no additional data and a 16-byte tag;
/// - output: ephemeral public key ‖ ciphertext ‖ tag.
struct ECIES {
    /// The GCM tag size.
    static let tagByteCount = 16
    /// The GCM IV size Apple uses.
    static let ivByteCount = 16

    let curve: EllipticCurve
    let hash: SecKeyAlgorithmMeaning.Hash
    let variableIV: Bool

    /// The scheme of `algorithm` for `key` and `operation` (encrypt: public key; decrypt: private key).
    init(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ operation: SecKeyOperationType) throws(SecKeyFailure) {
        guard case .ecies(let hash, let variableIV) = try key.meaning(of: algorithm, for: operation) else {
            throw SecKeyFailure(errSecParam, "\(algorithm.name): algorithm not supported by the key \(key).")
        }
        self.init(curve: key.curve, hash: hash, variableIV: variableIV)
    }

    init(curve: EllipticCurve, hash: SecKeyAlgorithmMeaning.Hash, variableIV: Bool) {
        self.curve = curve
        self.hash = hash
        self.variableIV = variableIV
    }

    /// 16 bytes (AES-128) for curves up to 256 bits, 32 (AES-256) above.
    var aesKeyByteCount: Int { curve.rawValue > 256 ? 32 : 16 }

    /// The AES key and IV for a shared secret.
    private func keyAndIV(sharedSecret: Data, ephemeralPublicKey: Data) -> (SymmetricKey, AES.GCM.Nonce) {
        var derived = X963KDF.derive(
            hash, secret: sharedSecret, sharedInfo: ephemeralPublicKey,
            byteCount: aesKeyByteCount + (variableIV ? Self.ivByteCount : 0))
        defer { SecretWiping.wipe(&derived) }
        let key = SymmetricKey(data: derived.prefix(aesKeyByteCount))
        let iv = variableIV ? Data(derived.suffix(Self.ivByteCount)) : Data(count: Self.ivByteCount)
        // A 16-byte nonce is valid for GCM (swift-crypto accepts 12 bytes or more).
        return (key, try! AES.GCM.Nonce(data: iv))
    }

    /// ephemeral public key ‖ ciphertext ‖ tag.
    func seal(_ plaintext: Data, sharedSecret: Data, ephemeralPublicKey: Data) throws(SecKeyFailure) -> Data {
        let (key, iv) = keyAndIV(sharedSecret: sharedSecret, ephemeralPublicKey: ephemeralPublicKey)
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: iv)
            return ephemeralPublicKey + box.ciphertext + box.tag
        } catch {
            throw SecKeyFailure(errSecParam, "ECIES: Failed to aes-gcm encrypt data.")
        }
    }

    /// The plaintext of `body` (ciphertext ‖ tag).
    func open(_ body: Data, sharedSecret: Data, ephemeralPublicKey: Data) throws(SecKeyFailure) -> Data {
        let (key, iv) = keyAndIV(sharedSecret: sharedSecret, ephemeralPublicKey: ephemeralPublicKey)
        do {
            let box = try AES.GCM.SealedBox(
                nonce: iv, ciphertext: body.dropLast(Self.tagByteCount), tag: body.suffix(Self.tagByteCount))
            return try AES.GCM.open(box, using: key)
        } catch {
            throw SecKeyFailure(
                errSecParam, "ECIES: Failed to aes-gcm decrypt data (wrong key or algorithm, or the data was altered).")
        }
    }
}
#endif
