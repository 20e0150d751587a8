#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation

/// What a ``SecKeyAlgorithm`` asks an elliptic-curve key to do, read from its raw string.
///
/// The raw strings have a fixed grammar (`algid:<operation>:<scheme>:…`, see SecKeyAlgorithm.swift);
/// only the forms Apple defines are recognised, anything else is `nil`.
enum SecKeyAlgorithmMeaning: Equatable {
    /// The hash functions the algorithms name.
    enum Hash: String, Equatable {
        case sha1 = "SHA1", sha224 = "SHA224", sha256 = "SHA256", sha384 = "SHA384", sha512 = "SHA512"

        /// The digest size in bytes.
        var byteCount: Int {
            switch self {
            case .sha1: 20
            case .sha224: 28
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }

        /// The digest of `message` (SHA-224 by our own ``SHA224``, the others by swift-crypto).
        func digest(_ message: Data) -> Data {
            switch self {
            case .sha1: Data(Insecure.SHA1.hash(data: message))
            case .sha224: SHA224.hash(message)
            case .sha256: Data(SHA256.hash(data: message))
            case .sha384: Data(SHA384.hash(data: message))
            case .sha512: Data(SHA512.hash(data: message))
            }
        }
    }

    /// How an ECDSA signature is encoded.
    enum SignatureFormat: Equatable {
        /// DER `SEQUENCE { r INTEGER, s INTEGER }` (X9.62).
        case x962
        /// `r ‖ s`, each as many bytes as a coordinate (RFC 4754).
        case rfc4754
    }

    /// What an ECDSA algorithm signs.
    enum SignatureInput: Equatable {
        /// A message, hashed with this function first.
        case message(Hash)
        /// A digest the caller computed: of exactly this function's size, or of any size (`nil`).
        case digest(Hash?)
    }

    /// ECDSA signing and verification.
    case signature(SignatureInput, SignatureFormat)
    /// ECDH; with a hash, the shared secret goes through the ANSI X9.63 KDF. The cofactor
    /// variants are the same computation on the NIST prime curves, whose cofactor is 1.
    case keyExchange(kdf: Hash?)
    /// ECIES with an X9.63 KDF and AES-GCM; `variableIV` takes the IV from the KDF output.
    case ecies(Hash, variableIV: Bool)
    /// An RSA algorithm, which elliptic-curve keys never perform (RSA keys: ``RSAAlgorithm``).
    case rsa

