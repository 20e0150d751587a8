#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux SecKey implementation; on Apple platforms these are Apple's.
import Crypto
import CryptoExtras
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// RSA keys: generation, PKCS#1 import and export, attributes, and every signature and
/// encryption algorithm, checked against swift-crypto and against OpenSSL's vectors.
final class SecKeyRSATests: SecItemTestCase {
    // MARK: - Generation, export, attributes

    func testGeneratedKeysHaveTheirSizeBlockSizeAndPKCS1Export() throws {
        for bits in [2048, 3072, 4096] {
            let key = try RSATestKeys.privateKey(bits: bits)
            let publicKey = try self.publicKey(of: key)
            XCTAssertEqual(SecKeyGetBlockSize(key), bits / 8)
            XCTAssertEqual(SecKeyGetBlockSize(publicKey), bits / 8)
            let privateDER = try external(key)
            let publicDER = try external(publicKey)
            // Independent parsers read the exports as PKCS#1 keys of that size.
            let swiftCryptoPrivate = try _RSA.Signing.PrivateKey(derRepresentation: privateDER)
            XCTAssertEqual(swiftCryptoPrivate.keySizeInBits, bits)
            XCTAssertEqual(swiftCryptoPrivate.derRepresentation, privateDER, "PKCS#1 RSAPrivateKey, not PKCS#8")
            XCTAssertEqual(
                swiftCryptoPrivate.publicKey.pkcs1DERRepresentation, publicDER,
                "PKCS#1 RSAPublicKey, not SubjectPublicKeyInfo")
            XCTAssertEqual(
                try swiftCryptoPrivate.publicKey.getKeyPrimitives().publicExponent.drop { $0 == 0 }, Data([1, 0, 1]),
                "e = 65537")
        }
        let other = try XCTUnwrap(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: "2048"]
                    as CFDictionary, nil))
        XCTAssertNotEqual(
            try external(other), try external(RSATestKeys.privateKey(bits: 2048)),
            "a new key each time; size as a string works")
    }

    func test1024BitKeysWorkButCannotUseTheLargestHashes() throws {
        let key = try RSATestKeys.privateKey(bits: 1024)
        let publicKey = try self.publicKey(of: key)
        XCTAssertEqual(SecKeyGetBlockSize(key), 128)
        // 1024 < 2 × 8 × 64 + 9: no PSS-SHA512 signing; 128 < 2 × 64 + 2: no OAEP-SHA512.
        XCTAssertFalse(SecKeyIsAlgorithmSupported(key, .sign, .rsaSignatureMessagePSSSHA512))
        XCTAssertTrue(SecKeyIsAlgorithmSupported(key, .sign, .rsaSignatureMessagePSSSHA384))
        XCTAssertFalse(SecKeyIsAlgorithmSupported(publicKey, .encrypt, .rsaEncryptionOAEPSHA512))
        XCTAssertTrue(SecKeyIsAlgorithmSupported(publicKey, .encrypt, .rsaEncryptionOAEPSHA384))
        XCTAssertEqual(signOutcome(key, .rsaSignatureMessagePSSSHA512, Data("m".utf8)).status, errSecParam)
        XCTAssertEqual(encryptOutcome(publicKey, .rsaEncryptionOAEPSHA512, Data("m".utf8)).status, errSecParam)
        let signature = try sign(key, .rsaSignatureMessagePKCS1v15SHA256, Data("m".utf8))
        XCTAssertTrue(verify(publicKey, .rsaSignatureMessagePKCS1v15SHA256, Data("m".utf8), signature).valid)
    }

    func testAttributesAreApplesForBothHalves() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let label = Data(Insecure.SHA1.hash(data: RSAVectors.publicKey))
        let privateAttributes = try XCTUnwrap(SecKeyCopyAttributes(key) as? [String: Any])
        let publicAttributes = try XCTUnwrap(SecKeyCopyAttributes(publicKey) as? [String: Any])
        for (attributes, isPrivate) in [(privateAttributes, true), (publicAttributes, false)] {
            let half = isPrivate ? "private" : "public"
            XCTAssertEqual(attributes[kSecAttrKeyType as String] as? String, "42", half)
            XCTAssertEqual(attributes[kSecAttrKeyType as String] as? String, kSecAttrKeyTypeRSA as String, half)
            XCTAssertEqual(attributes[kSecAttrKeyClass as String] as? String, isPrivate ? "1" : "0", half)
            XCTAssertEqual(attributes[kSecAttrKeySizeInBits as String] as? Int, 2048, half)
            XCTAssertEqual(attributes[kSecAttrEffectiveKeySize as String] as? Int, 2048, half)
            XCTAssertEqual(
                attributes[kSecAttrApplicationLabel as String] as? Data, label,
                "\(half): SHA-1 of the PKCS#1 public key")
            XCTAssertEqual(attributes[kSecAttrCanSign as String] as? Bool, isPrivate, half)
            XCTAssertEqual(attributes[kSecAttrCanVerify as String] as? Bool, !isPrivate, half)
            XCTAssertEqual(attributes[kSecAttrCanEncrypt as String] as? Bool, !isPrivate, half)
            XCTAssertEqual(
                attributes[kSecAttrCanDecrypt as String] as? Bool, true,
                "\(half): Apple's RSA keys say both halves decrypt")
            XCTAssertEqual(attributes[kSecAttrCanDerive as String] as? Bool, false, "\(half): RSA keys do not derive")
            XCTAssertEqual(
                attributes[kSecValueData as String] as? Data, isPrivate ? RSAVectors.privateKey : RSAVectors.publicKey,
                half)
        }
    }

    func testImportExportRoundTripAndEquality() throws {
        let key = try RSATestKeys.vectorKey()
        XCTAssertEqual(try external(key), RSAVectors.privateKey, "the private key exports as imported")
        let publicKey = try self.publicKey(of: key)
        XCTAssertEqual(try external(publicKey), RSAVectors.publicKey)
        let imported = try XCTUnwrap(
            SecKeyCreateWithData(
                RSAVectors.publicKey as CFData,
                [
                    kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPublic
                ] as CFDictionary, nil))
        XCTAssertEqual(imported, publicKey)
        XCTAssertEqual(imported.hashValue, publicKey.hashValue)
        XCTAssertNotEqual(imported, key, "public and private halves differ")
        XCTAssertEqual(try RSATestKeys.vectorKey(), key)
        XCTAssertNotEqual(try RSATestKeys.privateKey(bits: 2048), key)
    }

    func testDescriptionsShowNoPrivateMaterial() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        XCTAssertTrue(
            key.description.hasPrefix(
                "<SecKeyRef algorithm id: 1, key type: RSAPrivateKey, version: 4, 2048 bits (block size: 256), addr: "),
            key.description)
        XCTAssertTrue(publicKey.description.contains("key type: RSAPublicKey"), publicKey.description)
        XCTAssertTrue(publicKey.description.contains("exponent: {hex: 10001, decimal: 65537}"), publicKey.description)
        let modulus = try _RSA.Signing.PublicKey(derRepresentation: RSAVectors.publicKey).getKeyPrimitives().modulus
            .drop { $0 == 0 }
        XCTAssertTrue(
            publicKey.description.contains(modulus.map { String(format: "%02X", $0) }.joined()),
            "the public key shows its modulus")
        // No 16-byte window of the private exponent and primes (the DER after n and e) appears
        // in the description, the debug description or a dump.
        var dumped = ""
        dump(key, to: &dumped)
        let privateOnly = RSAVectors.privateKey.suffix(from: RSAVectors.privateKey.startIndex + 280)
        for rendering in [key.description, key.debugDescription, dumped].map({ $0.lowercased() }) {
            for start in stride(from: 0, to: privateOnly.count - 16, by: 8) {
                let hex = privateOnly.dropFirst(start).prefix(16).map { String(format: "%02x", $0) }.joined()
                XCTAssertFalse(rendering.contains(hex), "private key bytes in a rendering")
            }
        }
        XCTAssertTrue(dumped.contains("RSA private"), dumped)
    }

    // MARK: - Signatures

    func testEverySignatureAlgorithmRoundTripsAndRejectsTampering() throws {
        let key = try RSATestKeys.privateKey(bits: 2048)
        let publicKey = try self.publicKey(of: key)
        for algorithm in Self.rsaSignatureAlgorithms {
            XCTAssertTrue(SecKeyIsAlgorithmSupported(key, .sign, algorithm), "\(algorithm)")
            XCTAssertTrue(SecKeyIsAlgorithmSupported(publicKey, .verify, algorithm), "\(algorithm)")
            XCTAssertFalse(SecKeyIsAlgorithmSupported(publicKey, .sign, algorithm), "\(algorithm)")
            let input = rsaSigningInput(algorithm, modulusBytes: 256)
            let signature = try sign(key, algorithm, input)
            XCTAssertEqual(signature.count, 256, "\(algorithm)")
            XCTAssertEqual(verify(publicKey, algorithm, input, signature).valid, true, "\(algorithm)")
            var tampered = signature
            tampered[100] ^= 0x01
            let bad = verify(publicKey, algorithm, input, tampered)
            XCTAssertFalse(bad.valid, "\(algorithm)")
            XCTAssertEqual(bad.status, errSecVerifyFailed, "\(algorithm)")
            var otherInput = input
            otherInput[otherInput.index(before: otherInput.endIndex)] ^= 0x01
            XCTAssertEqual(
                verify(publicKey, algorithm, otherInput, signature).status, errSecVerifyFailed,
                "\(algorithm): other data")
            // A private key refuses to verify (Apple's would apply its raw private operation).
            XCTAssertEqual(verify(key, algorithm, input, signature).status, errSecParam, "\(algorithm): private key")
        }
    }

    func testPKCS1AndPSSMessageSignaturesVerifyWithSwiftCrypto() throws {
        let key = try RSATestKeys.privateKey(bits: 3072)
        let swiftCryptoKey = try _RSA.Signing.PublicKey(derRepresentation: external(self.publicKey(of: key)))
        let message = Data("checked by an independent implementation".utf8)
        let cases: [(SecKeyAlgorithm, _RSA.Signing.Padding, (Data) -> any Digest)] = [
            (.rsaSignatureMessagePKCS1v15SHA1, .insecurePKCS1v1_5, { Insecure.SHA1.hash(data: $0) }),
            (.rsaSignatureMessagePKCS1v15SHA256, .insecurePKCS1v1_5, { SHA256.hash(data: $0) }),
            (.rsaSignatureMessagePKCS1v15SHA384, .insecurePKCS1v1_5, { SHA384.hash(data: $0) }),
            (.rsaSignatureMessagePKCS1v15SHA512, .insecurePKCS1v1_5, { SHA512.hash(data: $0) }),
            (.rsaSignatureMessagePSSSHA1, .PSS, { Insecure.SHA1.hash(data: $0) }),
            (.rsaSignatureMessagePSSSHA256, .PSS, { SHA256.hash(data: $0) }),
            (.rsaSignatureMessagePSSSHA384, .PSS, { SHA384.hash(data: $0) }),
            (.rsaSignatureMessagePSSSHA512, .PSS, { SHA512.hash(data: $0) })
        ]
        for (algorithm, padding, hash) in cases {
            let signature = _RSA.Signing.RSASignature(rawRepresentation: try sign(key, algorithm, message))
            XCTAssertTrue(
                Self.isValid(swiftCryptoKey, signature, hash(message), padding), "\(algorithm): swift-crypto accepts it"
            )
            XCTAssertFalse(
                Self.isValid(swiftCryptoKey, signature, hash(message + [0]), padding),
                "\(algorithm): not for other data")
        }
        // And swift-crypto's signatures verify here.
        let swiftCryptoSigner = try _RSA.Signing.PrivateKey(derRepresentation: RSAVectors.privateKey)
        let publicKey = try self.publicKey(of: RSATestKeys.vectorKey())
        let pss = try swiftCryptoSigner.signature(for: SHA256.hash(data: message), padding: .PSS).rawRepresentation
        XCTAssertTrue(verify(publicKey, .rsaSignatureMessagePSSSHA256, message, pss).valid)
        XCTAssertTrue(verify(publicKey, .rsaSignatureDigestPSSSHA256, Data(SHA256.hash(data: message)), pss).valid)
        let pkcs1 = try swiftCryptoSigner.signature(for: SHA384.hash(data: message), padding: .insecurePKCS1v1_5)
            .rawRepresentation
        XCTAssertTrue(verify(publicKey, .rsaSignatureMessagePKCS1v15SHA384, message, pkcs1).valid)
    }

    /// swift-crypto's verification for a digest of any of its hash types.
    private static func isValid(
        _ key: _RSA.Signing.PublicKey, _ signature: _RSA.Signing.RSASignature, _ digest: any Digest,
        _ padding: _RSA.Signing.Padding
    ) -> Bool {
        func check<D: Digest>(_ digest: D) -> Bool { key.isValidSignature(signature, for: digest, padding: padding) }
        return check(digest)
    }

    func testPKCS1SignaturesEqualOpenSSLsAndItsPSSSignaturesVerify() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let message = RSAVectors.message
        let pkcs1: [(SecKeyAlgorithm, SecKeyAlgorithm, Data, (Data) -> Data)] = [
            (
                .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureDigestPKCS1v15SHA1, RSAVectors.pkcs1SHA1,
                { Data(Insecure.SHA1.hash(data: $0)) }
            ),
            (
                .rsaSignatureMessagePKCS1v15SHA224, .rsaSignatureDigestPKCS1v15SHA224, RSAVectors.pkcs1SHA224,
                { Self.sha224($0) }
            ),
            (
                .rsaSignatureMessagePKCS1v15SHA256, .rsaSignatureDigestPKCS1v15SHA256, RSAVectors.pkcs1SHA256,
                { Data(SHA256.hash(data: $0)) }
            ),
            (
                .rsaSignatureMessagePKCS1v15SHA384, .rsaSignatureDigestPKCS1v15SHA384, RSAVectors.pkcs1SHA384,
                { Data(SHA384.hash(data: $0)) }
            ),
            (
                .rsaSignatureMessagePKCS1v15SHA512, .rsaSignatureDigestPKCS1v15SHA512, RSAVectors.pkcs1SHA512,
                { Data(SHA512.hash(data: $0)) }
            )
        ]
        for (messageAlgorithm, digestAlgorithm, expected, hash) in pkcs1 {
            XCTAssertEqual(
                try sign(key, messageAlgorithm, message), expected,
                "\(messageAlgorithm): deterministic, equal to OpenSSL's")
            XCTAssertEqual(try sign(key, digestAlgorithm, hash(message)), expected, "\(digestAlgorithm)")
            XCTAssertTrue(verify(publicKey, messageAlgorithm, message, expected).valid, "\(messageAlgorithm)")
        }
        XCTAssertEqual(
            try sign(key, .rsaSignatureDigestPKCS1v15Raw, RSAVectors.rawDigest), RSAVectors.pkcs1RawSignature)
        XCTAssertTrue(
            verify(publicKey, .rsaSignatureDigestPKCS1v15Raw, RSAVectors.rawDigest, RSAVectors.pkcs1RawSignature).valid)
        XCTAssertEqual(try sign(key, .rsaSignatureRaw, RSAVectors.rawInput), RSAVectors.rawSignature)
        XCTAssertTrue(
            verify(publicKey, .rsaSignatureRaw, RSAVectors.rawInput.dropFirst(), RSAVectors.rawSignature).valid,
            "raw verification compares without leading zeros, as Apple's")
        let pss: [(SecKeyAlgorithm, SecKeyAlgorithm, Data, (Data) -> Data)] = [
            (
                .rsaSignatureMessagePSSSHA1, .rsaSignatureDigestPSSSHA1, RSAVectors.pssSHA1,
                { Data(Insecure.SHA1.hash(data: $0)) }
            ),
            (.rsaSignatureMessagePSSSHA224, .rsaSignatureDigestPSSSHA224, RSAVectors.pssSHA224, { Self.sha224($0) }),
            (
                .rsaSignatureMessagePSSSHA256, .rsaSignatureDigestPSSSHA256, RSAVectors.pssSHA256,
                { Data(SHA256.hash(data: $0)) }
            ),
            (
                .rsaSignatureMessagePSSSHA384, .rsaSignatureDigestPSSSHA384, RSAVectors.pssSHA384,
                { Data(SHA384.hash(data: $0)) }
            ),
            (
                .rsaSignatureMessagePSSSHA512, .rsaSignatureDigestPSSSHA512, RSAVectors.pssSHA512,
                { Data(SHA512.hash(data: $0)) }
            )
        ]
        for (messageAlgorithm, digestAlgorithm, signature, hash) in pss {
            XCTAssertTrue(
                verify(publicKey, messageAlgorithm, message, signature).valid,
                "\(messageAlgorithm): OpenSSL's PSS signature")
            XCTAssertTrue(verify(publicKey, digestAlgorithm, hash(message), signature).valid, "\(digestAlgorithm)")
            let ours = try sign(key, messageAlgorithm, message)
            XCTAssertNotEqual(ours, signature, "\(messageAlgorithm): PSS is randomised")
            XCTAssertTrue(verify(publicKey, messageAlgorithm, message, ours).valid, "\(messageAlgorithm)")
        }
    }

    /// SHA-224 of ``RSAVectors/message`` (`openssl dgst -sha224`); swift-crypto has no SHA-224.
    private static func sha224(_ data: Data) -> Data {
        precondition(data == RSAVectors.message)
        return Data(hex: "aa62c13f7b639c109f9990b1778a69caf0ae3c143c0a72eac500ac26")
    }

    // MARK: - Encryption

    func testEveryEncryptionAlgorithmRoundTrips() throws {
        for bits in [2048, 4096] {
            let key = try RSATestKeys.privateKey(bits: bits)
            let publicKey = try self.publicKey(of: key)
            for algorithm in Self.rsaEncryptionAlgorithms {
                XCTAssertTrue(SecKeyIsAlgorithmSupported(publicKey, .encrypt, algorithm), "\(algorithm)")
                XCTAssertTrue(SecKeyIsAlgorithmSupported(key, .decrypt, algorithm), "\(algorithm)")
                XCTAssertFalse(SecKeyIsAlgorithmSupported(key, .encrypt, algorithm), "\(algorithm)")
                let plaintext =
                    algorithm == .rsaEncryptionRaw
                    ? Data([0x00, 0x00, 0x01]) + Data(repeating: 7, count: bits / 8 - 3)
                    : Data("attack at dawn, \(algorithm)".utf8)
                let sealed = encryptOutcome(publicKey, algorithm, plaintext)
                let ciphertext = try XCTUnwrap(sealed.value as Data?, "\(algorithm): \(sealed.message ?? "")")
                let opened = decryptOutcome(key, algorithm, ciphertext)
                XCTAssertEqual(opened.value as Data?, plaintext, "\(bits) \(algorithm): \(opened.message ?? "")")
                if algorithm != .rsaEncryptionRaw {
                    XCTAssertNotEqual(
                        encryptOutcome(publicKey, algorithm, plaintext).value as Data?, ciphertext,
                        "\(algorithm): randomised")
                    var tampered = ciphertext
                    tampered[tampered.count - 1] ^= 0x01
                    XCTAssertEqual(
                        decryptOutcome(key, algorithm, tampered).status, errSecParam, "\(algorithm): tampered")
                }
            }
        }
    }

    func testAESGCMVariantsUseApplesLayout() throws {
        for (bits, sessionKeySize) in [(2048, 16), (4096, 32)] {
            let key = try RSATestKeys.privateKey(bits: bits)
            let publicKey = try self.publicKey(of: key)
            let plaintext = Data("wrapped".utf8)
            let packet = try XCTUnwrap(
                encryptOutcome(publicKey, .rsaEncryptionOAEPSHA256AESGCM, plaintext).value as Data?)
            XCTAssertEqual(packet.count, bits / 8 + plaintext.count + 16, "wrapped key ‖ ciphertext ‖ tag")
            // Unwrap the session key with plain OAEP and open the AES-GCM part independently.
            let sessionKey = try XCTUnwrap(
                decryptOutcome(key, .rsaEncryptionOAEPSHA256, packet.prefix(bits / 8)).value as Data?)
            XCTAssertEqual(sessionKey.count, sessionKeySize)
            let body = packet.dropFirst(bits / 8)
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: Data(count: 16)), ciphertext: body.dropLast(16), tag: body.suffix(16))
            XCTAssertEqual(
                try AES.GCM.open(box, using: SymmetricKey(data: sessionKey), authenticating: external(publicKey)),
                plaintext,
                "16-byte zero IV, the PKCS#1 public key as additional data")
        }
    }

    func testOpenSSLCiphertextsDecrypt() throws {
        let key = try RSATestKeys.vectorKey()
        let cases: [(SecKeyAlgorithm, Data)] = [
            (.rsaEncryptionPKCS1, RSAVectors.pkcs1Encrypted), (.rsaEncryptionOAEPSHA1, RSAVectors.oaepSHA1),
            (.rsaEncryptionOAEPSHA224, RSAVectors.oaepSHA224), (.rsaEncryptionOAEPSHA256, RSAVectors.oaepSHA256),
            (.rsaEncryptionOAEPSHA384, RSAVectors.oaepSHA384), (.rsaEncryptionOAEPSHA512, RSAVectors.oaepSHA512)
        ]
        for (algorithm, ciphertext) in cases {
            let opened = decryptOutcome(key, algorithm, ciphertext)
            XCTAssertEqual(opened.value as Data?, RSAVectors.message, "\(algorithm): \(opened.message ?? "")")
            let otherHash: SecKeyAlgorithm =
                algorithm == .rsaEncryptionOAEPSHA384 ? .rsaEncryptionOAEPSHA512 : .rsaEncryptionOAEPSHA384
            XCTAssertEqual(
                decryptOutcome(key, otherHash, ciphertext).status, errSecParam, "\(algorithm) opened as \(otherHash)")
        }
        // Raw decryption is the private operation (OpenSSL's raw signature is that of rawInput).
        let publicKey = try self.publicKey(of: key)
        XCTAssertEqual(
            decryptOutcome(
                key, .rsaEncryptionRaw,
                try XCTUnwrap(encryptOutcome(publicKey, .rsaEncryptionRaw, RSAVectors.rawInput).value as Data?)
            ).value as Data?,
            RSAVectors.rawInput)
        XCTAssertEqual(
            encryptOutcome(publicKey, .rsaEncryptionRaw, RSAVectors.rawSignature).value as Data?, RSAVectors.rawInput)
        XCTAssertEqual(
            decryptOutcome(publicKey, .rsaEncryptionRaw, RSAVectors.rawSignature).value as Data?, RSAVectors.rawInput,
            "as Apple's, a public key \"decrypts\" raw data with its public operation")
    }

    func testOurOAEPDecryptsWithSwiftCrypto() throws {
        let key = try RSATestKeys.vectorKey()
        let publicKey = try self.publicKey(of: key)
        let swiftCryptoKey = try _RSA.Encryption.PrivateKey(derRepresentation: RSAVectors.privateKey)
        let plaintext = Data("to BoringSSL".utf8)
        for (algorithm, padding) in [
            (SecKeyAlgorithm.rsaEncryptionOAEPSHA1, _RSA.Encryption.Padding.PKCS1_OAEP),
            (.rsaEncryptionOAEPSHA256, .PKCS1_OAEP_SHA256), (.rsaEncryptionPKCS1, ._WEAK_AND_INSECURE_PKCS_V1_5)
        ] {
            let ciphertext = try XCTUnwrap(encryptOutcome(publicKey, algorithm, plaintext).value as Data?)
            XCTAssertEqual(try swiftCryptoKey.decrypt(ciphertext, padding: padding), plaintext, "\(algorithm)")
        }
    }
}
#endif
