#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import SecureStorageFoundation

/// Performs an elliptic-curve Diffie-Hellman key exchange between a private key and another
/// party's public key.
///
/// `kSecKeyAlgorithmECDHKeyExchangeStandard` (and `…Cofactor`, the same on these curves, whose
/// cofactor is 1) returns the raw shared secret (the X coordinate). The `…X963SHA1/256/384/512`
/// variants run it through the ANSI X9.63 KDF: `parameters` must give
/// `kSecKeyKeyExchangeParameterRequestedSize` (the output size in bytes) and may give
/// `kSecKeyKeyExchangeParameterSharedInfo` (data). With a key generated inside the keychain the
/// exchange happens there (after the authentication its access control asks for) and only the
/// shared secret leaves it.
///
/// - Returns: the shared secret or derived key, or `nil` with `error` set: `errSecParam` (-50)
///   when the private key cannot perform the algorithm, `publicKey` is not a public key on the
///   same curve, the requested size is missing or out of range, or the shared info is not data;
///   the authentication statuses of
///   ``SecKeyCreateSignature(_:_:_:_:)`` for keychain-generated keys.
public func SecKeyCopyKeyExchangeResult(
    _ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey, _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecKeyCall.run("SecKeyCopyKeyExchangeResult", error) { () throws(SecKeyFailure) -> CFData in
        guard case .keyExchange(let kdf) = try privateKey.meaning(of: algorithm, for: .keyExchange) else {
            throw SecKeyFailure(errSecParam, "\(algorithm.name): algorithm not supported by the key \(privateKey).")
        }
        let derivation = try kdf.map { hash throws(SecKeyFailure) in (hash, try SecKeyExchangeParameters(parameters)) }
        guard !publicKey.isPrivate, publicKey.ellipticCurve != nil, publicKey.ellipticCurve == privateKey.ellipticCurve
        else {
            throw SecKeyFailure(
                errSecParam,
                "The other party's key must be a \(privateKey.curve.rawValue)-bit EC public key (SecKeyCopyPublicKey of theirs)."
            )
        }
        var secret = try privateKey.sharedSecret(withPeer: publicKey.publicKeyX963)
        defer { SecretWiping.wipe(&secret) }
        guard let (hash, parameters) = derivation else { return NSData(data: secret) }
        return NSData(
            data: X963KDF.derive(
                hash, secret: secret, sharedInfo: parameters.sharedInfo, byteCount: parameters.requestedSize))
    }
}

/// The `parameters` of a key exchange with a KDF.
struct SecKeyExchangeParameters {
    /// `kSecKeyKeyExchangeParameterRequestedSize`.
    let requestedSize: Int
    /// `kSecKeyKeyExchangeParameterSharedInfo` (empty when absent).
    let sharedInfo: Data

    /// - Throws: `errSecParam` for a missing or out-of-range size or shared info that is not data.
    init(_ dictionary: CFDictionary) throws(SecKeyFailure) {
        var size: Int?
        var info = Data()
        for (key, value) in dictionary {
            switch SecValue.string(key) {
            case SecKeyKeyExchangeParameter.requestedSize.name?:
                guard case .integer(let number) = SecValue.integer(value) else {
                    throw SecKeyFailure(errSecParam, "kSecKeyKeyExchangeParameterRequestedSize must be a number.")
                }
                size = Int(clamping: number)
            case SecKeyKeyExchangeParameter.sharedInfo.name?:
                guard let bytes = SecValue.data(value) else {
                    throw SecKeyFailure(errSecParam, "ECDHKeyExchange wrong sharedInfo type (must be CFData/NSData).")
                }
                info = bytes
            default:
                continue
            }
        }
        guard let size else { throw SecKeyFailure(errSecParam, "kSecKeyKeyExchangeParameterRequestedSize is missing.") }
        guard (1...X963KDF.maximumByteCount).contains(size) else {
            throw SecKeyFailure(
                errSecParam,
                "kSecKeyKeyExchangeParameterRequestedSize must be 1 to \(X963KDF.maximumByteCount) bytes, not \(size).")
        }
        requestedSize = size
        sharedInfo = info
    }
}

extension SecKey {
    /// The raw ECDH shared secret of this private key and `peer` (X9.63 public key): here for a
    /// software key, inside the keychain for a keychain-generated one.
    func sharedSecret(withPeer peer: Data) throws(SecKeyFailure) -> Data {
        try withPrivateKey(
            "perform a key exchange",
            software: { (material) throws(KeychainError) in try material.sharedSecret(withPeerX963: peer) },
            token: { (keychain, reference) throws(KeychainError) in
                try keychain.keyAgreementWithTokenKey(reference, peerPublicKey: peer, authentication: authentication)
            })
    }
}
#endif
