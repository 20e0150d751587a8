#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// An algorithm for the SecKey functions (`SecKeyCreateSignature`, `SecKeyCreateEncryptedData`,
/// `SecKeyCopyKeyExchangeResult`, …), named by Apple's raw string.
///
/// As on Apple platforms each algorithm is a static member (`.ecdsaSignatureMessageX962SHA256`)
/// and a global constant (`kSecKeyAlgorithmECDSASignatureMessageX962SHA256`). Which of them a key
/// can perform is answered by ``SecKeyIsAlgorithmSupported(_:_:_:)``: elliptic-curve keys perform
/// the ECDSA, ECDH and ECIES algorithms, SHA-224 variants included; RSA keys perform the RSA
/// ones — PKCS#1 v1.5 and PSS signatures (digest, message and raw forms), raw, PKCS#1 v1.5 and
/// OAEP encryption and the OAEP-wrapped AES-GCM variants — within Apple's limits on the modulus
/// size (PSS and OAEP with SHA-512 need more than 1024 bits).
public struct SecKeyAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw string, for example `"algid:sign:ECDSA:message-X962:SHA256"`.
    let name: String

    /// Creates an algorithm from its raw string.
    public init(rawValue: CFString) { name = String(rawValue) }

    /// Creates an algorithm from its raw string.
    public init(_ rawValue: CFString) { name = String(rawValue) }

    /// The raw string.
    public var rawValue: CFString { NSString(string: name) }

    /// The raw string.
    public var description: String { name }
}

/// The operations ``SecKeyIsAlgorithmSupported(_:_:_:)`` asks about, with Apple's values.
public enum SecKeyOperationType: Int, Sendable, Hashable {
    /// Creating a signature (0): private keys.
    case sign = 0
    /// Verifying a signature (1): public keys.
    case verify = 1
    /// Encrypting (2): public keys.
    case encrypt = 2
    /// Decrypting (3): private keys.
    case decrypt = 3
    /// Key exchange (4): private keys.
    case keyExchange = 4
}

/// A key of the `parameters` dictionary of ``SecKeyCopyKeyExchangeResult(_:_:_:_:_:)``.
public struct SecKeyKeyExchangeParameter: RawRepresentable, Hashable, Sendable {
    /// The raw string.
    let name: String

    /// Creates a parameter name from its raw string.
    public init(rawValue: CFString) { name = String(rawValue) }

    /// Creates a parameter name from its raw string.
    public init(_ rawValue: CFString) { name = String(rawValue) }

    /// The raw string.
    public var rawValue: CFString { NSString(string: name) }

    /// How many bytes the KDF of an `…X963SHA…` key exchange produces (`"requestedSize"`, a
    /// number); required by those algorithms.
    public static let requestedSize = SecKeyKeyExchangeParameter("requestedSize")
    /// The X9.63 KDF's SharedInfo (`"sharedInfo"`, data); optional.
    public static let sharedInfo = SecKeyKeyExchangeParameter("sharedInfo")
}

/// `kSecKeyKeyExchangeParameterRequestedSize` (`"requestedSize"`): see ``SecKeyKeyExchangeParameter/requestedSize``.
public let kSecKeyKeyExchangeParameterRequestedSize = SecKeyKeyExchangeParameter.requestedSize
/// `kSecKeyKeyExchangeParameterSharedInfo` (`"sharedInfo"`): see ``SecKeyKeyExchangeParameter/sharedInfo``.
public let kSecKeyKeyExchangeParameterSharedInfo = SecKeyKeyExchangeParameter.sharedInfo

// Raw strings as Apple's Security framework defines them (SecKeyAdaptors.m in Apple's open
// source; the RFC 4754 digest/message names of iOS 17 as its binaries print them).

