#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux SecKey implementation; on Apple platforms these are Apple's.
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// SecKeyCreateRandomKey, the key objects, signatures, export/import and key exchange.
final class SecKeyTests: SecItemTestCase {
    static let curves = [256, 384, 521]

    // MARK: - Constants

    func testAlgorithmConstantsHaveApplesRawValues() {
        let expected: [(SecKeyAlgorithm, String)] = [
            (.ecdsaSignatureMessageX962SHA256, "algid:sign:ECDSA:message-X962:SHA256"),
            (.ecdsaSignatureDigestX962SHA256, "algid:sign:ECDSA:digest-X962:SHA256"),
            (.ecdsaSignatureDigestX962, "algid:sign:ECDSA:digest-X962"),
            (.ecdsaSignatureMessageRFC4754SHA256, "algid:sign:ECDSA:message-RFC4754:SHA256"),
            (.ecdsaSignatureDigestRFC4754, "algid:sign:ECDSA:digest-RFC4754"),
            (.ecdsaSignatureRFC4754, "algid:sign:ECDSA:RFC4754"),
            (.ecdhKeyExchangeStandard, "algid:keyexchange:ECDH"),
            (.ecdhKeyExchangeStandardX963SHA256, "algid:keyexchange:ECDH:KDFX963:SHA256"),
            (.ecdhKeyExchangeCofactor, "algid:keyexchange:ECDHC"),
            (.ecdhKeyExchangeCofactorX963SHA256, "algid:keyexchange:ECDHC:KDFX963:SHA256"),
            (.eciesEncryptionStandardX963SHA256AESGCM, "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM"),
            (.eciesEncryptionCofactorX963SHA256AESGCM, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM"),
            (
                .eciesEncryptionStandardVariableIVX963SHA256AESGCM,
                "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV"
            ),
            (
                .eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
                "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"
            ),
            (.rsaSignatureMessagePKCS1v15SHA256, "algid:sign:RSA:message-PKCS1v15:SHA256"),
            (.rsaSignatureDigestPKCS1v15SHA256, "algid:sign:RSA:digest-PKCS1v15:SHA256"),
            (.rsaSignatureMessagePSSSHA256, "algid:sign:RSA:message-PSS:SHA256:SHA256:32"),
            (.rsaEncryptionOAEPSHA256, "algid:encrypt:RSA:OAEP:SHA256"),
            (.rsaEncryptionOAEPSHA256AESGCM, "algid:encrypt:RSA:OAEP:SHA256:AESGCM"),
            (.rsaEncryptionPKCS1, "algid:encrypt:RSA:PKCS1"),
            (.rsaSignatureRaw, "algid:sign:RSA:raw"),
            (.rsaEncryptionRaw, "algid:encrypt:RSA:raw")
        ]
        for (algorithm, raw) in expected {
            XCTAssertEqual(algorithm.rawValue as String, raw)
            XCTAssertEqual(SecKeyAlgorithm(rawValue: raw as CFString), algorithm)
        }
        XCTAssertEqual(kSecKeyAlgorithmECDSASignatureMessageX962SHA256, .ecdsaSignatureMessageX962SHA256)
        XCTAssertEqual(
            kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM,
            .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
        XCTAssertEqual(kSecKeyAlgorithmRSAEncryptionOAEPSHA256, .rsaEncryptionOAEPSHA256)
        XCTAssertEqual(
            [SecKeyOperationType.sign, .verify, .encrypt, .decrypt, .keyExchange].map(\.rawValue), [0, 1, 2, 3, 4])
        XCTAssertEqual(kSecKeyKeyExchangeParameterRequestedSize.rawValue as String, "requestedSize")
        XCTAssertEqual(kSecKeyKeyExchangeParameterSharedInfo.rawValue as String, "sharedInfo")
        XCTAssertEqual(kSecAttrKeyClassPrivate as String, "1")
        XCTAssertEqual(kSecAttrKeyClassPublic as String, "0")
        XCTAssertEqual(kSecAttrKeyClassSymmetric as String, "2")
    }

    /// Apple's Swift signatures, assignable to function-typed variables.
    func testFunctionSignaturesMatchApples() throws {
        typealias ErrorOut = UnsafeMutablePointer<Unmanaged<CFError>?>?
        let create: (CFDictionary, ErrorOut) -> SecKey? = SecKeyCreateRandomKey
        let copyPublic: (SecKey) -> SecKey? = SecKeyCopyPublicKey
        let sign: (SecKey, SecKeyAlgorithm, CFData, ErrorOut) -> CFData? = SecKeyCreateSignature
        let verify: (SecKey, SecKeyAlgorithm, CFData, CFData, ErrorOut) -> Bool = SecKeyVerifySignature
        let encrypt: (SecKey, SecKeyAlgorithm, CFData, ErrorOut) -> CFData? = SecKeyCreateEncryptedData
        let decrypt: (SecKey, SecKeyAlgorithm, CFData, ErrorOut) -> CFData? = SecKeyCreateDecryptedData
        let exchange: (SecKey, SecKeyAlgorithm, SecKey, CFDictionary, ErrorOut) -> CFData? = SecKeyCopyKeyExchangeResult
        let export: (SecKey, ErrorOut) -> CFData? = SecKeyCopyExternalRepresentation
        let importKey: (CFData, CFDictionary, ErrorOut) -> SecKey? = SecKeyCreateWithData
        let attributes: (SecKey) -> CFDictionary? = SecKeyCopyAttributes
        let supported: (SecKey, SecKeyOperationType, SecKeyAlgorithm) -> Bool = SecKeyIsAlgorithmSupported
        let blockSize: (SecKey) -> Int = SecKeyGetBlockSize
        let typeID: () -> CFTypeID = SecKeyGetTypeID

        let key = try XCTUnwrap(
            create([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary, nil))
        let publicKey = try XCTUnwrap(copyPublic(key))
        let signature = try XCTUnwrap(sign(key, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, nil))
        XCTAssertTrue(verify(publicKey, .ecdsaSignatureMessageX962SHA256, Data("m".utf8) as CFData, signature, nil))
        let ciphertext = try XCTUnwrap(
            encrypt(publicKey, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, Data("p".utf8) as CFData, nil))
        XCTAssertEqual(
            decrypt(key, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, ciphertext, nil) as Data?, Data("p".utf8))
        XCTAssertNotNil(exchange(key, .ecdhKeyExchangeStandard, publicKey, [:] as CFDictionary, nil))
        let bytes = try XCTUnwrap(export(publicKey, nil))
        XCTAssertEqual(
            importKey(
                bytes,
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPublic]
                    as CFDictionary, nil), publicKey)
        XCTAssertNotNil(attributes(key))
        XCTAssertTrue(supported(key, .sign, .ecdsaSignatureMessageX962SHA256))
        XCTAssertEqual(blockSize(key), 32)
        XCTAssertEqual(CFGetTypeID(key), typeID())
    }

    // MARK: - Generation

    func testSoftwareKeysOnEachCurve() throws {
        for bits in Self.curves {
            let key = try makeKey(bits: bits)
            let size = (bits + 7) / 8
            let publicKey = try self.publicKey(of: key)
            let publicBytes = try external(publicKey)
            let privateBytes = try external(key)
            XCTAssertEqual(publicBytes.count, 1 + 2 * size)
            XCTAssertEqual(publicBytes.first, 0x04)
            XCTAssertEqual(privateBytes.count, 1 + 3 * size, "04 ‖ X ‖ Y ‖ K")
            XCTAssertEqual(privateBytes.prefix(1 + 2 * size), publicBytes)
            XCTAssertEqual(SecKeyGetBlockSize(key), size)
            XCTAssertEqual(SecKeyGetBlockSize(publicKey), size)

            let attributes = try XCTUnwrap(SecKeyCopyAttributes(key) as? [String: Any])
            XCTAssertEqual(attributes[kSecAttrKeyClass as String] as? String, "1")
            XCTAssertEqual(
                attributes[kSecAttrKeyType as String] as? String, "73", "SecKeyCopyAttributes gives the string constant"
            )
            XCTAssertEqual(attributes[kSecAttrKeySizeInBits as String] as? Int, bits)
            XCTAssertEqual(attributes[kSecAttrEffectiveKeySize as String] as? Int, bits)
            XCTAssertEqual(
                attributes[kSecAttrApplicationLabel as String] as? Data, Data(Insecure.SHA1.hash(data: publicBytes)))
            XCTAssertEqual(attributes[kSecAttrIsPermanent as String] as? Bool, false)
            XCTAssertEqual(attributes[kSecAttrCanSign as String] as? Bool, true)
            XCTAssertEqual(attributes[kSecValueData as String] as? Data, privateBytes)
            let publicAttributes = try XCTUnwrap(SecKeyCopyAttributes(publicKey) as? [String: Any])
            XCTAssertEqual(publicAttributes[kSecAttrKeyClass as String] as? String, "0")
            XCTAssertEqual(publicAttributes[kSecAttrCanVerify as String] as? Bool, true)
            XCTAssertEqual(publicAttributes[kSecValueData as String] as? Data, publicBytes)

            // No private material in descriptions or dumps.
            let scalar = privateBytes.suffix(size).map { String(format: "%02X", $0) }.joined()
            var dumped = ""
            dump(key, to: &dumped)
            for text in [key.description, String(describing: key), String(reflecting: key), dumped] {
                XCTAssertFalse(text.uppercased().contains(scalar), "private scalar in \(text)")
            }
            XCTAssertTrue(key.description.contains("ECPrivateKey"))
            XCTAssertTrue(publicKey.description.contains("ECPublicKey"))
        }
    }

    func testGenerationAcceptsNumbersAndTopLevelAttributes() throws {
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: 73, kSecAttrKeySizeInBits as String: "384",
            kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("top".utf8)
        ]
        let key = try XCTUnwrap(SecKeyCreateRandomKey(parameters as CFDictionary, nil))
        XCTAssertEqual(SecKeyGetBlockSize(key), 48)
        XCTAssertEqual(
            copy(keyQuery(tag: "top")).status, errSecSuccess,
            "top-level kSecAttrIsPermanent and tag apply to the private key")
    }

    func testGenerationErrors() throws {
        func create(_ parameters: [String: Any]) -> SecKeyOutcome<SecKey> {
            secKeyCall { SecKeyCreateRandomKey(parameters as CFDictionary, $0) }
        }
        let ec: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256
        ]
        let rows: [(String, [String: Any], OSStatus)] = [
            ("missing key type", [kSecAttrKeySizeInBits as String: 256], errSecParam),
            ("unknown key type", [kSecAttrKeyType as String: "99", kSecAttrKeySizeInBits as String: 256], errSecParam),
            (
                "Ed25519 is not available",
                [kSecAttrKeyType as String: kSecAttrKeyTypeEd25519, kSecAttrKeySizeInBits as String: 256],
                errSecUnimplemented
            ),
            // Apple's EC initialiser says errSecKeySizeNotAllowed, but SecECKeyGeneratePair reports
            // any failure of it as errSecParam ("failed to generate key").
            ("missing size", [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom], errSecParam),
            ("unsupported size", ec.merging([kSecAttrKeySizeInBits as String: 255]) { $1 }, errSecParam),
            (
                "token key on P-521",
                ec.merging([
                    kSecAttrKeySizeInBits as String: 521, kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave
                ]) { $1 }, errSecParam
            ),
            ("unknown token", ec.merging([kSecAttrTokenID as String: "com.example.token"]) { $1 }, errSecItemNotFound),
            (
                "private attributes not a dictionary", ec.merging([kSecPrivateKeyAttrs as String: "perm"]) { $1 },
                errSecParam
            ),
            (
                "access control that is not a SecAccessControl",
                ec.merging([kSecPrivateKeyAttrs as String: [kSecAttrAccessControl as String: "ak"]]) { $1 }, errSecParam
            ),
            (
                "permanent key with an attribute keys do not have",
                ec.merging([
                    kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrAccount as String: "a"]
                ]) { $1 }, errSecNoSuchAttr
            ),
            (
                "permanent key in an unentitled group",
                ec.merging([
                    kSecPrivateKeyAttrs as String: [
                        kSecAttrIsPermanent as String: true, kSecAttrAccessGroup as String: "OTHER.group"
                    ]
                ]) { $1 }, errSecMissingEntitlement
            ),
            (
                "token key in an unentitled group",
                ec.merging([
                    kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                    kSecPrivateKeyAttrs as String: [kSecAttrAccessGroup as String: "OTHER.group"]
                ]) { $1 }, errSecMissingEntitlement
            ),
            (
                "token key that may leave the device",
                ec.merging([
                    kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                    kSecPrivateKeyAttrs as String: [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
                ]) { $1 }, errSecParam
            ),
            (
                "token key that is synchronizable",
                ec.merging([
                    kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave, kSecAttrSynchronizable as String: true
                ]) { $1 }, errSecParam
            )
        ]
        for (situation, parameters, expected) in rows {
            let outcome = create(parameters)
            XCTAssertNil(outcome.value, situation)
            XCTAssertEqual(outcome.status, expected, "\(situation): \(outcome.message ?? "")")
            XCTAssertFalse(outcome.message?.isEmpty ?? true, situation)
        }

        let usage = try XCTUnwrap(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil))
        let software = create(
            ec.merging([kSecPrivateKeyAttrs as String: [kSecAttrAccessControl as String: usage]]) { $1 })
        XCTAssertEqual(software.status, errSecParam, "privateKeyUsage needs a key generated inside the keychain")
        XCTAssertTrue(software.message?.contains("kSecAttrTokenID") == true, software.message ?? "")
    }

    func testPermanentPublicKeyIsStoredToo() throws {
        let key = try makeKey(
            [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("pair".utf8)],
            top: [
                kSecPublicKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("pair".utf8)
                ]
            ])
        let found = copy(
            keyQuery(tag: "pair", [kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnRef as String: true]))
        XCTAssertEqual(found.status, errSecSuccess)
        let keys = try XCTUnwrap(found.result as? [SecKey])
        XCTAssertEqual(Set(keys), [key, try self.publicKey(of: key)])
    }

    // MARK: - Signatures

    func testEverySignatureAlgorithmRoundTrips() throws {
        let messageAlgorithms: [SecKeyAlgorithm] = [
            .ecdsaSignatureMessageX962SHA1, .ecdsaSignatureMessageX962SHA256, .ecdsaSignatureMessageX962SHA384,
            .ecdsaSignatureMessageX962SHA512,
            .ecdsaSignatureMessageRFC4754SHA1, .ecdsaSignatureMessageRFC4754SHA256, .ecdsaSignatureMessageRFC4754SHA384,
            .ecdsaSignatureMessageRFC4754SHA512
        ]
        let digestAlgorithms: [(SecKeyAlgorithm, Int)] = [
            (.ecdsaSignatureDigestX962SHA1, 20), (.ecdsaSignatureDigestX962SHA256, 32),
            (.ecdsaSignatureDigestX962SHA384, 48),
            (.ecdsaSignatureDigestX962SHA512, 64), (.ecdsaSignatureDigestX962, 40),
            (.ecdsaSignatureDigestRFC4754SHA256, 32),
            (.ecdsaSignatureDigestRFC4754SHA512, 64), (.ecdsaSignatureDigestRFC4754, 17), (.ecdsaSignatureRFC4754, 32)
        ]
        let message = Data("a message to sign".utf8)
        for bits in Self.curves {
            let key = try makeKey(bits: bits)
            let publicKey = try self.publicKey(of: key)
            let cases =
                messageAlgorithms.map { ($0, message) }
                + digestAlgorithms.map { ($0.0, Data((0..<$0.1).map { UInt8($0) })) }
            for (algorithm, input) in cases {
                XCTAssertTrue(SecKeyIsAlgorithmSupported(key, .sign, algorithm), "\(bits) \(algorithm)")
                XCTAssertTrue(SecKeyIsAlgorithmSupported(publicKey, .verify, algorithm), "\(bits) \(algorithm)")
                let signature = try sign(key, algorithm, input)
                if algorithm.rawValue.contains("RFC4754") {
                    XCTAssertEqual(signature.count, 2 * SecKeyGetBlockSize(key), "raw r ‖ s")
                } else {
                    XCTAssertEqual(signature.first, 0x30, "DER sequence")
                }
                XCTAssertTrue(verify(publicKey, algorithm, input, signature).valid, "\(bits) \(algorithm)")
                var tampered = input
                tampered[tampered.startIndex] ^= 1
                let rejected = verify(publicKey, algorithm, tampered, signature)
                XCTAssertFalse(rejected.valid)
                XCTAssertEqual(rejected.status, errSecVerifyFailed, "\(bits) \(algorithm)")
            }
        }
    }

    func testSignaturesInteroperateWithSwiftCrypto() throws {
        let message = Data("interoperable".utf8)
        // P-256: ours verified by swift-crypto, swift-crypto's verified by us (DER and raw).
        let key = try makeKey(bits: 256)
        let ours = try sign(key, .ecdsaSignatureMessageX962SHA256, message)
        let theirPublic = try P256.Signing.PublicKey(x963Representation: external(self.publicKey(of: key)))
        XCTAssertTrue(
            theirPublic.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: ours), for: message))
        let raw = try sign(key, .ecdsaSignatureMessageRFC4754SHA256, message)
        XCTAssertTrue(
            theirPublic.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: raw), for: message))

        let theirs = P256.Signing.PrivateKey()
        let signature = try theirs.signature(for: message)
        let imported = try XCTUnwrap(
            SecKeyCreateWithData(
                theirs.publicKey.x963Representation as CFData,
                [
                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPublic
                ] as CFDictionary, nil))
        XCTAssertTrue(verify(imported, .ecdsaSignatureMessageX962SHA256, message, signature.derRepresentation).valid)
        XCTAssertTrue(verify(imported, .ecdsaSignatureMessageRFC4754SHA256, message, signature.rawRepresentation).valid)
        XCTAssertTrue(
            verify(
                imported, .ecdsaSignatureDigestX962SHA256, Data(SHA256.hash(data: message)), signature.derRepresentation
            ).valid)
        XCTAssertFalse(
            verify(imported, .ecdsaSignatureMessageX962SHA256, Data("other".utf8), signature.derRepresentation).valid)

        // A swift-crypto private key imported (04 ‖ X ‖ Y ‖ K) signs for its own public key.
        let importedPrivate = try XCTUnwrap(
            SecKeyCreateWithData(
                theirs.x963Representation as CFData,
                [
                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
                ] as CFDictionary, nil))
        let fromImported = try sign(importedPrivate, .ecdsaSignatureMessageX962SHA256, message)
        XCTAssertTrue(
            theirs.publicKey.isValidSignature(
                try P256.Signing.ECDSASignature(derRepresentation: fromImported), for: message))

        // P-384 and P-521 with their usual hashes.
        let p384 = try makeKey(bits: 384)
        let p384Signature = try sign(p384, .ecdsaSignatureMessageX962SHA384, message)
        XCTAssertTrue(
            try P384.Signing.PublicKey(x963Representation: external(self.publicKey(of: p384)))
                .isValidSignature(try P384.Signing.ECDSASignature(derRepresentation: p384Signature), for: message))
        let p521 = try makeKey(bits: 521)
        let p521Signature = try sign(p521, .ecdsaSignatureMessageX962SHA512, message)
        XCTAssertTrue(
            try P521.Signing.PublicKey(x963Representation: external(self.publicKey(of: p521)))
                .isValidSignature(try P521.Signing.ECDSASignature(derRepresentation: p521Signature), for: message))
    }

    func testSignatureErrors() throws {
        let key = try makeKey()
        let publicKey = try self.publicKey(of: key)
        let message = Data("m".utf8)
        func signing(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) -> SecKeyOutcome<CFData> {
            secKeyCall { SecKeyCreateSignature(key, algorithm, data as CFData, $0) }
        }
        XCTAssertEqual(
            signing(publicKey, .ecdsaSignatureMessageX962SHA256, message).status, errSecParam,
            "a public key cannot sign")
        XCTAssertEqual(
            signing(key, .rsaSignatureMessagePKCS1v15SHA256, message).status, errSecParam,
            "RSA algorithm with an EC key")
        XCTAssertEqual(
            signing(key, .eciesEncryptionStandardX963SHA256AESGCM, message).status, errSecParam,
            "not a signature algorithm")
        XCTAssertEqual(
            signing(key, SecKeyAlgorithm(rawValue: "algid:sign:ECDSA:nonsense" as CFString), message).status,
            errSecParam)
        // SHA-224, as Apple: a message signature verifies as a signature of the message's SHA-224
        // digest (computed independently: FIPS 180-4's "abc" example).
        let abc = Data("abc".utf8)
        let sha224Signature = try sign(key, .ecdsaSignatureMessageX962SHA224, abc)
        let abcDigest = Data([
            0x23, 0x09, 0x7d, 0x22, 0x34, 0x05, 0xd8, 0x22, 0x86, 0x42, 0xa4, 0x77, 0xbd, 0xa2, 0x55, 0xb3,
            0x2a, 0xad, 0xbc, 0xe4, 0xbd, 0xa0, 0xb3, 0xf7, 0xe3, 0x6c, 0x9d, 0xa7
        ])
        XCTAssertTrue(verify(publicKey, .ecdsaSignatureDigestX962SHA224, abcDigest, sha224Signature).valid)
        XCTAssertTrue(verify(publicKey, .ecdsaSignatureMessageX962SHA224, abc, sha224Signature).valid)
        XCTAssertFalse(verify(publicKey, .ecdsaSignatureMessageX962SHA224, Data("abd".utf8), sha224Signature).valid)
        XCTAssertTrue(
            verify(
                publicKey, .ecdsaSignatureMessageRFC4754SHA224, abc,
                try sign(key, .ecdsaSignatureMessageRFC4754SHA224, abc)
            ).valid)
        XCTAssertEqual(
            signing(key, .ecdsaSignatureDigestX962SHA224, Data(count: 32)).status, errSecParam,
            "a SHA-224 digest has 28 bytes")
        XCTAssertEqual(
            signing(key, .ecdsaSignatureDigestX962SHA256, Data(count: 31)).status, errSecParam, "wrong digest size")
        XCTAssertEqual(signing(key, .ecdsaSignatureDigestX962, Data()).status, errSecParam, "empty digest")
        XCTAssertTrue(
            signing(key, .rsaSignatureMessagePKCS1v15SHA256, message).message?.contains(
                "algorithm not supported by the key") == true)

        let signature = try sign(key, .ecdsaSignatureMessageX962SHA256, message)
        XCTAssertEqual(
            verify(key, .ecdsaSignatureMessageX962SHA256, message, signature).status, errSecParam,
            "verify needs the public key")
        XCTAssertEqual(
            verify(publicKey, .ecdsaSignatureMessageX962SHA256, message, Data("not DER".utf8)).status,
            errSecVerifyFailed)
        XCTAssertEqual(
            verify(publicKey, .ecdsaSignatureMessageRFC4754SHA256, message, Data(count: 10)).status, errSecVerifyFailed)
        let other = try self.publicKey(of: makeKey())
        XCTAssertEqual(
            verify(other, .ecdsaSignatureMessageX962SHA256, message, signature).status, errSecVerifyFailed,
            "another key's signature")

        // SecKeyIsAlgorithmSupported follows the same rules.
        XCTAssertFalse(SecKeyIsAlgorithmSupported(publicKey, .sign, .ecdsaSignatureMessageX962SHA256))
        XCTAssertFalse(SecKeyIsAlgorithmSupported(key, .verify, .ecdsaSignatureMessageX962SHA256))
        XCTAssertFalse(SecKeyIsAlgorithmSupported(key, .sign, .rsaSignatureMessagePKCS1v15SHA256))
        XCTAssertTrue(SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA224))
        XCTAssertFalse(SecKeyIsAlgorithmSupported(key, .encrypt, .ecdsaSignatureMessageX962SHA256))
        XCTAssertTrue(SecKeyIsAlgorithmSupported(key, .keyExchange, .ecdhKeyExchangeStandard))
        XCTAssertFalse(SecKeyIsAlgorithmSupported(publicKey, .keyExchange, .ecdhKeyExchangeStandard))
        XCTAssertTrue(
            SecKeyIsAlgorithmSupported(publicKey, .encrypt, .eciesEncryptionStandardVariableIVX963SHA256AESGCM))
        XCTAssertTrue(SecKeyIsAlgorithmSupported(key, .decrypt, .eciesEncryptionStandardVariableIVX963SHA256AESGCM))
        XCTAssertFalse(SecKeyIsAlgorithmSupported(key, .encrypt, .eciesEncryptionStandardVariableIVX963SHA256AESGCM))
    }

    // MARK: - Export and import

    func testCreateWithDataRoundTripsAndRejectsBadInput() throws {
        let ecPrivate: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
        ]
        let ecPublic: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic
        ]
        func create(_ data: Data, _ attributes: [String: Any]) -> SecKeyOutcome<SecKey> {
            secKeyCall { SecKeyCreateWithData(data as CFData, attributes as CFDictionary, $0) }
        }
        for bits in Self.curves {
            let key = try makeKey(bits: bits)
            let privateBytes = try external(key)
            let publicBytes = try external(self.publicKey(of: key))
            let restored = try XCTUnwrap(
                create(privateBytes, ecPrivate.merging([kSecAttrKeySizeInBits as String: bits]) { $1 }).value)
            XCTAssertEqual(restored, key, "the same private key")
            XCTAssertEqual(try external(restored), privateBytes)
            let restoredPublic = try XCTUnwrap(create(publicBytes, ecPublic).value)
            XCTAssertEqual(restoredPublic, try self.publicKey(of: key))
            XCTAssertNotEqual(restoredPublic, restored, "public and private halves differ")
            // A signature by the restored key verifies with the original public key.
            let signature = try sign(restored, .ecdsaSignatureMessageX962SHA256, Data("x".utf8))
            XCTAssertTrue(
                verify(try self.publicKey(of: key), .ecdsaSignatureMessageX962SHA256, Data("x".utf8), signature).valid)
        }
        let key = try makeKey()
        let privateBytes = try external(key)
        let publicBytes = try external(self.publicKey(of: key))
        var offCurve = publicBytes
        offCurve[offCurve.index(before: offCurve.endIndex)] ^= 1
        var otherScalar = privateBytes
        otherScalar.replaceSubrange(65..., with: try external(makeKey()).suffix(32))
        let rows: [(String, Data, [String: Any], OSStatus)] = [
            ("missing type", publicBytes, [kSecAttrKeyClass as String: kSecAttrKeyClassPublic], errSecParam),
            ("unknown type", publicBytes, ecPublic.merging([kSecAttrKeyType as String: "12"]) { $1 }, errSecParam),
            (
                "EC bytes said to be RSA", publicBytes,
                ecPublic.merging([kSecAttrKeyType as String: kSecAttrKeyTypeRSA]) { $1 }, errSecParam
            ),
            ("missing class", publicBytes, [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom], errSecParam),
            (
                "symmetric class", publicBytes,
                ecPublic.merging([kSecAttrKeyClass as String: kSecAttrKeyClassSymmetric]) { $1 }, errSecUnimplemented
            ),
            (
                "token ID", privateBytes,
                ecPrivate.merging([kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave]) { $1 }, errSecParam
            ),
            // Apple: "EC public/private key creation from data failed", errSecParam.
            ("public bytes said to be private", publicBytes, ecPrivate, errSecParam),
            ("truncated", publicBytes.dropLast(), ecPublic, errSecParam),
            ("compressed form", Data([0x02]) + publicBytes[1..<33], ecPublic, errSecParam),
            ("point not on the curve", offCurve, ecPublic, errSecParam),
            ("scalar of another key", otherScalar, ecPrivate, errSecParam)
        ]
        let sized = create(publicBytes, ecPublic.merging([kSecAttrKeySizeInBits as String: 384]) { $1 })
        XCTAssertNotNil(
            sized.value,
            "as Apple's, kSecAttrKeySizeInBits is not read; the data says the curve: \(sized.message ?? "")")
        for (situation, data, attributes, expected) in rows {
            let outcome = create(data, attributes)
            XCTAssertNil(outcome.value, situation)
            XCTAssertEqual(outcome.status, expected, "\(situation): \(outcome.message ?? "")")
        }
    }

    // MARK: - Key exchange

    func testKeyExchangeMatchesSwiftCrypto() throws {
        for bits in Self.curves {
            let alice = try makeKey(bits: bits)
            let bob = try makeKey(bits: bits)
            func exchange(
                _ privateKey: SecKey, _ publicKey: SecKey, _ algorithm: SecKeyAlgorithm,
                _ parameters: [String: Any] = [:]
            ) throws -> Data {
                let outcome = secKeyCall {
                    SecKeyCopyKeyExchangeResult(privateKey, algorithm, publicKey, parameters as CFDictionary, $0)
                }
                return try XCTUnwrap(outcome.value as Data?, "\(algorithm): \(outcome.message ?? "")")
            }
            let raw = try exchange(alice, self.publicKey(of: bob), .ecdhKeyExchangeStandard)
            XCTAssertEqual(raw, try exchange(bob, self.publicKey(of: alice), .ecdhKeyExchangeStandard))
            XCTAssertEqual(
                raw, try exchange(alice, self.publicKey(of: bob), .ecdhKeyExchangeCofactor),
                "cofactor 1 on the NIST curves")
            XCTAssertEqual(raw.count, (bits + 7) / 8)

            // The same secret through swift-crypto, from the exported keys.
            let aliceBytes = try external(alice)
            let bobPublic = try external(self.publicKey(of: bob))
            let info = Data("shared info".utf8)
            let expectedRaw: Data
            let expectedDerived: Data
            switch bits {
            case 256:
                let secret = try P256.KeyAgreement.PrivateKey(x963Representation: aliceBytes)
                    .sharedSecretFromKeyAgreement(with: .init(x963Representation: bobPublic))
                expectedRaw = secret.withUnsafeBytes { Data($0) }
                expectedDerived = secret.x963DerivedSymmetricKey(
                    using: SHA256.self, sharedInfo: info, outputByteCount: 42
                ).withUnsafeBytes { Data($0) }
            case 384:
                let secret = try P384.KeyAgreement.PrivateKey(x963Representation: aliceBytes)
                    .sharedSecretFromKeyAgreement(with: .init(x963Representation: bobPublic))
                expectedRaw = secret.withUnsafeBytes { Data($0) }
                expectedDerived = secret.x963DerivedSymmetricKey(
                    using: SHA256.self, sharedInfo: info, outputByteCount: 42
                ).withUnsafeBytes { Data($0) }
            default:
                let secret = try P521.KeyAgreement.PrivateKey(x963Representation: aliceBytes)
                    .sharedSecretFromKeyAgreement(with: .init(x963Representation: bobPublic))
                expectedRaw = secret.withUnsafeBytes { Data($0) }
                expectedDerived = secret.x963DerivedSymmetricKey(
                    using: SHA256.self, sharedInfo: info, outputByteCount: 42
                ).withUnsafeBytes { Data($0) }
            }
            XCTAssertEqual(raw, expectedRaw)
            let parameters: [String: Any] = [
                kSecKeyKeyExchangeParameterRequestedSize.rawValue as String: 42,
                kSecKeyKeyExchangeParameterSharedInfo.rawValue as String: info
            ]
            XCTAssertEqual(
                try exchange(alice, self.publicKey(of: bob), .ecdhKeyExchangeStandardX963SHA256, parameters),
                expectedDerived)
            XCTAssertEqual(
                try exchange(bob, self.publicKey(of: alice), .ecdhKeyExchangeCofactorX963SHA256, parameters),
                expectedDerived)
        }
    }

    func testKeyExchangeErrors() throws {
        let key = try makeKey()
        let peer = try self.publicKey(of: makeKey())
        func exchange(
            _ privateKey: SecKey, _ publicKey: SecKey, _ algorithm: SecKeyAlgorithm, _ parameters: [String: Any]
        ) -> SecKeyOutcome<CFData> {
            secKeyCall { SecKeyCopyKeyExchangeResult(privateKey, algorithm, publicKey, parameters as CFDictionary, $0) }
        }
        let size = kSecKeyKeyExchangeParameterRequestedSize.rawValue as String
        let info = kSecKeyKeyExchangeParameterSharedInfo.rawValue as String
        XCTAssertEqual(
            exchange(key, peer, .ecdhKeyExchangeStandardX963SHA256, [:]).status, errSecParam,
            "RequestedSize is required")
        XCTAssertEqual(exchange(key, peer, .ecdhKeyExchangeStandardX963SHA256, [size: 0]).status, errSecParam)
        XCTAssertEqual(exchange(key, peer, .ecdhKeyExchangeStandardX963SHA256, [size: "32"]).status, errSecParam)
        XCTAssertEqual(
            exchange(key, peer, .ecdhKeyExchangeStandardX963SHA256, [size: 32, info: "text"]).status, errSecParam)
        XCTAssertEqual(
            (exchange(key, peer, .ecdhKeyExchangeStandardX963SHA224, [size: 40]).value as Data?)?.count, 40,
            "SHA-224, as Apple")
        XCTAssertEqual(
            exchange(key, try makeKey(), .ecdhKeyExchangeStandard, [:]).status, errSecParam, "peer must be a public key"
        )
        XCTAssertEqual(
            exchange(key, try self.publicKey(of: makeKey(bits: 384)), .ecdhKeyExchangeStandard, [:]).status,
            errSecParam, "curves differ")
        XCTAssertEqual(
            exchange(peer, peer, .ecdhKeyExchangeStandard, [:]).status, errSecParam, "a public key cannot exchange")
        XCTAssertEqual(
            exchange(key, peer, .ecdsaSignatureMessageX962SHA256, [:]).status, errSecParam,
            "not a key-exchange algorithm")
        XCTAssertNotNil(exchange(key, peer, .ecdhKeyExchangeStandard, [size: "ignored without a KDF"]).value)
    }

    // MARK: - Objects

    func testEqualityHashingAndTypeIDs() throws {
        let key = try makeKey()
        let same = try XCTUnwrap(
            SecKeyCreateWithData(
                try external(key) as CFData,
                [
                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
                ] as CFDictionary, nil))
        let other = try makeKey()
        XCTAssertEqual(key, same)
        XCTAssertEqual(key.hashValue, same.hashValue)
        XCTAssertNotEqual(key, other)
        XCTAssertEqual(try self.publicKey(of: key), try self.publicKey(of: same))
        XCTAssertEqual(Set([key, same, other, try self.publicKey(of: key)]).count, 3)
        let asAnyHashable: [String: AnyHashable] = ["key": key]
        XCTAssertEqual(asAnyHashable["key"], AnyHashable(same))
        let publicKey = try self.publicKey(of: key)
        XCTAssertTrue(SecKeyCopyPublicKey(publicKey) === publicKey, "a public key's public key is itself")

        XCTAssertEqual(CFGetTypeID(key), SecKeyGetTypeID())
        XCTAssertEqual(CFGetTypeID(Data() as CFData), CFDataGetTypeID())
        XCTAssertEqual(CFGetTypeID("s" as CFString), CFStringGetTypeID())
        XCTAssertEqual(CFGetTypeID(kCFBooleanTrue), CFBooleanGetTypeID())
        XCTAssertEqual(CFGetTypeID(NSNumber(value: 3)), CFNumberGetTypeID())
        XCTAssertNotEqual(SecKeyGetTypeID(), CFDataGetTypeID())
    }
}
#endif
