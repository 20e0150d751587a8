#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux SecKey implementation; on Apple platforms these are Apple's.
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// The OSStatus of every RSA error path, as Apple's SecKey code returns it.
final class SecKeyRSAStatusTests: SecItemTestCase {
    private let rsaPublic: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPublic
    ]
    private let rsaPrivate: [String: Any] = [
        kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
    ]

    func testGenerationSizes() throws {
        func create(_ bits: Any?) -> SecKeyOutcome<SecKey> {
            var parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA]
            parameters[kSecAttrKeySizeInBits as String] = bits
            return secKeyCall { SecKeyCreateRandomKey(parameters as CFDictionary, $0) }
        }
        let rows: [(String, Any?, OSStatus)] = [
            ("missing size", nil, errSecParam),
            ("under Apple's 512", 256, errSecParam),
            ("over Apple's 8192", 8320, errSecParam),
            ("Apple's 512, which swift-crypto cannot make", 512, errSecUnimplemented),
            ("Apple's 768", 768, errSecUnimplemented),
            ("not a multiple of 128", 2000, errSecUnimplemented),
            ("an RSA key in the token", nil, errSecParam)
        ]
        for (situation, bits, expected) in rows {
            let outcome =
                situation.contains("token")
                ? secKeyCall {
                    SecKeyCreateRandomKey(
                        [
                            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
                            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave
                        ] as CFDictionary, $0)
                }
                : create(bits)
            XCTAssertNil(outcome.value, situation)
            XCTAssertEqual(outcome.status, expected, "\(situation): \(outcome.message ?? "")")
        }
    }

    func testImportErrors() throws {
        let privateDER = RSAVectors.privateKey
        let publicDER = RSAVectors.publicKey
        var flipped = privateDER
        flipped[flipped.count - 5] ^= 0x01  // the CRT coefficient no longer matches
        // SubjectPublicKeyInfo header
        let spki = try XCTUnwrap(Data(base64Encoded: "MA0GCSqGSIb3DQEBAQUAA4IBDwA=")) + publicDER
        let rows: [(String, Data, [String: Any], OSStatus)] = [
            ("empty", Data(), rsaPublic, errSecParam),
            ("garbage", Data("not a key".utf8), rsaPublic, errSecParam),
            ("truncated public key", publicDER.dropLast(), rsaPublic, errSecParam),
            ("trailing bytes", publicDER + [0], rsaPublic, errSecParam),
            ("public key said to be private", publicDER, rsaPrivate, errSecParam),
            ("private key said to be public", privateDER, rsaPublic, errSecParam),
            ("inconsistent private key", flipped, rsaPrivate, errSecParam),
            ("SubjectPublicKeyInfo instead of PKCS#1", spki, rsaPublic, errSecParam),
            ("EC key data", Data([0x04]) + Data(repeating: 1, count: 64), rsaPublic, errSecParam),
            (
                "512-bit key, which Apple reads and this platform cannot use", Self.smallPublicKey, rsaPublic,
                errSecUnimplemented
            ),
            (
                "symmetric class", publicDER,
                [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric],
                errSecUnimplemented
            )
        ]
        for (situation, data, attributes, expected) in rows {
            let outcome = secKeyCall { SecKeyCreateWithData(data as CFData, attributes as CFDictionary, $0) }
            XCTAssertNil(outcome.value, situation)
            XCTAssertEqual(outcome.status, expected, "\(situation): \(outcome.message ?? "")")
        }
        let sized = secKeyCall {
            SecKeyCreateWithData(
                publicDER as CFData,
                self.rsaPublic.merging([kSecAttrKeySizeInBits as String: 4096]) { $1 } as CFDictionary, $0)
        }
        XCTAssertNotNil(sized.value, "as Apple, kSecAttrKeySizeInBits is not read: the data says the size")
    }

    /// A 512-bit RSAPublicKey: `openssl genrsa -traditional 512`, then `openssl rsa -RSAPublicKey_out -outform DER`.
    static let smallPublicKey = Data(
        hex:
            "3048024100e6f275b44740d1ec8edc62ab44468a532302dc3417ab8132d99374b0446b452a9ab8bd189d0b408795d220bcdab6084ceadf0fa6199047ad1b9e6bd09ce778e10203010001"
    )

    func testWrongKeyClassAndAlgorithm() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let ecKey = try makeKey()
        let message = Data("m".utf8)
        // Signing with a public key, encrypting with a private one: "algorithm not supported".
        XCTAssertEqual(signOutcome(publicKey, .rsaSignatureMessagePKCS1v15SHA256, message).status, errSecParam)
        XCTAssertEqual(signOutcome(publicKey, .rsaSignatureRaw, message).status, errSecParam)
        XCTAssertEqual(encryptOutcome(key, .rsaEncryptionOAEPSHA256, message).status, errSecParam)
        XCTAssertEqual(encryptOutcome(key, .rsaEncryptionRaw, message).status, errSecParam)
        XCTAssertEqual(decryptOutcome(publicKey, .rsaEncryptionOAEPSHA256AESGCM, Data(count: 300)).status, errSecParam)
        // A public key "decrypts" padded data with its public operation: the padding never matches.
        let ciphertext = try XCTUnwrap(encryptOutcome(publicKey, .rsaEncryptionOAEPSHA256, message).value as Data?)
        XCTAssertEqual(decryptOutcome(publicKey, .rsaEncryptionOAEPSHA256, ciphertext).status, errSecParam)
        XCTAssertTrue(
            SecKeyIsAlgorithmSupported(publicKey, .decrypt, .rsaEncryptionOAEPSHA256), "as Apple's RSA public keys")
        XCTAssertFalse(
            SecKeyIsAlgorithmSupported(key, .verify, .rsaSignatureMessagePSSSHA256),
            "a private key does not verify (Apple's would, and would accept forgeries)")
        // Algorithms of the other key type, and key exchange.
        for (rsaKey, operation, algorithm) in [
            (key, SecKeyOperationType.sign, SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256),
            (publicKey, .verify, .ecdsaSignatureMessageX962SHA256),
            (publicKey, .encrypt, .eciesEncryptionStandardVariableIVX963SHA256AESGCM),
            (key, .keyExchange, .ecdhKeyExchangeStandard)
        ] {
            XCTAssertFalse(SecKeyIsAlgorithmSupported(rsaKey, operation, algorithm), "\(algorithm)")
        }
        XCTAssertEqual(signOutcome(key, .ecdsaSignatureMessageX962SHA256, message).status, errSecParam)
        XCTAssertEqual(
            verify(publicKey, .ecdsaSignatureMessageX962SHA256, message, Data(count: 64)).status, errSecParam)
        XCTAssertEqual(encryptOutcome(publicKey, .eciesEncryptionStandardX963SHA256AESGCM, message).status, errSecParam)
        XCTAssertEqual(
            secKeyCall {
                SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, publicKey, [:] as CFDictionary, $0)
            }.status, errSecParam)
        XCTAssertEqual(
            secKeyCall {
                SecKeyCopyKeyExchangeResult(ecKey, .ecdhKeyExchangeStandard, publicKey, [:] as CFDictionary, $0)
            }.status, errSecParam,
            "an RSA public key is no ECDH peer")
        XCTAssertEqual(signOutcome(ecKey, .rsaSignatureMessagePKCS1v15SHA256, message).status, errSecParam)
        XCTAssertFalse(SecKeyIsAlgorithmSupported(ecKey, .sign, .rsaSignatureMessagePKCS1v15SHA256))
        XCTAssertEqual(
            signOutcome(
                key, SecKeyAlgorithm(rawValue: "algid:sign:RSA:message-PSS:SHA256:SHA256:99" as CFString), message
            ).status,
            errSecParam, "unknown RSA algorithm")
    }

    func testDigestLengthsAndInputSizes() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        // PSS needs a digest of the hash's size: signing says errSecParam, verifying does not match.
        XCTAssertEqual(signOutcome(key, .rsaSignatureDigestPSSSHA256, Data(count: 31)).status, errSecParam)
        XCTAssertEqual(signOutcome(key, .rsaSignatureDigestPSSSHA256, Data(count: 33)).status, errSecParam)
        let pss = try sign(key, .rsaSignatureDigestPSSSHA256, Data(count: 32))
        XCTAssertEqual(verify(publicKey, .rsaSignatureDigestPSSSHA256, Data(count: 31), pss).status, errSecVerifyFailed)
        // Apple's PKCS#1 v1.5 encoder takes the digest at any length that fits its DigestInfo.
        let odd = try sign(key, .rsaSignatureDigestPKCS1v15SHA256, Data(count: 20))
        XCTAssertTrue(verify(publicKey, .rsaSignatureDigestPKCS1v15SHA256, Data(count: 20), odd).valid)
        XCTAssertEqual(
            verify(publicKey, .rsaSignatureDigestPKCS1v15SHA256, Data(count: 32), odd).status, errSecVerifyFailed)
        XCTAssertEqual(
            signOutcome(key, .rsaSignatureDigestPKCS1v15SHA256, Data(count: 108)).status, errSecParam,
            "DigestInfo of 127 bytes or more")
        XCTAssertEqual(
            signOutcome(key, .rsaSignatureDigestPKCS1v15Raw, Data(count: 246)).status, errSecParam,
            "more than 256 - 11 bytes")
        XCTAssertNotNil(signOutcome(key, .rsaSignatureDigestPKCS1v15Raw, Data(count: 245)).value)
        // Raw input: longer than the modulus, or not smaller than it.
        XCTAssertEqual(signOutcome(key, .rsaSignatureRaw, Data(count: 257)).status, errSecParam)
        XCTAssertEqual(signOutcome(key, .rsaSignatureRaw, Data(repeating: 0xFF, count: 256)).status, errSecParam)
        XCTAssertEqual(
            encryptOutcome(publicKey, .rsaEncryptionRaw, Data(repeating: 0xFF, count: 256)).status, errSecParam)
        XCTAssertEqual(encryptOutcome(publicKey, .rsaEncryptionRaw, Data(count: 257)).status, errSecParam)
        // Signatures longer than the modulus are a parameter error, shorter ones never match.
        let signature = try sign(key, .rsaSignatureMessagePKCS1v15SHA256, Data("m".utf8))
        XCTAssertEqual(
            verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, Data("m".utf8), Data([0]) + signature + [0]).status,
            errSecParam)
        XCTAssertEqual(
            verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, Data("m".utf8), signature.dropLast()).status,
            errSecVerifyFailed)
        XCTAssertEqual(
            verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, Data("m".utf8), Data(repeating: 0xFF, count: 256))
                .status, errSecVerifyFailed)
        // Plaintext too long for the modulus and padding.
        for (algorithm, limit) in [
            (SecKeyAlgorithm.rsaEncryptionPKCS1, 245), (.rsaEncryptionOAEPSHA1, 214), (.rsaEncryptionOAEPSHA224, 198),
            (.rsaEncryptionOAEPSHA256, 190), (.rsaEncryptionOAEPSHA384, 158), (.rsaEncryptionOAEPSHA512, 126)
        ] {
            XCTAssertNotNil(
                encryptOutcome(publicKey, algorithm, Data(count: limit)).value, "\(algorithm): \(limit) bytes fit")
            XCTAssertEqual(
                encryptOutcome(publicKey, algorithm, Data(count: limit + 1)).status, errSecParam,
                "\(algorithm): \(limit + 1) bytes")
        }
        // Ciphertexts: too long, garbage, and AES-GCM packets too short.
        XCTAssertEqual(decryptOutcome(key, .rsaEncryptionOAEPSHA256, Data(count: 257)).status, errSecParam)
        XCTAssertEqual(
            decryptOutcome(key, .rsaEncryptionOAEPSHA384, Data(repeating: 3, count: 256)).status, errSecParam)
        XCTAssertEqual(decryptOutcome(key, .rsaEncryptionPKCS1, Data(repeating: 3, count: 256)).status, errSecParam)
        XCTAssertEqual(decryptOutcome(key, .rsaEncryptionOAEPSHA256AESGCM, Data(count: 271)).status, errSecParam)
        // A wrapped key of the wrong size (OAEP of 20 bytes instead of 16) is refused.
        let wrapped = try XCTUnwrap(encryptOutcome(publicKey, .rsaEncryptionOAEPSHA256, Data(count: 20)).value as Data?)
        XCTAssertEqual(
            decryptOutcome(key, .rsaEncryptionOAEPSHA256AESGCM, wrapped + Data(count: 16)).status, errSecParam)
    }
}
#endif