extension SecKeyAlgorithm {
    /// `"algid:sign:RSA:raw"`: raw RSA signature, the private operation on a number below the modulus (RSA).
    public static let rsaSignatureRaw = SecKeyAlgorithm("algid:sign:RSA:raw")
    /// `"algid:sign:RSA:digest-PKCS1v15"`: PKCS#1 v1.5 signature of a digest without a DigestInfo (RSA).
    public static let rsaSignatureDigestPKCS1v15Raw = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15")
    /// `"algid:sign:RSA:digest-PKCS1v15:SHA1"`: PKCS#1 v1.5 signature of a SHA1 digest (RSA).
    public static let rsaSignatureDigestPKCS1v15SHA1 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA1")
    /// `"algid:sign:RSA:digest-PKCS1v15:SHA224"`: PKCS#1 v1.5 signature of a SHA224 digest (RSA).
    public static let rsaSignatureDigestPKCS1v15SHA224 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA224")
    /// `"algid:sign:RSA:digest-PKCS1v15:SHA256"`: PKCS#1 v1.5 signature of a SHA256 digest (RSA).
    public static let rsaSignatureDigestPKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA256")
    /// `"algid:sign:RSA:digest-PKCS1v15:SHA384"`: PKCS#1 v1.5 signature of a SHA384 digest (RSA).
    public static let rsaSignatureDigestPKCS1v15SHA384 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA384")
    /// `"algid:sign:RSA:digest-PKCS1v15:SHA512"`: PKCS#1 v1.5 signature of a SHA512 digest (RSA).
    public static let rsaSignatureDigestPKCS1v15SHA512 = SecKeyAlgorithm("algid:sign:RSA:digest-PKCS1v15:SHA512")
    /// `"algid:sign:RSA:message-PKCS1v15:SHA1"`: PKCS#1 v1.5 signature of a message hashed with SHA1 (RSA).
    public static let rsaSignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA1")
    /// `"algid:sign:RSA:message-PKCS1v15:SHA224"`: PKCS#1 v1.5 signature of a message hashed with SHA224 (RSA).
    public static let rsaSignatureMessagePKCS1v15SHA224 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA224")
    /// `"algid:sign:RSA:message-PKCS1v15:SHA256"`: PKCS#1 v1.5 signature of a message hashed with SHA256 (RSA).
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA256")
    /// `"algid:sign:RSA:message-PKCS1v15:SHA384"`: PKCS#1 v1.5 signature of a message hashed with SHA384 (RSA).
    public static let rsaSignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA384")
    /// `"algid:sign:RSA:message-PKCS1v15:SHA512"`: PKCS#1 v1.5 signature of a message hashed with SHA512 (RSA).
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA512")
    /// `"algid:sign:RSA:digest-PSS:SHA1:SHA1:20"`: RSASSA-PSS signature of a SHA1 digest (RSA).
    public static let rsaSignatureDigestPSSSHA1 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA1:SHA1:20")
    /// `"algid:sign:RSA:digest-PSS:SHA224:SHA224:24"`: RSASSA-PSS signature of a SHA224 digest (RSA).
    public static let rsaSignatureDigestPSSSHA224 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA224:SHA224:24")
    /// `"algid:sign:RSA:digest-PSS:SHA256:SHA256:32"`: RSASSA-PSS signature of a SHA256 digest (RSA).
    public static let rsaSignatureDigestPSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA256:SHA256:32")
    /// `"algid:sign:RSA:digest-PSS:SHA384:SHA384:48"`: RSASSA-PSS signature of a SHA384 digest (RSA).
    public static let rsaSignatureDigestPSSSHA384 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA384:SHA384:48")
    /// `"algid:sign:RSA:digest-PSS:SHA512:SHA512:64"`: RSASSA-PSS signature of a SHA512 digest (RSA).
    public static let rsaSignatureDigestPSSSHA512 = SecKeyAlgorithm("algid:sign:RSA:digest-PSS:SHA512:SHA512:64")
    /// `"algid:sign:RSA:message-PSS:SHA1:SHA1:20"`: RSASSA-PSS signature of a message hashed with SHA1 (RSA).
    public static let rsaSignatureMessagePSSSHA1 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA1:SHA1:20")
    /// `"algid:sign:RSA:message-PSS:SHA224:SHA224:24"`: RSASSA-PSS signature of a message hashed with SHA224 (RSA).
    public static let rsaSignatureMessagePSSSHA224 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA224:SHA224:24")
    /// `"algid:sign:RSA:message-PSS:SHA256:SHA256:32"`: RSASSA-PSS signature of a message hashed with SHA256 (RSA).
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA256:SHA256:32")
    /// `"algid:sign:RSA:message-PSS:SHA384:SHA384:48"`: RSASSA-PSS signature of a message hashed with SHA384 (RSA).
    public static let rsaSignatureMessagePSSSHA384 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA384:SHA384:48")
    /// `"algid:sign:RSA:message-PSS:SHA512:SHA512:64"`: RSASSA-PSS signature of a message hashed with SHA512 (RSA).
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA512:SHA512:64")
    /// `"algid:encrypt:RSA:raw"`: raw RSA encryption (RSA).
    public static let rsaEncryptionRaw = SecKeyAlgorithm("algid:encrypt:RSA:raw")
    /// `"algid:encrypt:RSA:PKCS1"`: PKCS#1 v1.5 encryption (RSA).
    public static let rsaEncryptionPKCS1 = SecKeyAlgorithm("algid:encrypt:RSA:PKCS1")
    /// `"algid:encrypt:RSA:OAEP:SHA1"`: RSA-OAEP encryption with SHA1 (RSA).
    public static let rsaEncryptionOAEPSHA1 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA1")
    /// `"algid:encrypt:RSA:OAEP:SHA224"`: RSA-OAEP encryption with SHA224 (RSA).
    public static let rsaEncryptionOAEPSHA224 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA224")
    /// `"algid:encrypt:RSA:OAEP:SHA256"`: RSA-OAEP encryption with SHA256 (RSA).
    public static let rsaEncryptionOAEPSHA256 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA256")
    /// `"algid:encrypt:RSA:OAEP:SHA384"`: RSA-OAEP encryption with SHA384 (RSA).
    public static let rsaEncryptionOAEPSHA384 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA384")
    /// `"algid:encrypt:RSA:OAEP:SHA512"`: RSA-OAEP encryption with SHA512 (RSA).
    public static let rsaEncryptionOAEPSHA512 = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA512")
    /// `"algid:encrypt:RSA:OAEP:SHA1:AESGCM"`: RSA-OAEP with SHA1 wrapping an AES-GCM key (RSA).
    public static let rsaEncryptionOAEPSHA1AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA1:AESGCM")
    /// `"algid:encrypt:RSA:OAEP:SHA224:AESGCM"`: RSA-OAEP with SHA224 wrapping an AES-GCM key (RSA).
    public static let rsaEncryptionOAEPSHA224AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA224:AESGCM")
    /// `"algid:encrypt:RSA:OAEP:SHA256:AESGCM"`: RSA-OAEP with SHA256 wrapping an AES-GCM key (RSA).
    public static let rsaEncryptionOAEPSHA256AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA256:AESGCM")
    /// `"algid:encrypt:RSA:OAEP:SHA384:AESGCM"`: RSA-OAEP with SHA384 wrapping an AES-GCM key (RSA).
    public static let rsaEncryptionOAEPSHA384AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA384:AESGCM")
    /// `"algid:encrypt:RSA:OAEP:SHA512:AESGCM"`: RSA-OAEP with SHA512 wrapping an AES-GCM key (RSA).
    public static let rsaEncryptionOAEPSHA512AESGCM = SecKeyAlgorithm("algid:encrypt:RSA:OAEP:SHA512:AESGCM")
    /// `"algid:sign:ECDSA:RFC4754"`: ECDSA signature of a digest of any size, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureRFC4754 = SecKeyAlgorithm("algid:sign:ECDSA:RFC4754")
    /// `"algid:sign:ECDSA:digest-X962"`: ECDSA signature of a digest of any size, DER-encoded (X9.62).
    public static let ecdsaSignatureDigestX962 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962")
    /// `"algid:sign:ECDSA:digest-X962:SHA1"`: ECDSA signature of a SHA1 digest, DER-encoded (X9.62).
    public static let ecdsaSignatureDigestX962SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA1")
    /// `"algid:sign:ECDSA:digest-X962:SHA224"`: ECDSA signature of a SHA224 digest, DER-encoded (X9.62).
    public static let ecdsaSignatureDigestX962SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA224")
    /// `"algid:sign:ECDSA:digest-X962:SHA256"`: ECDSA signature of a SHA256 digest, DER-encoded (X9.62).
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA256")
    /// `"algid:sign:ECDSA:digest-X962:SHA384"`: ECDSA signature of a SHA384 digest, DER-encoded (X9.62).
    public static let ecdsaSignatureDigestX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA384")
    /// `"algid:sign:ECDSA:digest-X962:SHA512"`: ECDSA signature of a SHA512 digest, DER-encoded (X9.62).
    public static let ecdsaSignatureDigestX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:digest-X962:SHA512")
    /// `"algid:sign:ECDSA:message-X962:SHA1"`: ECDSA signature of a message hashed with SHA1, DER-encoded (X9.62).
    public static let ecdsaSignatureMessageX962SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA1")
    /// `"algid:sign:ECDSA:message-X962:SHA224"`: ECDSA signature of a message hashed with SHA224, DER-encoded (X9.62).
    public static let ecdsaSignatureMessageX962SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA224")
    /// `"algid:sign:ECDSA:message-X962:SHA256"`: ECDSA signature of a message hashed with SHA256, DER-encoded (X9.62).
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA256")
    /// `"algid:sign:ECDSA:message-X962:SHA384"`: ECDSA signature of a message hashed with SHA384, DER-encoded (X9.62).
    public static let ecdsaSignatureMessageX962SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA384")
    /// `"algid:sign:ECDSA:message-X962:SHA512"`: ECDSA signature of a message hashed with SHA512, DER-encoded (X9.62).
    public static let ecdsaSignatureMessageX962SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:message-X962:SHA512")
    /// `"algid:sign:ECDSA:digest-RFC4754"`: ECDSA signature of a digest of any size, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754")
    /// `"algid:sign:ECDSA:digest-RFC4754:SHA1"`: ECDSA signature of a SHA1 digest, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA1")
    /// `"algid:sign:ECDSA:digest-RFC4754:SHA224"`: ECDSA signature of a SHA224 digest, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA224")
    /// `"algid:sign:ECDSA:digest-RFC4754:SHA256"`: ECDSA signature of a SHA256 digest, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA256")
    /// `"algid:sign:ECDSA:digest-RFC4754:SHA384"`: ECDSA signature of a SHA384 digest, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA384")
    /// `"algid:sign:ECDSA:digest-RFC4754:SHA512"`: ECDSA signature of a SHA512 digest, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:digest-RFC4754:SHA512")
    /// `"algid:sign:ECDSA:message-RFC4754:SHA1"`: ECDSA signature of a message hashed with SHA1, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA1 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA1")
    /// `"algid:sign:ECDSA:message-RFC4754:SHA224"`: ECDSA signature of a message hashed with SHA224, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA224 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA224")
    /// `"algid:sign:ECDSA:message-RFC4754:SHA256"`: ECDSA signature of a message hashed with SHA256, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA256 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA256")
    /// `"algid:sign:ECDSA:message-RFC4754:SHA384"`: ECDSA signature of a message hashed with SHA384, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA384 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA384")
    /// `"algid:sign:ECDSA:message-RFC4754:SHA512"`: ECDSA signature of a message hashed with SHA512, as raw r ‖ s (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA512 = SecKeyAlgorithm("algid:sign:ECDSA:message-RFC4754:SHA512")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA1, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionStandardX963SHA1AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA224, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionStandardX963SHA224AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA256, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionStandardX963SHA256AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA384, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionStandardX963SHA384AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA512, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionStandardX963SHA512AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA1, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionCofactorX963SHA1AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA224, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionCofactorX963SHA224AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA256, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionCofactorX963SHA256AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA384, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionCofactorX963SHA384AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA512, AES-GCM with an all-zero 16-byte IV.
    public static let eciesEncryptionCofactorX963SHA512AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA224 giving the AES key and the 16-byte IV, AES-GCM.
    public static let eciesEncryptionStandardVariableIVX963SHA224AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA256 giving the AES key and the 16-byte IV, AES-GCM.
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA384 giving the AES key and the 16-byte IV, AES-GCM.
    public static let eciesEncryptionStandardVariableIVX963SHA384AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV")
    /// `"algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV"`: ECIES: ECDH with an ephemeral key, X9.63 KDF with SHA512 giving the AES key and the 16-byte IV, AES-GCM.
    public static let eciesEncryptionStandardVariableIVX963SHA512AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA224 giving the AES key and the 16-byte IV, AES-GCM.
    public static let eciesEncryptionCofactorVariableIVX963SHA224AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA256 giving the AES key and the 16-byte IV, AES-GCM.
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA384 giving the AES key and the 16-byte IV, AES-GCM.
    public static let eciesEncryptionCofactorVariableIVX963SHA384AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV")
    /// `"algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV"`: ECIES: ECDHC with an ephemeral key, X9.63 KDF with SHA512 giving the AES key and the 16-byte IV, AES-GCM.
    public static let eciesEncryptionCofactorVariableIVX963SHA512AESGCM = SecKeyAlgorithm(
        "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV")
    /// `"algid:keyexchange:ECDH"`: ECDH key exchange giving the raw shared secret.
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm("algid:keyexchange:ECDH")
    /// `"algid:keyexchange:ECDH:KDFX963:SHA1"`: ECDH key exchange, the shared secret run through the X9.63 KDF with SHA1.
    public static let ecdhKeyExchangeStandardX963SHA1 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA1")
    /// `"algid:keyexchange:ECDH:KDFX963:SHA224"`: ECDH key exchange, the shared secret run through the X9.63 KDF with SHA224.
    public static let ecdhKeyExchangeStandardX963SHA224 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA224")
    /// `"algid:keyexchange:ECDH:KDFX963:SHA256"`: ECDH key exchange, the shared secret run through the X9.63 KDF with SHA256.
    public static let ecdhKeyExchangeStandardX963SHA256 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA256")
    /// `"algid:keyexchange:ECDH:KDFX963:SHA384"`: ECDH key exchange, the shared secret run through the X9.63 KDF with SHA384.
    public static let ecdhKeyExchangeStandardX963SHA384 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA384")
    /// `"algid:keyexchange:ECDH:KDFX963:SHA512"`: ECDH key exchange, the shared secret run through the X9.63 KDF with SHA512.
    public static let ecdhKeyExchangeStandardX963SHA512 = SecKeyAlgorithm("algid:keyexchange:ECDH:KDFX963:SHA512")
    /// `"algid:keyexchange:ECDHC"`: ECDHC key exchange giving the raw shared secret.
    public static let ecdhKeyExchangeCofactor = SecKeyAlgorithm("algid:keyexchange:ECDHC")
    /// `"algid:keyexchange:ECDHC:KDFX963:SHA1"`: ECDHC key exchange, the shared secret run through the X9.63 KDF with SHA1.
    public static let ecdhKeyExchangeCofactorX963SHA1 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA1")
    /// `"algid:keyexchange:ECDHC:KDFX963:SHA224"`: ECDHC key exchange, the shared secret run through the X9.63 KDF with SHA224.
    public static let ecdhKeyExchangeCofactorX963SHA224 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA224")
    /// `"algid:keyexchange:ECDHC:KDFX963:SHA256"`: ECDHC key exchange, the shared secret run through the X9.63 KDF with SHA256.
    public static let ecdhKeyExchangeCofactorX963SHA256 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA256")
    /// `"algid:keyexchange:ECDHC:KDFX963:SHA384"`: ECDHC key exchange, the shared secret run through the X9.63 KDF with SHA384.
    public static let ecdhKeyExchangeCofactorX963SHA384 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA384")
    /// `"algid:keyexchange:ECDHC:KDFX963:SHA512"`: ECDHC key exchange, the shared secret run through the X9.63 KDF with SHA512.
    public static let ecdhKeyExchangeCofactorX963SHA512 = SecKeyAlgorithm("algid:keyexchange:ECDHC:KDFX963:SHA512")
}

