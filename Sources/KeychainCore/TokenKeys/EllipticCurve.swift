import Crypto
import Foundation

/// The NIST prime curves keys can be generated on (`kSecAttrKeyTypeECSECPrimeRandom`).
public enum EllipticCurve: Int, Sendable, Hashable, CaseIterable {
    /// P-256 (secp256r1), the Secure Enclave's curve.
    case p256 = 256
    /// P-384 (secp384r1).
    case p384 = 384
    /// P-521 (secp521r1); software keys only.
    case p521 = 521

    /// The curve of a key size in bits (`kSecAttrKeySizeInBits`), if supported.
    public init?(keySizeInBits: Int) { self.init(rawValue: keySizeInBits) }

    /// The size of a coordinate or of the private scalar, in bytes.
    public var coordinateByteCount: Int { (rawValue + 7) / 8 }

    /// The size of an uncompressed X9.63 public key (`04 ‖ X ‖ Y`).
    public var publicKeyByteCount: Int { 1 + 2 * coordinateByteCount }
}

/// A private EC key's scalar with the curve it belongs to, and the operations the keychain
/// performs with it (signing a digest, ECDH). Used for keys generated inside the keychain,
/// whose scalar never leaves KeychainCore, and for software keys.
public struct ECPrivateKeyMaterial: Sendable, CustomStringConvertible, CustomReflectable {
    /// The curve.
    public let curve: EllipticCurve
    /// The private scalar, big-endian, ``EllipticCurve/coordinateByteCount`` bytes.
    let scalar: Data

    /// `ECPrivateKeyMaterial(P-256)`: never the scalar.
    public var description: String { "ECPrivateKeyMaterial(P-\(curve.rawValue))" }

    /// The curve only, so `dump(_:)` never prints the scalar.
    public var customMirror: Mirror { Mirror(self, children: ["curve": curve], displayStyle: .struct) }

    /// Generates a new random key.
    public static func generate(_ curve: EllipticCurve) -> ECPrivateKeyMaterial {
        switch curve {
        case .p256: ECPrivateKeyMaterial(curve: curve, validScalar: P256.Signing.PrivateKey().rawRepresentation)
        case .p384: ECPrivateKeyMaterial(curve: curve, validScalar: P384.Signing.PrivateKey().rawRepresentation)
        case .p521: ECPrivateKeyMaterial(curve: curve, validScalar: P521.Signing.PrivateKey().rawRepresentation)
        }
    }

    /// Reads a scalar of the curve's size.
    /// - Throws: `.invalidParameter` when it is not a valid private key on the curve.
    public init(curve: EllipticCurve, scalar: Data) throws(KeychainError) {
        guard scalar.count == curve.coordinateByteCount else {
            throw KeychainError.privateKeyLength(
                curveBits: curve.rawValue, coordinateByteCount: curve.coordinateByteCount, byteCount: scalar.count)
        }
        self.init(curve: curve, validScalar: scalar)
        do { _ = try publicKeyX963() } catch {
            throw KeychainError.invalidPrivateKey(curveBits: curve.rawValue)
        }
    }

    private init(curve: EllipticCurve, validScalar scalar: Data) {
        self.curve = curve
        self.scalar = scalar
    }

    /// The public key, uncompressed X9.63 (`04 ‖ X ‖ Y`).
    public func publicKeyX963() throws -> Data {
        switch curve {
        case .p256: try P256.Signing.PrivateKey(rawRepresentation: scalar).publicKey.x963Representation
        case .p384: try P384.Signing.PrivateKey(rawRepresentation: scalar).publicKey.x963Representation
        case .p521: try P521.Signing.PrivateKey(rawRepresentation: scalar).publicKey.x963Representation
        }
    }

    /// The private key in Apple's external form: X9.63 `04 ‖ X ‖ Y ‖ K`.
    public func x963Representation() throws -> Data { try publicKeyX963() + scalar }

    /// An ECDSA signature (DER, X9.62) of a digest already computed by the caller. Digests longer
    /// than the curve order are truncated as ECDSA specifies.
    /// - Throws: `.invalidParameter` for an empty digest or one longer than 64 bytes.
    public func signature(forDigest digest: Data) throws(KeychainError) -> Data {
        do {
            let digest = try PrecomputedDigest(digest)
            switch curve {
            case .p256:
                return try P256.Signing.PrivateKey(rawRepresentation: scalar).signature(for: digest).derRepresentation
            case .p384:
                return try P384.Signing.PrivateKey(rawRepresentation: scalar).signature(for: digest).derRepresentation
            case .p521:
                return try P521.Signing.PrivateKey(rawRepresentation: scalar).signature(for: digest).derRepresentation
            }
        } catch let error as KeychainError {
            throw error
        } catch {
            throw KeychainError.ecdsaSigningFailed()
        }
    }

    /// The raw ECDH shared secret (the X coordinate) with a peer's X9.63 public key on the same curve.
    /// - Throws: `.invalidParameter` when the peer key is not a public key on this curve.
    public func sharedSecret(withPeerX963 peer: Data) throws(KeychainError) -> Data {
        do {
            let secret: SharedSecret
            switch curve {
            case .p256:
                secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(
                    with: .init(x963Representation: peer))
            case .p384:
                secret = try P384.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(
                    with: .init(x963Representation: peer))
            case .p521:
                secret = try P521.KeyAgreement.PrivateKey(rawRepresentation: scalar).sharedSecretFromKeyAgreement(
                    with: .init(x963Representation: peer))
            }
            return secret.withUnsafeBytes { Data($0) }
        } catch {
            throw KeychainError.invalidPeerKey(curveBits: curve.rawValue)
        }
    }
}

/// A digest computed elsewhere, handed to swift-crypto's ECDSA, which signs any ``Digest``.
struct PrecomputedDigest: Digest {
    /// Sizes vary; swift-crypto reads the bytes, not this.
    static var byteCount: Int { 32 }
    private let bytes: [UInt8]

    init(_ digest: Data) throws(KeychainError) {
        guard (1...64).contains(digest.count) else {
            throw KeychainError.digestLength(byteCount: digest.count)
        }
        bytes = Array(digest)
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
    func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    var description: String { "PrecomputedDigest(\(bytes.count) bytes)" }
}
