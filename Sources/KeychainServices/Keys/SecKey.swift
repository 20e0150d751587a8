#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore

/// A cryptographic key, as Apple's `SecKeyRef`: an elliptic-curve key on P-256, P-384 or P-521
/// (`kSecAttrKeyTypeECSECPrimeRandom`) or an RSA key of 1024 to 8192 bits (`kSecAttrKeyTypeRSA`).
///
/// Five kinds exist:
/// - a **software private key**, whose scalar this object holds (``SecKeyCreateRandomKey(_:_:)``
///   without a token, ``SecKeyCreateWithData(_:_:_:)``, or a key item found in the keychain);
/// - a **public key** (``SecKeyCopyPublicKey(_:)``, ``SecKeyCreateWithData(_:_:_:)``);
/// - a **keychain-generated private key** (`kSecAttrTokenID = kSecAttrTokenIDSecureEnclave`), the
///   stand-in for a Secure Enclave key: this object holds only a reference to the key item, the
///   keychain it lives in, its public key, and the authentication options (`LAContext`, prompt,
///   UI policy) it was created or found with. Its scalar never leaves KeychainCore;
/// - an **RSA private key** in software (``SecKeyCreateRandomKey(_:_:)``,
///   ``SecKeyCreateWithData(_:_:_:)`` with PKCS#1 data, or a key item), held by swift-crypto;
/// - an **RSA public key**.
///
/// Keys are immutable and can be shared between threads. Two keys are equal when they are the
/// same half of the same key pair (for keychain-generated keys: the same key item). Neither the
/// description nor `dump(_:)` ever shows private material.
public final class SecKey: Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable, Sendable
{
    /// What the key object holds.
    enum Kind: Sendable {
        /// A private key whose scalar is here.
        case softwarePrivate(ECPrivateKeyMaterial)
        /// A public key.
        case publicKey
        /// A private key generated inside this keychain; operations go through it.
        case tokenPrivate(Keychain)
        /// An RSA private key whose material is here.
        case rsaPrivate(RSAPrivateKeyMaterial)
        /// An RSA public key.
        case rsaPublic(RSAPublicKeyMaterial)
    }

    /// The key item a key is stored in.
    struct StoredItem: Sendable {
        /// The item's persistent reference.
        let reference: PersistentReference
        /// The item's attributes (never its data), for ``SecKeyCopyAttributes(_:)``.
        let attributes: [AttributeKey: AttributeValue]
        /// The item's access policy, if it has one.
        let accessPolicy: AccessPolicy?
    }

    let kind: Kind
    /// The curve of an EC key; `nil` for an RSA key.
    let ellipticCurve: EllipticCurve?
    /// The public key as Apple serialises it for the application label: uncompressed X9.63
    /// (`04 ‖ X ‖ Y`) for an EC key, DER `RSAPublicKey` (PKCS#1) for an RSA key.
    let publicKeyBytes: Data
    /// The key item this key was stored in or found as; always present for keychain-generated keys.
    let storedItem: StoredItem?
    /// How operations needing user authentication may authenticate (keychain-generated keys).
    let authentication: AuthenticationOptions

    private init(
        kind: Kind, curve: EllipticCurve?, publicKeyBytes: Data, storedItem: StoredItem?,
        authentication: AuthenticationOptions
    ) {
        self.kind = kind
        self.ellipticCurve = curve
        self.publicKeyBytes = publicKeyBytes
        self.storedItem = storedItem
        self.authentication = authentication
    }

    /// A software private key.
    /// - Throws: `errSecDecode` when the scalar does not give a public key (a corrupt key).
    static func softwarePrivate(_ material: ECPrivateKeyMaterial, storedItem: StoredItem? = nil) throws(SecKeyFailure)
        -> SecKey
    {
        let publicKey: Data
        do { publicKey = try material.publicKeyX963() } catch {
            throw SecKeyFailure(errSecDecode, "The private key is not a valid \(material.curve.rawValue)-bit EC key.")
        }
        return SecKey(
            kind: .softwarePrivate(material), curve: material.curve, publicKeyBytes: publicKey,
            storedItem: storedItem, authentication: AuthenticationOptions())
    }

    /// A public key; `x963` must already be checked (``EllipticCurve/isValidPublicKey(_:)``).
    static func publicKey(_ curve: EllipticCurve, x963: Data, storedItem: StoredItem? = nil) -> SecKey {
        SecKey(
            kind: .publicKey, curve: curve, publicKeyBytes: x963, storedItem: storedItem,
            authentication: AuthenticationOptions())
    }

    /// A software RSA private key.
    static func rsaPrivate(_ material: RSAPrivateKeyMaterial, storedItem: StoredItem? = nil) -> SecKey {
        SecKey(
            kind: .rsaPrivate(material), curve: nil, publicKeyBytes: material.publicKey.pkcs1, storedItem: storedItem,
            authentication: AuthenticationOptions())
    }

    /// An RSA public key.
    static func rsaPublic(_ material: RSAPublicKeyMaterial, storedItem: StoredItem? = nil) -> SecKey {
        SecKey(
            kind: .rsaPublic(material), curve: nil, publicKeyBytes: material.pkcs1, storedItem: storedItem,
            authentication: AuthenticationOptions())
    }

    /// A key generated inside `keychain`, stored as `item`.
    static func tokenPrivate(
        _ curve: EllipticCurve, publicKeyX963: Data, keychain: Keychain, item: StoredItem,
        authentication: AuthenticationOptions
    ) -> SecKey {
        SecKey(
            kind: .tokenPrivate(keychain), curve: curve, publicKeyBytes: publicKeyX963, storedItem: item,
            authentication: authentication)
    }