/// `kSecKeyAlgorithmRSASignatureRaw`: ``SecKeyAlgorithm/rsaSignatureRaw`` (`"algid:sign:RSA:raw"`).
public let kSecKeyAlgorithmRSASignatureRaw = SecKeyAlgorithm.rsaSignatureRaw
/// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15Raw`: ``SecKeyAlgorithm/rsaSignatureDigestPKCS1v15Raw`` (`"algid:sign:RSA:digest-PKCS1v15"`).
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15Raw = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15Raw
/// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA1`: ``SecKeyAlgorithm/rsaSignatureDigestPKCS1v15SHA1`` (`"algid:sign:RSA:digest-PKCS1v15:SHA1"`).
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA1 = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA1
/// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA224`: ``SecKeyAlgorithm/rsaSignatureDigestPKCS1v15SHA224`` (`"algid:sign:RSA:digest-PKCS1v15:SHA224"`).
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA224 = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA224
/// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA256`: ``SecKeyAlgorithm/rsaSignatureDigestPKCS1v15SHA256`` (`"algid:sign:RSA:digest-PKCS1v15:SHA256"`).
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA256 = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA256
/// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA384`: ``SecKeyAlgorithm/rsaSignatureDigestPKCS1v15SHA384`` (`"algid:sign:RSA:digest-PKCS1v15:SHA384"`).
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA384 = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA384
/// `kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA512`: ``SecKeyAlgorithm/rsaSignatureDigestPKCS1v15SHA512`` (`"algid:sign:RSA:digest-PKCS1v15:SHA512"`).
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA512 = SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA512
/// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA1`: ``SecKeyAlgorithm/rsaSignatureMessagePKCS1v15SHA1`` (`"algid:sign:RSA:message-PKCS1v15:SHA1"`).
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA1
/// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA224`: ``SecKeyAlgorithm/rsaSignatureMessagePKCS1v15SHA224`` (`"algid:sign:RSA:message-PKCS1v15:SHA224"`).
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA224 = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA224
/// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA256`: ``SecKeyAlgorithm/rsaSignatureMessagePKCS1v15SHA256`` (`"algid:sign:RSA:message-PKCS1v15:SHA256"`).
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256
/// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA384`: ``SecKeyAlgorithm/rsaSignatureMessagePKCS1v15SHA384`` (`"algid:sign:RSA:message-PKCS1v15:SHA384"`).
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA384
/// `kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA512`: ``SecKeyAlgorithm/rsaSignatureMessagePKCS1v15SHA512`` (`"algid:sign:RSA:message-PKCS1v15:SHA512"`).
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA512
/// `kSecKeyAlgorithmRSASignatureDigestPSSSHA1`: ``SecKeyAlgorithm/rsaSignatureDigestPSSSHA1`` (`"algid:sign:RSA:digest-PSS:SHA1:SHA1:20"`).
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA1 = SecKeyAlgorithm.rsaSignatureDigestPSSSHA1
/// `kSecKeyAlgorithmRSASignatureDigestPSSSHA224`: ``SecKeyAlgorithm/rsaSignatureDigestPSSSHA224`` (`"algid:sign:RSA:digest-PSS:SHA224:SHA224:24"`).
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA224 = SecKeyAlgorithm.rsaSignatureDigestPSSSHA224
/// `kSecKeyAlgorithmRSASignatureDigestPSSSHA256`: ``SecKeyAlgorithm/rsaSignatureDigestPSSSHA256`` (`"algid:sign:RSA:digest-PSS:SHA256:SHA256:32"`).
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA256 = SecKeyAlgorithm.rsaSignatureDigestPSSSHA256
/// `kSecKeyAlgorithmRSASignatureDigestPSSSHA384`: ``SecKeyAlgorithm/rsaSignatureDigestPSSSHA384`` (`"algid:sign:RSA:digest-PSS:SHA384:SHA384:48"`).
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA384 = SecKeyAlgorithm.rsaSignatureDigestPSSSHA384
/// `kSecKeyAlgorithmRSASignatureDigestPSSSHA512`: ``SecKeyAlgorithm/rsaSignatureDigestPSSSHA512`` (`"algid:sign:RSA:digest-PSS:SHA512:SHA512:64"`).
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA512 = SecKeyAlgorithm.rsaSignatureDigestPSSSHA512
/// `kSecKeyAlgorithmRSASignatureMessagePSSSHA1`: ``SecKeyAlgorithm/rsaSignatureMessagePSSSHA1`` (`"algid:sign:RSA:message-PSS:SHA1:SHA1:20"`).
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA1 = SecKeyAlgorithm.rsaSignatureMessagePSSSHA1
/// `kSecKeyAlgorithmRSASignatureMessagePSSSHA224`: ``SecKeyAlgorithm/rsaSignatureMessagePSSSHA224`` (`"algid:sign:RSA:message-PSS:SHA224:SHA224:24"`).
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA224 = SecKeyAlgorithm.rsaSignatureMessagePSSSHA224
/// `kSecKeyAlgorithmRSASignatureMessagePSSSHA256`: ``SecKeyAlgorithm/rsaSignatureMessagePSSSHA256`` (`"algid:sign:RSA:message-PSS:SHA256:SHA256:32"`).
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA256 = SecKeyAlgorithm.rsaSignatureMessagePSSSHA256
/// `kSecKeyAlgorithmRSASignatureMessagePSSSHA384`: ``SecKeyAlgorithm/rsaSignatureMessagePSSSHA384`` (`"algid:sign:RSA:message-PSS:SHA384:SHA384:48"`).
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA384 = SecKeyAlgorithm.rsaSignatureMessagePSSSHA384
/// `kSecKeyAlgorithmRSASignatureMessagePSSSHA512`: ``SecKeyAlgorithm/rsaSignatureMessagePSSSHA512`` (`"algid:sign:RSA:message-PSS:SHA512:SHA512:64"`).
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA512 = SecKeyAlgorithm.rsaSignatureMessagePSSSHA512
/// `kSecKeyAlgorithmRSAEncryptionRaw`: ``SecKeyAlgorithm/rsaEncryptionRaw`` (`"algid:encrypt:RSA:raw"`).
public let kSecKeyAlgorithmRSAEncryptionRaw = SecKeyAlgorithm.rsaEncryptionRaw
/// `kSecKeyAlgorithmRSAEncryptionPKCS1`: ``SecKeyAlgorithm/rsaEncryptionPKCS1`` (`"algid:encrypt:RSA:PKCS1"`).
public let kSecKeyAlgorithmRSAEncryptionPKCS1 = SecKeyAlgorithm.rsaEncryptionPKCS1
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA1`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA1`` (`"algid:encrypt:RSA:OAEP:SHA1"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA1 = SecKeyAlgorithm.rsaEncryptionOAEPSHA1
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA224`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA224`` (`"algid:encrypt:RSA:OAEP:SHA224"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA224 = SecKeyAlgorithm.rsaEncryptionOAEPSHA224
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA256`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA256`` (`"algid:encrypt:RSA:OAEP:SHA256"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA256 = SecKeyAlgorithm.rsaEncryptionOAEPSHA256
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA384`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA384`` (`"algid:encrypt:RSA:OAEP:SHA384"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA384 = SecKeyAlgorithm.rsaEncryptionOAEPSHA384
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA512`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA512`` (`"algid:encrypt:RSA:OAEP:SHA512"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA512 = SecKeyAlgorithm.rsaEncryptionOAEPSHA512
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA1AESGCM`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA1AESGCM`` (`"algid:encrypt:RSA:OAEP:SHA1:AESGCM"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA1AESGCM = SecKeyAlgorithm.rsaEncryptionOAEPSHA1AESGCM
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA224AESGCM`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA224AESGCM`` (`"algid:encrypt:RSA:OAEP:SHA224:AESGCM"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA224AESGCM = SecKeyAlgorithm.rsaEncryptionOAEPSHA224AESGCM
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA256AESGCM`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA256AESGCM`` (`"algid:encrypt:RSA:OAEP:SHA256:AESGCM"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA256AESGCM = SecKeyAlgorithm.rsaEncryptionOAEPSHA256AESGCM
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA384AESGCM`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA384AESGCM`` (`"algid:encrypt:RSA:OAEP:SHA384:AESGCM"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA384AESGCM = SecKeyAlgorithm.rsaEncryptionOAEPSHA384AESGCM
/// `kSecKeyAlgorithmRSAEncryptionOAEPSHA512AESGCM`: ``SecKeyAlgorithm/rsaEncryptionOAEPSHA512AESGCM`` (`"algid:encrypt:RSA:OAEP:SHA512:AESGCM"`).
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA512AESGCM = SecKeyAlgorithm.rsaEncryptionOAEPSHA512AESGCM
/// `kSecKeyAlgorithmECDSASignatureRFC4754`: ``SecKeyAlgorithm/ecdsaSignatureRFC4754`` (`"algid:sign:ECDSA:RFC4754"`).
public let kSecKeyAlgorithmECDSASignatureRFC4754 = SecKeyAlgorithm.ecdsaSignatureRFC4754
/// `kSecKeyAlgorithmECDSASignatureDigestX962`: ``SecKeyAlgorithm/ecdsaSignatureDigestX962`` (`"algid:sign:ECDSA:digest-X962"`).
public let kSecKeyAlgorithmECDSASignatureDigestX962 = SecKeyAlgorithm.ecdsaSignatureDigestX962
/// `kSecKeyAlgorithmECDSASignatureDigestX962SHA1`: ``SecKeyAlgorithm/ecdsaSignatureDigestX962SHA1`` (`"algid:sign:ECDSA:digest-X962:SHA1"`).
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA1 = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA1
/// `kSecKeyAlgorithmECDSASignatureDigestX962SHA224`: ``SecKeyAlgorithm/ecdsaSignatureDigestX962SHA224`` (`"algid:sign:ECDSA:digest-X962:SHA224"`).
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA224 = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA224
/// `kSecKeyAlgorithmECDSASignatureDigestX962SHA256`: ``SecKeyAlgorithm/ecdsaSignatureDigestX962SHA256`` (`"algid:sign:ECDSA:digest-X962:SHA256"`).
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA256 = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA256
/// `kSecKeyAlgorithmECDSASignatureDigestX962SHA384`: ``SecKeyAlgorithm/ecdsaSignatureDigestX962SHA384`` (`"algid:sign:ECDSA:digest-X962:SHA384"`).
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA384 = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA384
/// `kSecKeyAlgorithmECDSASignatureDigestX962SHA512`: ``SecKeyAlgorithm/ecdsaSignatureDigestX962SHA512`` (`"algid:sign:ECDSA:digest-X962:SHA512"`).
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA512 = SecKeyAlgorithm.ecdsaSignatureDigestX962SHA512
/// `kSecKeyAlgorithmECDSASignatureMessageX962SHA1`: ``SecKeyAlgorithm/ecdsaSignatureMessageX962SHA1`` (`"algid:sign:ECDSA:message-X962:SHA1"`).
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA1 = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA1
/// `kSecKeyAlgorithmECDSASignatureMessageX962SHA224`: ``SecKeyAlgorithm/ecdsaSignatureMessageX962SHA224`` (`"algid:sign:ECDSA:message-X962:SHA224"`).
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA224 = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA224
/// `kSecKeyAlgorithmECDSASignatureMessageX962SHA256`: ``SecKeyAlgorithm/ecdsaSignatureMessageX962SHA256`` (`"algid:sign:ECDSA:message-X962:SHA256"`).
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA256 = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256
/// `kSecKeyAlgorithmECDSASignatureMessageX962SHA384`: ``SecKeyAlgorithm/ecdsaSignatureMessageX962SHA384`` (`"algid:sign:ECDSA:message-X962:SHA384"`).
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA384 = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA384
/// `kSecKeyAlgorithmECDSASignatureMessageX962SHA512`: ``SecKeyAlgorithm/ecdsaSignatureMessageX962SHA512`` (`"algid:sign:ECDSA:message-X962:SHA512"`).
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA512 = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA512
/// `kSecKeyAlgorithmECDSASignatureDigestRFC4754`: ``SecKeyAlgorithm/ecdsaSignatureDigestRFC4754`` (`"algid:sign:ECDSA:digest-RFC4754"`).
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754 = SecKeyAlgorithm.ecdsaSignatureDigestRFC4754
/// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA1`: ``SecKeyAlgorithm/ecdsaSignatureDigestRFC4754SHA1`` (`"algid:sign:ECDSA:digest-RFC4754:SHA1"`).
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA1 = SecKeyAlgorithm.ecdsaSignatureDigestRFC4754SHA1
/// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA224`: ``SecKeyAlgorithm/ecdsaSignatureDigestRFC4754SHA224`` (`"algid:sign:ECDSA:digest-RFC4754:SHA224"`).
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA224 = SecKeyAlgorithm.ecdsaSignatureDigestRFC4754SHA224
/// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA256`: ``SecKeyAlgorithm/ecdsaSignatureDigestRFC4754SHA256`` (`"algid:sign:ECDSA:digest-RFC4754:SHA256"`).
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA256 = SecKeyAlgorithm.ecdsaSignatureDigestRFC4754SHA256
/// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA384`: ``SecKeyAlgorithm/ecdsaSignatureDigestRFC4754SHA384`` (`"algid:sign:ECDSA:digest-RFC4754:SHA384"`).
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA384 = SecKeyAlgorithm.ecdsaSignatureDigestRFC4754SHA384
/// `kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA512`: ``SecKeyAlgorithm/ecdsaSignatureDigestRFC4754SHA512`` (`"algid:sign:ECDSA:digest-RFC4754:SHA512"`).
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA512 = SecKeyAlgorithm.ecdsaSignatureDigestRFC4754SHA512
/// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA1`: ``SecKeyAlgorithm/ecdsaSignatureMessageRFC4754SHA1`` (`"algid:sign:ECDSA:message-RFC4754:SHA1"`).
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA1 = SecKeyAlgorithm.ecdsaSignatureMessageRFC4754SHA1
/// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA224`: ``SecKeyAlgorithm/ecdsaSignatureMessageRFC4754SHA224`` (`"algid:sign:ECDSA:message-RFC4754:SHA224"`).
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA224 = SecKeyAlgorithm.ecdsaSignatureMessageRFC4754SHA224
/// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA256`: ``SecKeyAlgorithm/ecdsaSignatureMessageRFC4754SHA256`` (`"algid:sign:ECDSA:message-RFC4754:SHA256"`).
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA256 = SecKeyAlgorithm.ecdsaSignatureMessageRFC4754SHA256
/// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA384`: ``SecKeyAlgorithm/ecdsaSignatureMessageRFC4754SHA384`` (`"algid:sign:ECDSA:message-RFC4754:SHA384"`).
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA384 = SecKeyAlgorithm.ecdsaSignatureMessageRFC4754SHA384
/// `kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA512`: ``SecKeyAlgorithm/ecdsaSignatureMessageRFC4754SHA512`` (`"algid:sign:ECDSA:message-RFC4754:SHA512"`).
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA512 = SecKeyAlgorithm.ecdsaSignatureMessageRFC4754SHA512
/// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA1AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardX963SHA1AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA1AESGCM = SecKeyAlgorithm.eciesEncryptionStandardX963SHA1AESGCM
/// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA224AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardX963SHA224AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA224AESGCM = SecKeyAlgorithm
    .eciesEncryptionStandardX963SHA224AESGCM
/// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardX963SHA256AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM = SecKeyAlgorithm
    .eciesEncryptionStandardX963SHA256AESGCM
/// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA384AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardX963SHA384AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA384AESGCM = SecKeyAlgorithm
    .eciesEncryptionStandardX963SHA384AESGCM
/// `kSecKeyAlgorithmECIESEncryptionStandardX963SHA512AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardX963SHA512AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA512AESGCM = SecKeyAlgorithm
    .eciesEncryptionStandardX963SHA512AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA1AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorX963SHA1AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA1AESGCM = SecKeyAlgorithm.eciesEncryptionCofactorX963SHA1AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA224AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorX963SHA224AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA224AESGCM = SecKeyAlgorithm
    .eciesEncryptionCofactorX963SHA224AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA256AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorX963SHA256AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA256AESGCM = SecKeyAlgorithm
    .eciesEncryptionCofactorX963SHA256AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA384AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorX963SHA384AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA384AESGCM = SecKeyAlgorithm
    .eciesEncryptionCofactorX963SHA384AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorX963SHA512AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorX963SHA512AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA512AESGCM = SecKeyAlgorithm
    .eciesEncryptionCofactorX963SHA512AESGCM
/// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA224AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardVariableIVX963SHA224AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV"`).
public let kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA224AESGCM = SecKeyAlgorithm
    .eciesEncryptionStandardVariableIVX963SHA224AESGCM
/// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA256AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardVariableIVX963SHA256AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV"`).
public let kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA256AESGCM = SecKeyAlgorithm
    .eciesEncryptionStandardVariableIVX963SHA256AESGCM
/// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA384AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardVariableIVX963SHA384AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV"`).
public let kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA384AESGCM = SecKeyAlgorithm
    .eciesEncryptionStandardVariableIVX963SHA384AESGCM
/// `kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA512AESGCM`: ``SecKeyAlgorithm/eciesEncryptionStandardVariableIVX963SHA512AESGCM`` (`"algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV"`).
public let kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA512AESGCM = SecKeyAlgorithm
    .eciesEncryptionStandardVariableIVX963SHA512AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA224AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorVariableIVX963SHA224AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA224AESGCM = SecKeyAlgorithm
    .eciesEncryptionCofactorVariableIVX963SHA224AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorVariableIVX963SHA256AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm
    .eciesEncryptionCofactorVariableIVX963SHA256AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA384AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorVariableIVX963SHA384AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA384AESGCM = SecKeyAlgorithm
    .eciesEncryptionCofactorVariableIVX963SHA384AESGCM
/// `kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA512AESGCM`: ``SecKeyAlgorithm/eciesEncryptionCofactorVariableIVX963SHA512AESGCM`` (`"algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV"`).
public let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA512AESGCM = SecKeyAlgorithm
    .eciesEncryptionCofactorVariableIVX963SHA512AESGCM
