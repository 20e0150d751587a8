#if !canImport(Security)
import Crypto
import Foundation
import KeychainCore

/// A cryptographic key, as Apple's `SecKeyRef`: an elliptic-curve key on P-256, P-384 or P-521
/// (`kSecAttrKeyTypeECSECPrimeRandom`).
///
/// Three kinds exist:
/// - a **software private key**, whose scalar this object holds (``SecKeyCreateRandomKey(_:_:)``
///   without a token, ``SecKeyCreateWithData(_:_:_:)``, or a key item found in the keychain);
/// - a **public key** (``SecKeyCopyPublicKey(_:)``, ``SecKeyCreateWithData(_:_:_:)``);
/// - a **keychain-generated private key** (`kSecAttrTokenID = kSecAttrTokenIDSecureEnclave`), the
///   stand-in for a Secure Enclave key: this object holds only a reference to the key item, the
///   keychain it lives in, its public key, and the authentication options (`LAContext`, prompt,
///   UI policy) it was created or found with. Its scalar never leaves KeychainCore.
///
/// Keys are immutable and can be shared between threads. Two keys are equal when they are the
/// same half of the same key pair (for keychain-generated keys: the same key item). Neither the
/// description nor `dump(_:)` ever shows private material.
public final class SecKey: Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable, Sendable {
    /// What the key object holds.
    enum Kind: Sendable {
        /// A private key whose scalar is here.
        case softwarePrivate(ECPrivateKeyMaterial)
        /// A public key.
        case publicKey
        /// A private key generated inside this keychain; operations go through it.
        case tokenPrivate(Keychain)
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
    let curve: EllipticCurve
    /// The public key, uncompressed X9.63 (`04 ‖ X ‖ Y`).
    let publicKeyX963: Data
    /// The key item this key was stored in or found as; always present for keychain-generated keys.
    let storedItem: StoredItem?
    /// How operations needing user authentication may authenticate (keychain-generated keys).
    let authentication: AuthenticationOptions

    private init(kind: Kind, curve: EllipticCurve, publicKeyX963: Data, storedItem: StoredItem?, authentication: AuthenticationOptions) {
        self.kind = kind
        self.curve = curve
        self.publicKeyX963 = publicKeyX963
        self.storedItem = storedItem
        self.authentication = authentication
    }

    /// A software private key.
    /// - Throws: `errSecDecode` when the scalar does not give a public key (a corrupt key).
    static func softwarePrivate(_ material: ECPrivateKeyMaterial, storedItem: StoredItem? = nil) throws(SecKeyFailure) -> SecKey {
        let publicKey: Data
        do { publicKey = try material.publicKeyX963() } catch {
            throw SecKeyFailure(errSecDecode, "The private key is not a valid \(material.curve.rawValue)-bit EC key.")
        }
        return SecKey(kind: .softwarePrivate(material), curve: material.curve, publicKeyX963: publicKey,
                      storedItem: storedItem, authentication: AuthenticationOptions())
    }

    /// A public key; `x963` must already be checked (``EllipticCurve/isValidPublicKey(_:)``).
    static func publicKey(_ curve: EllipticCurve, x963: Data, storedItem: StoredItem? = nil) -> SecKey {
        SecKey(kind: .publicKey, curve: curve, publicKeyX963: x963, storedItem: storedItem, authentication: AuthenticationOptions())
    }

    /// A key generated inside `keychain`, stored as `item`.
    static func tokenPrivate(_ curve: EllipticCurve, publicKeyX963: Data, keychain: Keychain, item: StoredItem,
                             authentication: AuthenticationOptions) -> SecKey {
        SecKey(kind: .tokenPrivate(keychain), curve: curve, publicKeyX963: publicKeyX963, storedItem: item, authentication: authentication)
    }

    /// Whether this is a private key (software or keychain-generated).
    var isPrivate: Bool {
        if case .publicKey = kind { return false }
        return true
    }

    /// Whether this is a key generated inside the keychain.
    var isTokenKey: Bool {
        if case .tokenPrivate = kind { return true }
        return false
    }

    /// `kSecAttrApplicationLabel`: the SHA-1 of the X9.63 public key.
    var applicationLabel: Data { Data(Insecure.SHA1.hash(data: publicKeyX963)) }

    /// The public half of this key (itself for a public key).
    var publicHalf: SecKey {
        isPrivate ? .publicKey(curve, x963: publicKeyX963) : self
    }

    // MARK: - Equality

    /// Equal when both are the same half of the same key pair; keychain-generated keys are
    /// equal when they are the same key item. Compares public values only.
    public static func == (lhs: SecKey, rhs: SecKey) -> Bool {
        if lhs === rhs { return true }
        switch (lhs.kind, rhs.kind) {
        case (.softwarePrivate, .softwarePrivate), (.publicKey, .publicKey):
            return lhs.publicKeyX963 == rhs.publicKeyX963
        case (.tokenPrivate, .tokenPrivate):
            return lhs.publicKeyX963 == rhs.publicKeyX963 && lhs.storedItem?.reference == rhs.storedItem?.reference
        default:
            return false
        }
    }

    /// Hashes the kind and the public key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isPrivate)
        hasher.combine(isTokenKey)
        hasher.combine(publicKeyX963)
    }

    // MARK: - Description

    /// Apple's format: `<SecKeyRef curve type: kSecECCurveSecp256r1, algorithm id: 3, key type:
    /// ECPublicKey, version: 4, block size: 256 bits, y: …, x: …, addr: 0x…>` for a public key;
    /// private keys show no key material at all, keychain-generated ones their token ID.
    public var description: String {
        let address = "\(Unmanaged.passUnretained(self).toOpaque())"
        let common = "curve type: \(curve.appleName), algorithm id: 3"
        let bits = "block size: \(8 * curve.coordinateByteCount) bits"
        switch kind {
        case .publicKey:
            let size = curve.coordinateByteCount
            let x = publicKeyX963.dropFirst().prefix(size).map { String(format: "%02X", $0) }.joined()
            let y = publicKeyX963.suffix(size).map { String(format: "%02X", $0) }.joined()
            return "<SecKeyRef \(common), key type: ECPublicKey, version: 4, \(bits), y: \(y), x: \(x), addr: \(address)>"
        case .softwarePrivate:
            return "<SecKeyRef \(common), key type: ECPrivateKey, version: 4, \(bits), addr: \(address)>"
        case .tokenPrivate:
            return "<SecKeyRef:('\(TokenKeys.tokenID)') \(common), key type: ECPrivateKey, \(bits), addr: \(address)>"
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Kind, curve and public key only, so `dump(_:)` never prints the private scalar.
    public var customMirror: Mirror {
        let kindName = switch kind {
        case .softwarePrivate: "private"
        case .publicKey: "public"
        case .tokenPrivate: "private (generated inside the keychain)"
        }
        return Mirror(self, children: ["kind": kindName, "curve": curve, "publicKey": publicKeyX963,
                                       "persistentReference": storedItem?.reference as Any], displayStyle: .class)
    }
}
#endif
