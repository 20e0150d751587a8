#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// The public key of a key pair.
///
/// - Returns: a new public key for a private key (software or keychain-generated), the key
///   itself for a public key. Never `nil` on this platform (every key has its public key).
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    key.publicHalf
}

/// The key's external representation: X9.63 `04 ‖ X ‖ Y` for an EC public key,
/// `04 ‖ X ‖ Y ‖ K` for a software EC private key, DER `RSAPublicKey` / `RSAPrivateKey`
/// (PKCS#1) for RSA keys — the forms ``SecKeyCreateWithData(_:_:_:)`` and Apple's platforms read.
///
/// - Returns: the bytes, or `nil` with `error` set to `errSecUnimplemented` (-4) for a key
///   generated inside the keychain: like a Secure Enclave key its private key cannot be
///   exported (export its public key instead).
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> CFData?
{
    SecKeyCall.run("SecKeyCopyExternalRepresentation", error) { () throws(SecKeyFailure) -> CFData in
        switch key.kind {
        case .publicKey:
            return NSData(data: key.publicKeyX963)
        case .softwarePrivate(let material):
            do { return NSData(data: try material.x963Representation()) } catch {
                throw SecKeyFailure(errSecDecode, "The private key is not a valid EC key.")
            }
        case .tokenPrivate:
            throw SecKeyFailure(
                errSecUnimplemented,
                "The private key was generated inside the keychain (kSecAttrTokenIDSecureEnclave) and cannot be exported; export its public key (SecKeyCopyPublicKey) instead."
            )
        case .rsaPrivate(let material):
            return NSData(data: material.pkcs1)
        case .rsaPublic(let material):
            return NSData(data: material.pkcs1)
        }
    }
}

/// Makes a key from its external representation.
///
/// `attributes` needs `kSecAttrKeyType` and `kSecAttrKeyClass`: for
/// `kSecAttrKeyTypeECSECPrimeRandom`, `kSecAttrKeyClassPublic` with `04 ‖ X ‖ Y` or
/// `kSecAttrKeyClassPrivate` with `04 ‖ X ‖ Y ‖ K`; for `kSecAttrKeyTypeRSA`, a DER
/// `RSAPublicKey` or `RSAPrivateKey` (PKCS#1) of 1024 to 8192 bits. As on Apple platforms
/// `kSecAttrKeySizeInBits` is not read: the data says the size. The key is not stored; add it
/// with `SecItemAdd` and `kSecValueRef`.
///
/// - Returns: the key, or `nil` with `error` set: `errSecParam` (-50) for a missing or unknown
///   type or class, `kSecAttrTokenID` (keys cannot be imported into the token), and — as Apple's
///   "EC/RSA public/private key creation from data failed" — data that is not such a key (wrong
///   length, a point not on the curve, a private scalar that does not belong to the public key,
///   malformed or inconsistent PKCS#1, an RSA modulus over 8192 bits); `errSecUnimplemented`
///   (-4) for symmetric and other key types, and RSA keys this platform cannot use (under 1024
///   bits or not in whole bytes).
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    SecKeyCall.run("SecKeyCreateWithData", error) { () throws(SecKeyFailure) -> SecKey in
        var values: [String: Any] = [:]
        for (key, value) in attributes {
            if let name = SecValue.string(key) { values[name] = value }
        }
        guard let type = values["type"].flatMap(SecKeyParameters.number) else {
            throw SecKeyFailure(
                errSecParam, "kSecAttrKeyType is missing; use kSecAttrKeyTypeECSECPrimeRandom or kSecAttrKeyTypeRSA.")
        }
        guard type == TokenKeys.ecKeyType || type == RSAPublicKeyMaterial.keyType else {
            if (105...111).contains(type) {
                throw SecKeyFailure(
                    errSecUnimplemented,
                    "Keys of type \(type) are not available on this platform; only kSecAttrKeyTypeECSECPrimeRandom and kSecAttrKeyTypeRSA keys are."
                )
            }
            throw SecKeyFailure(
                errSecParam,
                "kSecAttrKeyType \(type) is not a key type; use kSecAttrKeyTypeECSECPrimeRandom or kSecAttrKeyTypeRSA.")
        }
        guard let keyClass = values["kcls"].flatMap(SecKeyParameters.number) else {
            throw SecKeyFailure(
                errSecParam, "kSecAttrKeyClass is missing; use kSecAttrKeyClassPublic or kSecAttrKeyClassPrivate.")
        }
        guard keyClass == 0 || keyClass == 1 else {
            if keyClass == 2 {
                throw SecKeyFailure(
                    errSecUnimplemented, "Symmetric keys (kSecAttrKeyClassSymmetric) are not SecKeys on this platform.")
            }
            throw SecKeyFailure(
                errSecParam, "kSecAttrKeyClass must be kSecAttrKeyClassPublic or kSecAttrKeyClassPrivate.")
        }
        if values["tkid"] != nil {
            throw SecKeyFailure(
                errSecParam,
                "Existing key material cannot be imported into the token (kSecAttrTokenID); generate the key with SecKeyCreateRandomKey instead."
            )
        }
        let data = Data(referencing: keyData)
        if type == RSAPublicKeyMaterial.keyType {
            return keyClass == 1
                ? .rsaPrivate(try RSAPrivateKeyMaterial(pkcs1: data))
                : .rsaPublic(try RSAPublicKeyMaterial(pkcs1: data))
        }
        let half = keyClass == 1 ? "private" : "public"
        guard let curve = EllipticCurve.of(x963ByteCount: data.count, isPrivate: keyClass == 1) else {
            let form = keyClass == 1 ? "04 ‖ X ‖ Y ‖ K" : "04 ‖ X ‖ Y"
            throw SecKeyFailure(
                errSecParam,
                "EC \(half) key creation from data failed: the data (\(data.count) bytes) is not an X9.63 key (\(form)) on P-256, P-384 or P-521."
            )
        }
        do throws(SecKeyFailure) {
            return try SecKey.decode(data, curve: curve, isPrivate: keyClass == 1)
        } catch {
            throw SecKeyFailure(errSecParam, "EC \(half) key creation from data failed: \(error.message)")
        }
    }
}
#endif