/// `kSecKeyAlgorithmECDHKeyExchangeStandard`: ``SecKeyAlgorithm/ecdhKeyExchangeStandard`` (`"algid:keyexchange:ECDH"`).
public let kSecKeyAlgorithmECDHKeyExchangeStandard = SecKeyAlgorithm.ecdhKeyExchangeStandard
/// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA1`: ``SecKeyAlgorithm/ecdhKeyExchangeStandardX963SHA1`` (`"algid:keyexchange:ECDH:KDFX963:SHA1"`).
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA1 = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA1
/// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA224`: ``SecKeyAlgorithm/ecdhKeyExchangeStandardX963SHA224`` (`"algid:keyexchange:ECDH:KDFX963:SHA224"`).
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA224 = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA224
/// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA256`: ``SecKeyAlgorithm/ecdhKeyExchangeStandardX963SHA256`` (`"algid:keyexchange:ECDH:KDFX963:SHA256"`).
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA256 = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA256
/// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA384`: ``SecKeyAlgorithm/ecdhKeyExchangeStandardX963SHA384`` (`"algid:keyexchange:ECDH:KDFX963:SHA384"`).
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA384 = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA384
/// `kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA512`: ``SecKeyAlgorithm/ecdhKeyExchangeStandardX963SHA512`` (`"algid:keyexchange:ECDH:KDFX963:SHA512"`).
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA512 = SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA512
/// `kSecKeyAlgorithmECDHKeyExchangeCofactor`: ``SecKeyAlgorithm/ecdhKeyExchangeCofactor`` (`"algid:keyexchange:ECDHC"`).
public let kSecKeyAlgorithmECDHKeyExchangeCofactor = SecKeyAlgorithm.ecdhKeyExchangeCofactor
/// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA1`: ``SecKeyAlgorithm/ecdhKeyExchangeCofactorX963SHA1`` (`"algid:keyexchange:ECDHC:KDFX963:SHA1"`).
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA1 = SecKeyAlgorithm.ecdhKeyExchangeCofactorX963SHA1
/// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA224`: ``SecKeyAlgorithm/ecdhKeyExchangeCofactorX963SHA224`` (`"algid:keyexchange:ECDHC:KDFX963:SHA224"`).
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA224 = SecKeyAlgorithm.ecdhKeyExchangeCofactorX963SHA224
/// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA256`: ``SecKeyAlgorithm/ecdhKeyExchangeCofactorX963SHA256`` (`"algid:keyexchange:ECDHC:KDFX963:SHA256"`).
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA256 = SecKeyAlgorithm.ecdhKeyExchangeCofactorX963SHA256
/// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA384`: ``SecKeyAlgorithm/ecdhKeyExchangeCofactorX963SHA384`` (`"algid:keyexchange:ECDHC:KDFX963:SHA384"`).
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA384 = SecKeyAlgorithm.ecdhKeyExchangeCofactorX963SHA384
/// `kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA512`: ``SecKeyAlgorithm/ecdhKeyExchangeCofactorX963SHA512`` (`"algid:keyexchange:ECDHC:KDFX963:SHA512"`).
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA512 = SecKeyAlgorithm.ecdhKeyExchangeCofactorX963SHA512
#endif