    init?(_ algorithm: SecKeyAlgorithm) {
        let parts = algorithm.name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "algid" else { return nil }
        if parts[2] == "RSA", parts[1] == "sign" || parts[1] == "encrypt" {
            self = .rsa
            return
        }
        switch (parts[1], parts[2]) {
        case ("sign", "ECDSA"):
            guard let meaning = Self.signature(Array(parts.dropFirst(3))) else { return nil }
            self = meaning
        case ("keyexchange", "ECDH"), ("keyexchange", "ECDHC"):
            switch parts.count {
            case 3: self = .keyExchange(kdf: nil)
            case 5 where parts[3] == "KDFX963":
                guard let hash = Hash(rawValue: parts[4]) else { return nil }
                self = .keyExchange(kdf: hash)
            default: return nil
            }
        case ("encrypt", "ECIES"):
            guard parts.count == 7, parts[3] == "ECDH" || parts[3] == "ECDHC", parts[4] == "KDFX963",
                let hash = Hash(rawValue: parts[5])
            else { return nil }
            switch parts[6] {
            case "AESGCM": self = .ecies(hash, variableIV: false)
            case "AESGCM-KDFIV" where hash != .sha1: self = .ecies(hash, variableIV: true)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// `RFC4754`, `digest-X962[:SHAn]`, `message-X962:SHAn`, `digest-RFC4754[:SHAn]`, `message-RFC4754:SHAn`.
    private static func signature(_ rest: [String]) -> SecKeyAlgorithmMeaning? {
        if rest == ["RFC4754"] { return .signature(.digest(nil), .rfc4754) }
        guard let first = rest.first, rest.count <= 2 else { return nil }
        let hash = rest.count == 2 ? Hash(rawValue: rest[1]) : nil
        if rest.count == 2 && hash == nil { return nil }
        let format: SignatureFormat
        let isMessage: Bool
        switch first {
        case "digest-X962": (format, isMessage) = (.x962, false)
        case "message-X962": (format, isMessage) = (.x962, true)
        case "digest-RFC4754": (format, isMessage) = (.rfc4754, false)
        case "message-RFC4754": (format, isMessage) = (.rfc4754, true)
        default: return nil
        }
        if isMessage {
            guard let hash else { return nil }
            return .signature(.message(hash), format)
        }
        return .signature(.digest(hash), format)
    }

    /// The hash the algorithm depends on, if any.
    var hash: Hash? {
        switch self {
        case .signature(.message(let hash), _): hash
        case .signature(.digest(let hash), _): hash
        case .keyExchange(let kdf): kdf
        case .ecies(let hash, _): hash
        case .rsa: nil
        }
    }

    /// Whether the algorithm serves `operation`.
    func serves(_ operation: SecKeyOperationType) -> Bool {
        switch self {
        case .signature: operation == .sign || operation == .verify
        case .keyExchange: operation == .keyExchange
        case .ecies: operation == .encrypt || operation == .decrypt
        case .rsa: false
        }
    }
}

extension SecKeyOperationType {
    /// Whether a private key (`true`) or a public key (`false`) performs the operation.
    var needsPrivateKey: Bool {
        switch self {
        case .sign, .decrypt, .keyExchange: true
        case .verify, .encrypt: false
        }
    }

    /// The verb for messages.
    var verb: String {
        switch self {
        case .sign: "sign"
        case .verify: "verify"
        case .encrypt: "encrypt"
        case .decrypt: "decrypt"
        case .keyExchange: "key exchange"
        }
    }
}

extension SecKey {
    /// The meaning of `algorithm` when this key can perform it for `operation`.
    ///
    /// - Throws: `errSecParam` (-50) with Apple's "algorithm not supported by the key" when the
    ///   algorithm is unknown, is RSA, does not serve the operation, or needs the other half of
    ///   the key pair (signing with a public key, verifying with a private one, as Apple's EC
    ///   keys), and for every algorithm when this is an RSA key.
    func meaning(of algorithm: SecKeyAlgorithm, for operation: SecKeyOperationType) throws(SecKeyFailure)
        -> SecKeyAlgorithmMeaning
    {
        guard ellipticCurve != nil, let meaning = SecKeyAlgorithmMeaning(algorithm), meaning.serves(operation) else {
            throw SecKeyFailure(
                errSecParam,
                "\(algorithm.name): algorithm not supported by the key \(self) (operation: \(operation.verb)).")
        }
        guard operation.needsPrivateKey == isPrivate else {
            let needed = operation.needsPrivateKey ? "a private key" : "a public key (SecKeyCopyPublicKey)"
            throw SecKeyFailure(
                errSecParam,
                "\(algorithm.name): algorithm not supported by the key \(self); \(operation.verb) needs \(needed).")
        }
        return meaning
    }
}

/// Whether `key` can perform `algorithm` for `operation`: EC private keys sign, decrypt (ECIES)
/// and exchange keys; EC public keys verify and encrypt (ECIES). RSA keys follow Apple's RSA
/// rules: private keys sign (PSS only with a modulus of at least 2 × 8 × digest size + 9
/// bits), verify and decrypt; public keys verify, encrypt (PKCS#1 with a modulus of at least
/// 11 bytes, OAEP with at least 2 × digest size + 2) and decrypt the raw, PKCS#1 and OAEP
/// algorithms with their public operation, as Apple's keys do.
///
/// - Returns: `true` when ``SecKeyCreateSignature(_:_:_:_:)`` and the other calls would accept
///   the combination; never sets an error.
public func SecKeyIsAlgorithmSupported(_ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm)
    -> Bool
{
    if key.rsaPublicMaterial != nil { return (try? key.rsaAlgorithm(algorithm, for: operation)) != nil }
    return (try? key.meaning(of: algorithm, for: operation)) != nil
}
#endif