    /// The curve of an EC key. Only EC code paths ask, after ``rsaPublicMaterial`` sent RSA
    /// keys elsewhere (every SecKey function checks that first).
    var curve: EllipticCurve {
        guard let ellipticCurve else { preconditionFailure("An RSA key reached an elliptic-curve code path.") }
        return ellipticCurve
    }

    /// The X9.63 public key of an EC key (``publicKeyBytes``).
    var publicKeyX963: Data { publicKeyBytes }

    /// The public half of an RSA key (its own for a public key); `nil` for an EC key.
    var rsaPublicMaterial: RSAPublicKeyMaterial? {
        switch kind {
        case .rsaPrivate(let material): material.publicKey
        case .rsaPublic(let material): material
        case .softwarePrivate, .publicKey, .tokenPrivate: nil
        }
    }

    /// `kSecAttrKeyType` as a number: 42 (RSA) or 73 (EC).
    var keyType: Int64 { rsaPublicMaterial == nil ? TokenKeys.ecKeyType : RSAPublicKeyMaterial.keyType }

    /// The size in bits (`kSecAttrKeySizeInBits`): the curve's or the modulus's.
    var keySizeInBits: Int { rsaPublicMaterial?.bitCount ?? curve.rawValue }

    /// Whether this is a private key (software or keychain-generated).
    var isPrivate: Bool {
        switch kind {
        case .publicKey, .rsaPublic: false
        case .softwarePrivate, .tokenPrivate, .rsaPrivate: true
        }
    }

    /// Whether this is a key generated inside the keychain.
    var isTokenKey: Bool {
        if case .tokenPrivate = kind { return true }
        return false
    }

    /// `kSecAttrApplicationLabel`: the SHA-1 of the public key as Apple serialises it (X9.63
    /// for EC, PKCS#1 `RSAPublicKey` DER for RSA).
    var applicationLabel: Data { Data(Insecure.SHA1.hash(data: publicKeyBytes)) }

    /// The public half of this key (itself for a public key).
    var publicHalf: SecKey {
        guard isPrivate else { return self }
        if let rsa = rsaPublicMaterial { return .rsaPublic(rsa) }
        return .publicKey(curve, x963: publicKeyX963)
    }

    // MARK: - Equality

    /// Equal when both are the same half of the same key pair; keychain-generated keys are
    /// equal when they are the same key item. Compares public values only.
    public static func == (lhs: SecKey, rhs: SecKey) -> Bool {
        if lhs === rhs { return true }
        switch (lhs.kind, rhs.kind) {
        case (.softwarePrivate, .softwarePrivate), (.publicKey, .publicKey), (.rsaPrivate, .rsaPrivate),
            (.rsaPublic, .rsaPublic):
            return lhs.publicKeyBytes == rhs.publicKeyBytes
        case (.tokenPrivate, .tokenPrivate):
            return lhs.publicKeyBytes == rhs.publicKeyBytes && lhs.storedItem?.reference == rhs.storedItem?.reference
        default:
            return false
        }
    }

    /// Hashes the kind and the public key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isPrivate)
        hasher.combine(isTokenKey)
        hasher.combine(publicKeyBytes)
    }

    // MARK: - Description

    /// Apple's format: `<SecKeyRef curve type: kSecECCurveSecp256r1, algorithm id: 3, key type:
    /// ECPublicKey, version: 4, block size: 256 bits, y: …, x: …, addr: 0x…>` for a public key;
    /// private keys show no key material at all, keychain-generated ones their token ID. RSA
    /// keys: see `rsaDescription(address:)`.
    public var description: String {
        let address = "\(Unmanaged.passUnretained(self).toOpaque())"
        if rsaPublicMaterial != nil { return rsaDescription(address: address) }
        let common = "curve type: \(curve.appleName), algorithm id: 3"
        let bits = "block size: \(8 * curve.coordinateByteCount) bits"
        switch kind {
        case .publicKey:
            let size = curve.coordinateByteCount
            let x = publicKeyX963.dropFirst().prefix(size).map { String(format: "%02X", $0) }.joined()
            let y = publicKeyX963.suffix(size).map { String(format: "%02X", $0) }.joined()
            return
                "<SecKeyRef \(common), key type: ECPublicKey, version: 4, \(bits), y: \(y), x: \(x), addr: \(address)>"
        case .softwarePrivate:
            return "<SecKeyRef \(common), key type: ECPrivateKey, version: 4, \(bits), addr: \(address)>"
        case .tokenPrivate:
            return "<SecKeyRef:('\(TokenKeys.tokenID)') \(common), key type: ECPrivateKey, \(bits), addr: \(address)>"
        case .rsaPrivate, .rsaPublic:
            return rsaDescription(address: address)
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Kind, curve and public key only, so `dump(_:)` never prints the private scalar.
    public var customMirror: Mirror {
        let kindName =
            switch kind {
            case .softwarePrivate: "private"
            case .publicKey: "public"
            case .tokenPrivate: "private (generated inside the keychain)"
            case .rsaPrivate: "RSA private"
            case .rsaPublic: "RSA public"
            }
        let size: Any = ellipticCurve.map { $0 as Any } ?? "\(keySizeInBits)-bit RSA"
        return Mirror(
            self,
            children: [
                "kind": kindName, "curve": size, "publicKey": publicKeyBytes,
                "persistentReference": storedItem?.reference as Any
            ], displayStyle: .class)
    }
}
#endif
