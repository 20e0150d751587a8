#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore

/// The public-key side of the EC operations, done with swift-crypto: checking a public key,
/// verifying a signature, converting between signature encodings, and the ephemeral half of
/// ECIES. (Private-key operations are ``ECPrivateKeyMaterial``'s and the keychain's.)
extension EllipticCurve {
    /// `kSecECCurveSecp256r1`, … as Apple's key descriptions name the curve.
    var appleName: String {
        switch self {
        case .p256: "kSecECCurveSecp256r1"
        case .p384: "kSecECCurveSecp384r1"
        case .p521: "kSecECCurveSecp521r1"
        }
    }

    /// The curve of an X9.63 key of `count` bytes: `04 ‖ X ‖ Y` (public) or `04 ‖ X ‖ Y ‖ K`
    /// (private). The half must be known: a P-256 private key and a P-384 public key are both
    /// 97 bytes long.
    static func of(x963ByteCount count: Int, isPrivate: Bool) -> EllipticCurve? {
        allCases.first { count == $0.publicKeyByteCount + (isPrivate ? $0.coordinateByteCount : 0) }
    }

    /// Checks that `bytes` is an uncompressed X9.63 public key (`04 ‖ X ‖ Y`) of a point on this
    /// curve.
    func isValidPublicKey(_ bytes: Data) -> Bool {
        guard bytes.count == publicKeyByteCount, bytes.first == 0x04 else { return false }
        switch self {
        case .p256: return (try? P256.Signing.PublicKey(x963Representation: bytes)) != nil
        case .p384: return (try? P384.Signing.PublicKey(x963Representation: bytes)) != nil
        case .p521: return (try? P521.Signing.PublicKey(x963Representation: bytes)) != nil
        }
    }

    /// Whether `signature` (DER, X9.62) is a valid ECDSA signature of `digest` by `publicKey`.
    /// Malformed signatures and keys are simply not valid.
    func isValidSignature(_ signature: Data, digest: Data, publicKey: Data) -> Bool {
        guard let digest = ExternalDigest(digest) else { return false }
        switch self {
        case .p256:
            guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey),
                let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(signature, for: digest)
        case .p384:
            guard let key = try? P384.Signing.PublicKey(x963Representation: publicKey),
                let signature = try? P384.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(signature, for: digest)
        case .p521:
            guard let key = try? P521.Signing.PublicKey(x963Representation: publicKey),
                let signature = try? P521.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(signature, for: digest)
        }
    }

    /// A DER signature as `r ‖ s` (RFC 4754), or `nil` when it is not a DER ECDSA signature.
    func rawSignature(fromDER signature: Data) -> Data? {
        switch self {
        case .p256: (try? P256.Signing.ECDSASignature(derRepresentation: signature))?.rawRepresentation
        case .p384: (try? P384.Signing.ECDSASignature(derRepresentation: signature))?.rawRepresentation
        case .p521: (try? P521.Signing.ECDSASignature(derRepresentation: signature))?.rawRepresentation
        }
    }

    /// An `r ‖ s` signature (RFC 4754) as DER, or `nil` when it has the wrong size.
    func derSignature(fromRaw signature: Data) -> Data? {
        guard signature.count == 2 * coordinateByteCount else { return nil }
        switch self {
        case .p256: return (try? P256.Signing.ECDSASignature(rawRepresentation: signature))?.derRepresentation
        case .p384: return (try? P384.Signing.ECDSASignature(rawRepresentation: signature))?.derRepresentation
        case .p521: return (try? P521.Signing.ECDSASignature(rawRepresentation: signature))?.derRepresentation
        }
    }

    /// A fresh ephemeral key pair's X9.63 public key and its raw ECDH shared secret with
    /// `peer` (ECIES encryption). The ephemeral private key is dropped before returning.
    func ephemeralAgreement(with peer: Data) throws(SecKeyFailure) -> (publicKey: Data, sharedSecret: Data) {
        do {
            switch self {
            case .p256:
                let ephemeral = P256.KeyAgreement.PrivateKey()
                let secret = try ephemeral.sharedSecretFromKeyAgreement(with: .init(x963Representation: peer))
                return (ephemeral.publicKey.x963Representation, secret.withUnsafeBytes { Data($0) })
            case .p384:
                let ephemeral = P384.KeyAgreement.PrivateKey()
                let secret = try ephemeral.sharedSecretFromKeyAgreement(with: .init(x963Representation: peer))
                return (ephemeral.publicKey.x963Representation, secret.withUnsafeBytes { Data($0) })
            case .p521:
                let ephemeral = P521.KeyAgreement.PrivateKey()
                let secret = try ephemeral.sharedSecretFromKeyAgreement(with: .init(x963Representation: peer))
                return (ephemeral.publicKey.x963Representation, secret.withUnsafeBytes { Data($0) })
            }
        } catch {
            throw SecKeyFailure(errSecParam, "The public key is not a valid \(rawValue)-bit EC key.")
        }
    }
}

/// A digest computed elsewhere (the caller's, for the `…Digest…` algorithms), handed to
/// swift-crypto's ECDSA verification, which accepts any ``Digest``.
private struct ExternalDigest: Digest {
    /// Sizes vary; swift-crypto reads the bytes, not this.
    static var byteCount: Int { 32 }
    private let bytes: [UInt8]

    /// `nil` for an empty digest or one longer than 64 bytes (SHA-512), which ECDSA cannot take.
    init?(_ digest: Data) {
        guard (1...64).contains(digest.count) else { return nil }
        bytes = Array(digest)
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
    func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    var description: String { "ExternalDigest(\(bytes.count) bytes)" }
}
#endif
