#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Signs data with a private key (ECDSA or RSA).
///
/// RSA keys sign with the `…PKCS1v15…`, `…PSS…` and `rsaSignatureRaw` algorithms: see
/// ``SecKeyAlgorithm``; the signature has the modulus size. The PKCS#1 v1.5 digest algorithms
/// take the digest at any length that fits (as Apple's do); the PSS ones need exactly the
/// hash's size.
///
/// The `…MessageX962SHA256/384/512` (and SHA-1) algorithms hash `dataToSign` first; the
/// `…DigestX962SHA…` ones take a digest of exactly that hash's size; `…DigestX962` takes a
/// digest of any size up to 64 bytes. X9.62 algorithms give a DER signature, the RFC 4754 ones
/// (`…MessageRFC4754SHA…`, `…DigestRFC4754…`) the raw `r ‖ s`. A key generated inside the
/// keychain signs there, after the authentication its access control asks for.
///
/// - Returns: the signature, or `nil` with `error` set: `errSecParam` (-50) when the key cannot
///   perform the algorithm (a public key, an algorithm of the other key type or unknown, PSS
///   on a modulus too small for the hash) or the digest has the wrong size; for RSA keys also
///   when the input does not fit the modulus; for keychain-generated keys
///   `errSecUserCanceled` (-128), `errSecAuthFailed` (-25293), `errSecInteractionNotAllowed`
///   (-25308) from authentication or a locked keychain, `errSecItemNotFound` (-25300) when the
///   key item was deleted.
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    SecKeyCall.run("SecKeyCreateSignature", error) { () throws(SecKeyFailure) -> CFData in
        if key.rsaPublicMaterial != nil {
            return NSData(data: try key.rsaSignature(algorithm, Data(referencing: dataToSign)))
        }
        let (input, format) = try SecKeySigning.signatureMeaning(key, algorithm, .sign)
        let digest = try SecKeySigning.digest(of: Data(referencing: dataToSign), input, algorithm)
        let signature = try key.signature(forDigest: digest)
        switch format {
        case .x962:
            return NSData(data: signature)
        case .rfc4754:
            guard let raw = key.curve.rawSignature(fromDER: signature) else {
                throw SecKeyFailure(errSecInternal, "The ECDSA signature could not be converted to r ‖ s.")
            }
            return NSData(data: raw)
        }
    }
}

/// Verifies a signature with a public key (ECDSA or RSA), for the same algorithms as
/// ``SecKeyCreateSignature(_:_:_:_:)``.
///
/// Unlike Apple's, an RSA *private* key refuses verification (`errSecParam`): Apple's applies
/// its raw private operation, which matches no genuine signature but matches a forgery built
/// from the public key.
///
/// - Returns: `true` when the signature is valid. `false` with `error` set otherwise:
///   `errSecVerifyFailed` (-67808) for a signature that does not match (or is malformed);
///   `errSecParam` (-50) when the key cannot perform the algorithm (an EC private key, an
///   algorithm of the other key type or unknown), an ECDSA digest has the wrong size, or an
///   RSA signature is longer than the modulus. An RSA digest of the wrong size does not match.
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    SecKeyCall.run("SecKeyVerifySignature", error) { () throws(SecKeyFailure) -> Bool in
        if key.rsaPublicMaterial != nil {
            try key.rsaVerify(algorithm, Data(referencing: signedData), Data(referencing: signature))
            return true
        }
        let (input, format) = try SecKeySigning.signatureMeaning(key, algorithm, .verify)
        let digest = try SecKeySigning.digest(of: Data(referencing: signedData), input, algorithm)
        let given = Data(referencing: signature)
        let der = format == .x962 ? given : key.curve.derSignature(fromRaw: given)
        guard let der, key.curve.isValidSignature(der, digest: digest, publicKey: key.publicKeyX963) else {
            throw SecKeyFailure(errSecVerifyFailed, "EC signature verification failed, no match.")
        }
        return true
    } ?? false
}

/// What signing and verification share.
enum SecKeySigning {
    /// The input and format of a signature algorithm the key can use for `operation`.
    static func signatureMeaning(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ operation: SecKeyOperationType)
        throws(SecKeyFailure) -> (SecKeyAlgorithmMeaning.SignatureInput, SecKeyAlgorithmMeaning.SignatureFormat)
    {
        guard case .signature(let input, let format) = try key.meaning(of: algorithm, for: operation) else {
            throw SecKeyFailure(errSecParam, "\(algorithm.name): algorithm not supported by the key \(key).")
        }
        return (input, format)
    }

    /// The digest to sign: the message's hash, or the caller's digest after a size check.
    static func digest(of data: Data, _ input: SecKeyAlgorithmMeaning.SignatureInput, _ algorithm: SecKeyAlgorithm)
        throws(SecKeyFailure) -> Data
    {
        switch input {
        case .message(let hash):
            return hash.digest(data)
        case .digest(let hash?):
            guard data.count == hash.byteCount else {
                throw SecKeyFailure(
                    errSecParam,
                    "Bad digest size for signing with algorithm \(algorithm.name): \(data.count) bytes, not \(hash.byteCount)."
                )
            }
            return data
        case .digest(nil):
            guard (1...64).contains(data.count) else {
                throw SecKeyFailure(
                    errSecParam, "A digest to sign with \(algorithm.name) has 1 to 64 bytes, not \(data.count).")
            }
            return data
        }
    }
}

extension SecKey {
    /// A DER (X9.62) ECDSA signature of `digest` by this private key: here for a software key,
    /// inside the keychain for a keychain-generated one.
    func signature(forDigest digest: Data) throws(SecKeyFailure) -> Data {
        try withPrivateKey(
            "sign",
            software: { (material) throws(KeychainError) in try material.signature(forDigest: digest) },
            token: { (keychain, reference) throws(KeychainError) in
                try keychain.signWithTokenKey(reference, digest: digest, authentication: authentication)
            })
    }

    /// Runs a private-key operation where the key lives: `software` with the material of a
    /// software key, `token` inside the keychain for a keychain-generated one. A public key
    /// "cannot `operation`" (`errSecParam`).
    func withPrivateKey(
        _ operation: String,
        software: (ECPrivateKeyMaterial) throws(KeychainError) -> Data,
        token: (Keychain, PersistentReference) throws(KeychainError) -> Data
    ) throws(SecKeyFailure) -> Data {
        switch kind {
        case .softwarePrivate(let material):
            return try SecKeyCall.engine { () throws(KeychainError) in try software(material) }
        case .tokenPrivate(let keychain):
            guard let reference = storedItem?.reference else {
                throw SecKeyFailure(errSecInvalidKeyRef, "The key has no key item.")
            }
            return try SecKeyCall.engine { () throws(KeychainError) in try token(keychain, reference) }
        case .publicKey:
            throw SecKeyFailure(errSecParam, "A public key cannot \(operation).")
        case .rsaPrivate, .rsaPublic:
            throw SecKeyFailure(errSecParam, "An RSA key cannot \(operation) with an elliptic-curve algorithm.")
        }
    }
}
#endif
