#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import XCTest

/// RSA keys for the tests: each size is generated at most once per test run (4096-bit keys
/// take a while), by `SecKeyCreateRandomKey` without storing them.
enum RSATestKeys {
    private static let cache = NSLock()
    nonisolated(unsafe) private static var keys: [Int: SecKey] = [:]

    /// A software RSA private key of `bits` bits, shared by the tests.
    static func privateKey(bits: Int) throws -> SecKey {
        cache.lock()
        defer { cache.unlock() }
        if let key = keys[bits] { return key }
        var error: Unmanaged<CFError>?
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits
        ]
        let key = try XCTUnwrap(
            SecKeyCreateRandomKey(parameters as CFDictionary, &error),
            "RSA \(bits): \(error.map { String(describing: $0.takeRetainedValue()) } ?? "")")
        keys[bits] = key
        return key
    }

    /// The key of ``RSAVectors``, imported.
    static func vectorKey() throws -> SecKey {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
        ]
        return try XCTUnwrap(SecKeyCreateWithData(RSAVectors.privateKey as CFData, attributes as CFDictionary, nil))
    }
}

extension SecItemTestCase {
    /// Every RSA signature algorithm with the hash it uses (`nil`: raw or PKCS#1 v1.5 without DigestInfo).
    static let rsaSignatureAlgorithms: [SecKeyAlgorithm] = [
        .rsaSignatureRaw, .rsaSignatureDigestPKCS1v15Raw,
        .rsaSignatureDigestPKCS1v15SHA1, .rsaSignatureDigestPKCS1v15SHA224, .rsaSignatureDigestPKCS1v15SHA256,
        .rsaSignatureDigestPKCS1v15SHA384, .rsaSignatureDigestPKCS1v15SHA512,
        .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA224, .rsaSignatureMessagePKCS1v15SHA256,
        .rsaSignatureMessagePKCS1v15SHA384, .rsaSignatureMessagePKCS1v15SHA512,
        .rsaSignatureDigestPSSSHA1, .rsaSignatureDigestPSSSHA224, .rsaSignatureDigestPSSSHA256,
        .rsaSignatureDigestPSSSHA384, .rsaSignatureDigestPSSSHA512,
        .rsaSignatureMessagePSSSHA1, .rsaSignatureMessagePSSSHA224, .rsaSignatureMessagePSSSHA256,
        .rsaSignatureMessagePSSSHA384, .rsaSignatureMessagePSSSHA512
    ]

    /// Every RSA encryption algorithm.
    static let rsaEncryptionAlgorithms: [SecKeyAlgorithm] = [
        .rsaEncryptionRaw, .rsaEncryptionPKCS1,
        .rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA224, .rsaEncryptionOAEPSHA256, .rsaEncryptionOAEPSHA384,
        .rsaEncryptionOAEPSHA512,
        .rsaEncryptionOAEPSHA1AESGCM, .rsaEncryptionOAEPSHA224AESGCM, .rsaEncryptionOAEPSHA256AESGCM,
        .rsaEncryptionOAEPSHA384AESGCM, .rsaEncryptionOAEPSHA512AESGCM
    ]

    /// The digest size a `…Digest…` algorithm takes, `nil` for message algorithms.
    static func digestSize(_ algorithm: SecKeyAlgorithm) -> Int? {
        let name = algorithm.rawValue as String
        guard name.contains(":digest-") else { return nil }
        for (hash, size) in [("SHA1", 20), ("SHA224", 28), ("SHA256", 32), ("SHA384", 48), ("SHA512", 64)]
        where name.contains(":\(hash)") {
            return size
        }
        return 20
    }

    /// Input for a signature algorithm: a digest of the right size, a modulus-sized number for
    /// the raw algorithm, or a message.
    func rsaSigningInput(_ algorithm: SecKeyAlgorithm, modulusBytes: Int) -> Data {
        // Raw input: a number below the modulus, without leading zeros (Apple's raw
        // verification compares the recovered number without them).
        if algorithm == .rsaSignatureRaw {
            return Data([0x42]) + Data((0..<(modulusBytes - 2)).map { UInt8(truncatingIfNeeded: $0) })
        }
        if let size = Self.digestSize(algorithm) { return Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }) }
        return Data("an RSA-signed message".utf8)
    }

    /// `SecKeyCreateEncryptedData` with status.
    func encryptOutcome(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> SecKeyOutcome<CFData> {
        secKeyCall { SecKeyCreateEncryptedData(key, algorithm, data as CFData, $0) }
    }

    /// `SecKeyCreateDecryptedData` with status.
    func decryptOutcome(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> SecKeyOutcome<CFData> {
        secKeyCall { SecKeyCreateDecryptedData(key, algorithm, data as CFData, $0) }
    }

    /// `SecKeyCreateSignature` with status.
    func signOutcome(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> SecKeyOutcome<CFData> {
        secKeyCall { SecKeyCreateSignature(key, algorithm, data as CFData, $0) }
    }
}
#endif
