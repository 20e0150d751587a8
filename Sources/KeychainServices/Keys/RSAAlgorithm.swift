#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// What an RSA ``SecKeyAlgorithm`` asks for, read from its raw string (only the strings Apple
/// defines; the MD5 variants, which have no public constant, are not among them).
enum RSAAlgorithm: Equatable {
    typealias Hash = SecKeyAlgorithmMeaning.Hash

    /// What a signature algorithm signs.
    enum Input: Equatable {
        /// A message, hashed with this function first.
        case message(Hash)
        /// A digest of this function, which the caller computed.
        case digest(Hash)
    }

    /// EMSA-PKCS1-v1_5; `nil` is `…DigestPKCS1v15Raw`: the caller's bytes without a DigestInfo.
    case pkcs1v15Signature(Input?)
    /// EMSA-PSS with MGF1 of the same hash and a salt as long as the digest.
    case pssSignature(Input)
    /// `…SignatureRaw`: the private operation on the caller's bytes.
    case rawSignature
    /// `…EncryptionRaw`: the bare operation on the caller's bytes.
    case rawEncryption
    /// `…EncryptionPKCS1`: EME-PKCS1-v1_5.
    case pkcs1v15Encryption
    /// `…EncryptionOAEPSHA…`: EME-OAEP with MGF1 of the same hash and an empty label.
    case oaep(Hash)
    /// `…EncryptionOAEPSHA…AESGCM`: a random AES key wrapped with OAEP, then AES-GCM.
    case oaepAESGCM(Hash)

    init?(_ algorithm: SecKeyAlgorithm) {
        guard let meaning = Self.table[algorithm.name] else { return nil }
        self = meaning
    }

    /// Apple's raw strings (the PSS ones name a salt length, which for SHA-224 says 24; Apple's
    /// code uses the digest size, 28, and so do we).
    private static let table: [String: RSAAlgorithm] = {
        var table: [String: RSAAlgorithm] = [
            "algid:sign:RSA:raw": .rawSignature,
            "algid:sign:RSA:digest-PKCS1v15": .pkcs1v15Signature(nil),
            "algid:encrypt:RSA:raw": .rawEncryption,
            "algid:encrypt:RSA:PKCS1": .pkcs1v15Encryption
        ]
        let salts: [Hash: Int] = [.sha1: 20, .sha224: 24, .sha256: 32, .sha384: 48, .sha512: 64]
        for hash in [Hash.sha1, .sha224, .sha256, .sha384, .sha512] {
            let name = hash.rawValue
            table["algid:sign:RSA:digest-PKCS1v15:\(name)"] = .pkcs1v15Signature(.digest(hash))
            table["algid:sign:RSA:message-PKCS1v15:\(name)"] = .pkcs1v15Signature(.message(hash))
            table["algid:sign:RSA:digest-PSS:\(name):\(name):\(salts[hash]!)"] = .pssSignature(.digest(hash))
            table["algid:sign:RSA:message-PSS:\(name):\(name):\(salts[hash]!)"] = .pssSignature(.message(hash))
            table["algid:encrypt:RSA:OAEP:\(name)"] = .oaep(hash)
            table["algid:encrypt:RSA:OAEP:\(name):AESGCM"] = .oaepAESGCM(hash)
        }
        return table
    }()

    /// Whether the algorithm signs (and verifies) rather than encrypts (and decrypts).
    var isSignature: Bool {
        switch self {
        case .pkcs1v15Signature, .pssSignature, .rawSignature: true
        case .rawEncryption, .pkcs1v15Encryption, .oaep, .oaepAESGCM: false
        }
    }

    /// Whether `key` can perform the algorithm for `operation`, following the way Apple's
    /// SecKey chains its algorithm adaptors down to the key's raw operations:
    /// - sign: private keys; PSS also needs a modulus of at least 2 × 8 × digest size + 9 bits
    ///   (so a 1024-bit key cannot sign with PSS-SHA-512);
    /// - verify: public keys only. Apple also lets a private key "verify" through its raw private
    ///   operation, which matches no genuine signature but does match a forgery made with the
    ///   public key (`s = EM^e mod n`); this implementation refuses it with `errSecParam`;
    /// - encrypt: public keys; PKCS#1 v1.5 needs a modulus of at least 11 bytes, OAEP one of at
    ///   least 2 × digest size + 2 bytes (so a 1024-bit key has no OAEP-SHA-512);
    /// - decrypt: private keys, and public keys for the raw, PKCS#1 and OAEP algorithms (Apple's
    ///   public key decrypts with its public operation, which is how it verifies); the
    ///   AES-GCM variants only with a private key.
    func isSupported(for operation: SecKeyOperationType, by key: SecKey) -> Bool {
        guard let rsa = key.rsaPublicMaterial else { return false }
        let bytes = rsa.modulusByteCount
        switch (operation, self) {
        case (.sign, .pssSignature(let input)):
            return key.isPrivate && rsa.bitCount >= 2 * 8 * input.hash.byteCount + 9
        case (.sign, _):
            return key.isPrivate && isSignature
        case (.verify, _):
            return !key.isPrivate && isSignature
        case (.encrypt, .rawEncryption):
            return !key.isPrivate
        case (.encrypt, .pkcs1v15Encryption):
            return !key.isPrivate && bytes >= 11
        case (.encrypt, .oaep(let hash)), (.encrypt, .oaepAESGCM(let hash)):
            return !key.isPrivate && bytes >= 2 * hash.byteCount + 2
        case (.decrypt, .rawEncryption):
            return true
        case (.decrypt, .pkcs1v15Encryption):
            return bytes >= 11
        case (.decrypt, .oaep(let hash)):
            return bytes >= 2 * hash.byteCount + 2
        case (.decrypt, .oaepAESGCM(let hash)):
            return key.isPrivate && bytes >= 2 * hash.byteCount + 2
        default:
            return false
        }
    }
}

extension RSAAlgorithm.Input {
    /// The hash function named.
    var hash: SecKeyAlgorithmMeaning.Hash {
        switch self {
        case .message(let hash), .digest(let hash): hash
        }
    }
}

extension SecKey {
    /// The RSA meaning of `algorithm` when this RSA key can perform it for `operation`.
    /// - Throws: `errSecParam` (-50) with Apple's "algorithm not supported by the key" otherwise.
    func rsaAlgorithm(_ algorithm: SecKeyAlgorithm, for operation: SecKeyOperationType) throws(SecKeyFailure)
        -> RSAAlgorithm
    {
        guard let meaning = RSAAlgorithm(algorithm), meaning.isSupported(for: operation, by: self) else {
            throw SecKeyFailure(
                errSecParam,
                "\(algorithm.name): algorithm not supported by the key \(self) (operation: \(operation.verb)).")
        }
        return meaning
    }
}
#endif
