#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import CryptoExtras
import Foundation
import KeychainCore
import SecureStorageFoundation

/// RSA encryption as Apple's SecKey performs it: raw, EME-PKCS1-v1_5, EME-OAEP with MGF1 of
/// the same hash and an empty label, and OAEP-wrapped AES-GCM. swift-crypto (BoringSSL) pads
/// PKCS#1 v1.5 and OAEP with SHA-1 and SHA-256 and decrypts them with private keys; the other
/// OAEP hashes are encoded here around the raw operations (``RSAPublicOperation``, BoringSSL's
/// private operation).
extension SecKey {
    /// `plaintext` encrypted to this RSA public key.
    ///
    /// - Throws: `errSecParam` (-50) when the key cannot perform the algorithm (a private key,
    ///   or a modulus too small for the padding) or the plaintext is too long for the modulus
    ///   and padding ("RSAencrypt wrong input size"), or raw input is not smaller than the modulus.
    func rsaEncrypt(_ algorithm: SecKeyAlgorithm, _ plaintext: Data) throws(SecKeyFailure) -> Data {
        guard let rsa = rsaPublicMaterial else {
            throw SecKeyFailure(errSecParam, "\(algorithm.name): algorithm not supported by the key \(self).")
        }
        switch try rsaAlgorithm(algorithm, for: .encrypt) {
        case .oaepAESGCM(let hash):
            return try RSAAESGCM(rsa: rsa, hash: hash).seal(plaintext, key: self)
        case let meaning:
            return try rsaEncrypt(meaning, plaintext, rsa)
        }
    }

    /// The padded encryption of ``rsaEncrypt(_:_:)`` (not the AES-GCM variants).
    func rsaEncrypt(_ meaning: RSAAlgorithm, _ plaintext: Data, _ rsa: RSAPublicKeyMaterial) throws(SecKeyFailure)
        -> Data
    {
        let size = rsa.modulusByteCount
        let tooLong = { (limit: Int) in
            SecKeyFailure(
                errSecParam,
                "RSAencrypt wrong input size: \(plaintext.count) bytes, at most \(limit) for this key and padding.")
        }
        switch meaning {
        case .rawEncryption:
            guard let ciphertext = try rsaRawOperation(plaintext, rsa) else {
                throw SecKeyFailure(
                    errSecParam, "RSApubkey wrong size of buffer to encrypt: the input is not smaller than the modulus."
                )
            }
            return ciphertext
        case .pkcs1v15Encryption:
            guard plaintext.count <= size - 11 else { throw tooLong(size - 11) }
            return try swiftCryptoEncrypt(plaintext, rsa, ._WEAK_AND_INSECURE_PKCS_V1_5)
        case .oaep(let hash):
            guard plaintext.count <= size - 2 * hash.byteCount - 2 else { throw tooLong(size - 2 * hash.byteCount - 2) }
            switch hash {
            case .sha1: return try swiftCryptoEncrypt(plaintext, rsa, .PKCS1_OAEP)
            case .sha256: return try swiftCryptoEncrypt(plaintext, rsa, .PKCS1_OAEP_SHA256)
            case .sha224, .sha384, .sha512:
                guard var encoded = RSAPadding.oaepEncode(plaintext, hash: hash, length: size) else {
                    throw tooLong(size - 2 * hash.byteCount - 2)
                }
                defer { _ = SecretWiping.wipe(&encoded) }
                guard let ciphertext = try rsa.publicOperation(encoded) else {
                    throw SecKeyFailure(errSecInternal, "The RSA public operation failed.")
                }
                return ciphertext
            }
        default:
            throw SecKeyFailure(errSecParam, "\(meaning): algorithm not supported by the key \(self).")
        }
    }

    /// The plaintext of `ciphertext` under this RSA key: a private key decrypts; a public key
    /// applies its public operation, as Apple's does (useful only for the raw algorithm).
    ///
    /// - Throws: `errSecParam` (-50) when the key cannot perform the algorithm, the ciphertext
    ///   is longer than the modulus, or its padding is wrong ("RSAdecrypt wrong input"); for the
    ///   AES-GCM variants also when the input is too short, the wrapped key has the wrong size
    ///   or the data fails authentication.
    func rsaDecrypt(_ algorithm: SecKeyAlgorithm, _ ciphertext: Data) throws(SecKeyFailure) -> Data {
        guard let rsa = rsaPublicMaterial else {
            throw SecKeyFailure(errSecParam, "\(algorithm.name): algorithm not supported by the key \(self).")
        }
        switch try rsaAlgorithm(algorithm, for: .decrypt) {
        case .oaepAESGCM(let hash):
            return try RSAAESGCM(rsa: rsa, hash: hash).open(ciphertext, key: self)
        case let meaning:
            return try rsaDecrypt(meaning, ciphertext, rsa)
        }
    }

    /// The padded decryption of ``rsaDecrypt(_:_:)`` (not the AES-GCM variants).
    func rsaDecrypt(_ meaning: RSAAlgorithm, _ ciphertext: Data, _ rsa: RSAPublicKeyMaterial) throws(SecKeyFailure)
        -> Data
    {
        let wrongInput = SecKeyFailure(
            errSecParam, "RSAdecrypt wrong input: the data is not a ciphertext of this key and algorithm.")
        let padded = try Self.leftPadded(ciphertext, to: rsa.modulusByteCount)
        if case .rsaPrivate(let material) = kind {
            switch meaning {
            case .pkcs1v15Encryption:
                guard let plaintext = material.decrypt(padded, padding: ._WEAK_AND_INSECURE_PKCS_V1_5) else {
                    throw wrongInput
                }
                return plaintext
            case .oaep(.sha1):
                guard let plaintext = material.decrypt(padded, padding: .PKCS1_OAEP) else { throw wrongInput }
                return plaintext
            case .oaep(.sha256):
                guard let plaintext = material.decrypt(padded, padding: .PKCS1_OAEP_SHA256) else { throw wrongInput }
                return plaintext
            default:
                break
            }
        }
        guard var encoded = try rsaRawOperation(padded, rsa) else {
            throw SecKeyFailure(errSecParam, "rsa_crypt failed: the input is not smaller than the modulus.")
        }
        if case .rawEncryption = meaning { return encoded }
        defer { SecretWiping.wipe(&encoded) }
        switch meaning {
        case .pkcs1v15Encryption:
            guard let plaintext = RSAPadding.pkcs1v15EncryptionDecode(encoded) else { throw wrongInput }
            return plaintext
        case .oaep(let hash):
            guard let plaintext = RSAPadding.oaepDecode(encoded, hash: hash) else { throw wrongInput }
            return plaintext
        default:
            throw SecKeyFailure(errSecParam, "\(meaning): algorithm not supported by the key \(self).")
        }
    }

    /// swift-crypto's PKCS#1 v1.5 or OAEP encryption.
    private func swiftCryptoEncrypt(_ plaintext: Data, _ rsa: RSAPublicKeyMaterial, _ padding: _RSA.Encryption.Padding)
        throws(SecKeyFailure) -> Data
    {
        do { return try rsa.encryptionKey().encrypt(plaintext, padding: padding) } catch {
            throw SecKeyFailure(errSecParam, "RSAencrypt wrong input size: \(plaintext.count) bytes.")
        }
    }
}
#endif
