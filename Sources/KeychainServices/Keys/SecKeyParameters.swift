#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// The dictionary of ``SecKeyCreateRandomKey(_:_:)``, taken apart.
///
/// As Apple's `SecKeyGeneratePair` does, the attributes of each half are its subdictionary
/// (`kSecPrivateKeyAttrs`, `kSecPublicKeyAttrs`) with the top-level entries added where the
/// subdictionary has none, minus the entries that only belong at the top (type, size and the
/// two subdictionaries).
struct SecKeyParameters {
    /// The key chosen by `kSecAttrKeyType` and `kSecAttrKeySizeInBits`.
    enum Algorithm: Equatable {
        /// An EC key on this curve.
        case ellipticCurve(EllipticCurve)
        /// An RSA key with a modulus of this many bits (not yet checked).
        case rsa(bits: Int)
    }

    /// The key to generate.
    let algorithm: Algorithm
    /// Whether `kSecAttrTokenID` asks for a key generated inside the keychain.
    let isTokenKey: Bool
    /// The private key's attributes, keys normalised to strings.
    let privateAttributes: [String: Any]
    /// The public key's attributes, keys normalised to strings.
    let publicAttributes: [String: Any]

    /// Parses the dictionary.
    /// - Throws: `errSecParam` (-50) for a missing or unknown key type, a subdictionary that is
    ///   not a dictionary, or a missing or unsupported EC size (Apple's EC key initialiser says
    ///   `errSecKeySizeNotAllowed`, but its key-pair generation reports every failure of that
    ///   initialiser as `errSecParam`, "failed to generate key"), or an RSA key in the token;
    ///   `errSecUnimplemented` (-4) for the key types this platform cannot generate (Ed25519,
    ///   X25519, …); `errSecItemNotFound` (-25300) for a token other than the Secure Enclave's
    ///   (CryptoTokenKit's "token not found"). RSA sizes are checked when the key is generated
    ///   (``RSAPrivateKeyMaterial/generate(bits:)``).
    init(_ dictionary: CFDictionary) throws(SecKeyFailure) {
        let top = Self.normalized(dictionary)
        guard let type = top["type"].flatMap(Self.number) else {
            throw SecKeyFailure(
                errSecParam,
                "kSecAttrKeyType is missing or not a key type; use kSecAttrKeyTypeECSECPrimeRandom or kSecAttrKeyTypeRSA."
            )
        }
        let bits = top["bsiz"].flatMap(Self.number).map { Int(clamping: $0) }
        switch type {
        case TokenKeys.ecKeyType:
            guard let bits, let curve = EllipticCurve(keySizeInBits: bits) else {
                throw SecKeyFailure(
                    errSecParam, "kSecAttrKeySizeInBits must be 256, 384 or 521 for an EC key (failed to generate key)."
                )
            }
            algorithm = .ellipticCurve(curve)
        case RSAPublicKeyMaterial.keyType:
            guard let bits else {
                throw SecKeyFailure(
                    errSecParam,
                    "kSecAttrKeySizeInBits is missing; an RSA key has 1024 to 8192 bits (2048, 3072 or 4096 recommended)."
                )
            }
            algorithm = .rsa(bits: bits)
        case 105...111:
            throw SecKeyFailure(
                errSecUnimplemented,
                "Keys of type \(type) are not available on this platform; use kSecAttrKeyTypeECSECPrimeRandom or kSecAttrKeyTypeRSA."
            )
        default:
            throw SecKeyFailure(
                errSecParam,
                "kSecAttrKeyType \(type) is not a key type SecKeyCreateRandomKey knows; use kSecAttrKeyTypeECSECPrimeRandom or kSecAttrKeyTypeRSA."
            )
        }
        if let token = top["tkid"] {
            guard SecValue.string(token) == TokenKeys.tokenID else {
                throw SecKeyFailure(
                    errSecItemNotFound,
                    "The only token on this platform is kSecAttrTokenIDSecureEnclave (keys generated inside the keychain)."
                )
            }
            guard case .ellipticCurve(let curve) = algorithm else {
                throw SecKeyFailure(
                    errSecParam,
                    "Keys generated inside the keychain (kSecAttrTokenIDSecureEnclave) are EC keys, as the Secure Enclave's; RSA keys are software keys."
                )
            }
            guard curve != .p521 else {
                throw SecKeyFailure(
                    errSecParam,
                    "Keys generated inside the keychain (kSecAttrTokenIDSecureEnclave) are P-256 (as the Secure Enclave's) or P-384, not P-521."
                )
            }
            isTokenKey = true
        } else {
            isTokenKey = false
        }
        privateAttributes = try Self.merged(top, subdictionary: "private")
        publicAttributes = try Self.merged(top, subdictionary: "public")
    }

    /// `kSecAttrIsPermanent` of one half (default false).
    static func isPermanent(_ attributes: [String: Any]) -> Bool {
        guard let value = attributes["perm"] else { return false }
        if let flag = SecValue.boolean(value) { return flag }
        return number(value).map { $0 != 0 } ?? false
    }

    /// A half's attributes as a SecItem dictionary for a key item (`kSecClass` = keys), so they
    /// are read with SecItemAdd's rules.
    static func itemDictionary(_ attributes: [String: Any], adding extra: [String: Any] = [:]) -> NSDictionary {
        let dictionary = NSMutableDictionary()
        for (key, value) in attributes.merging(extra, uniquingKeysWith: { $1 }) {
            dictionary[NSString(string: key)] = value
        }
        dictionary[NSString(string: "class")] = NSString(string: ItemClass.key.rawValue)
        return dictionary
    }

    /// The subdictionary over the top level, without the top-level-only entries.
    private static func merged(_ top: [String: Any], subdictionary name: String) throws(SecKeyFailure) -> [String: Any]
    {
        var result = top
        if let value = top[name] {
            guard let sub = dictionary(value) else {
                throw SecKeyFailure(
                    errSecParam,
                    "\(name == "private" ? "kSecPrivateKeyAttrs" : "kSecPublicKeyAttrs") must be a dictionary.")
            }
            result.merge(sub) { _, own in own }
        }
        for key in ["private", "public", "type", "bsiz"] { result[key] = nil }
        return result
    }

    /// The entries with string keys (NSString or String); other keys are dropped.
    private static func normalized(_ dictionary: NSDictionary) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in dictionary {
            if let name = SecValue.string(key) { result[name] = value }
        }
        return result
    }

    /// A nested dictionary, which `[String: Any] as CFDictionary` may keep as a Swift dictionary.
    private static func dictionary(_ value: Any) -> [String: Any]? {
        if let swift = value as? [AnyHashable: Any] {
            var result: [String: Any] = [:]
            for (key, value) in swift {
                if let name = SecValue.string(key.base) { result[name] = value }
            }
            return result
        }
        return (value as? NSDictionary).map(normalized)
    }

    /// A number given as a number or a decimal string (`kSecAttrKeyTypeECSECPrimeRandom` is `"73"`).
    static func number(_ value: Any) -> Int64? {
        if case .integer(let number) = SecValue.integer(value) { return number }
        if let text = SecValue.string(value) { return Int64(text) }
        return nil
    }
}
#endif
