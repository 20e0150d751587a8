#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux SecKey implementation; on Apple platforms these are Apple's.
import AuthenticationTestSupport
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// Keys in the keychain: permanent and keychain-generated keys, `kSecReturnRef`, `kSecValueRef`.
final class SecKeyItemTests: SecItemTestCase {
    let message = Data("sign me".utf8)

    // MARK: - Keys generated inside the keychain

    func testTokenKeySignsIsNotExportableAndIsFoundByTag() throws {
        let key = try makeKey(
            token: true,
            [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("com.acme.signing".utf8),
                kSecAttrLabel as String: "Signing key"
            ])
        let publicKey = try self.publicKey(of: key)
        let signature = try sign(key, .ecdsaSignatureMessageX962SHA256, message)
        XCTAssertTrue(verify(publicKey, .ecdsaSignatureMessageX962SHA256, message, signature).valid)
        XCTAssertTrue(
            try P256.Signing.PublicKey(x963Representation: external(publicKey))
                .isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message),
            "swift-crypto agrees")

        let export = secKeyCall { SecKeyCopyExternalRepresentation(key, $0) }
        XCTAssertNil(export.value, "a keychain-generated private key is not exportable")
        XCTAssertEqual(export.status, errSecUnimplemented)
        let attributes = try XCTUnwrap(SecKeyCopyAttributes(key) as? [String: Any])
        XCTAssertNil(attributes[kSecValueData as String], "no key material in the attributes")
        XCTAssertEqual(attributes[kSecAttrTokenID as String] as? String, "com.apple.setoken")
        XCTAssertEqual(attributes[kSecAttrApplicationTag as String] as? Data, Data("com.acme.signing".utf8))
        XCTAssertEqual(attributes[kSecAttrLabel as String] as? String, "Signing key")
        XCTAssertEqual(attributes[kSecAttrIsPermanent as String] as? Bool, true)
        XCTAssertEqual(attributes[kSecAttrIsExtractable as String] as? Bool, false)
        XCTAssertTrue(key.description.contains("com.apple.setoken"))

        // Found by tag (the seed's query), as a SecKey that signs.
        let query = keyQuery(
            tag: "com.acme.signing",
            [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecReturnRef as String: true])
        let found = copy(query)
        XCTAssertEqual(found.status, errSecSuccess)
        let foundKey = try XCTUnwrap(found.result as? SecKey)
        XCTAssertEqual(foundKey, key)
        let again = try sign(foundKey, .ecdsaSignatureMessageX962SHA256, message)
        XCTAssertTrue(verify(publicKey, .ecdsaSignatureMessageX962SHA256, message, again).valid)
        XCTAssertEqual(SecItemDelete(query.filter { $0.key != kSecReturnRef as String } as CFDictionary), errSecSuccess)
        XCTAssertEqual(copy(query).status, errSecItemNotFound)
        let afterDelete = secKeyCall {
            SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, self.message as CFData, $0)
        }
        XCTAssertEqual(afterDelete.status, errSecItemNotFound, "the key item is gone")
    }

    func testTokenKeySurvivesANewKeychainInstance() throws {
        let key = try makeKey(bits: 384, token: true, [kSecAttrApplicationTag as String: Data("survivor".utf8)])
        let publicBytes = try external(self.publicKey(of: key))
        SecItemEnvironment.useKeychain(try Keychain(location: keychain.location, options: keychain.options))
        let found = copy(keyQuery(tag: "survivor", [kSecReturnRef as String: true]))
        let foundKey = try XCTUnwrap(found.result as? SecKey)
        XCTAssertEqual(try external(self.publicKey(of: foundKey)), publicBytes)
        let signature = try sign(foundKey, .ecdsaSignatureMessageX962SHA384, message)
        XCTAssertTrue(
            try P384.Signing.PublicKey(x963Representation: publicBytes)
                .isValidSignature(try P384.Signing.ECDSASignature(derRepresentation: signature), for: message))
    }

    func testSearchResultsNeverContainATokenKeysPrivateScalar() throws {
        let key = try makeKey(token: true, [kSecAttrApplicationTag as String: Data("t".utf8)])
        let publicBytes = try external(self.publicKey(of: key))
        let data = copy(keyQuery(tag: "t", [kSecReturnData as String: true]))
        XCTAssertEqual(data.status, errSecSuccess)
        XCTAssertEqual(data.result as? Data, Data(), "kSecReturnData on a keychain-generated key gives empty data")

        let everything = copy(
            keyQuery(
                tag: "t",
                [
                    kSecReturnData as String: true, kSecReturnAttributes as String: true,
                    kSecReturnRef as String: true, kSecReturnPersistentRef as String: true
                ]))
        let dictionary = try XCTUnwrap(everything.result as? [String: Any])
        XCTAssertEqual(dictionary[kSecValueData as String] as? Data, Data())
        XCTAssertTrue(dictionary[kSecValueRef as String] is SecKey)
        // A P-256 scalar is 32 bytes; no data value of that size may appear.
        for (name, value) in dictionary {
            if let bytes = value as? Data { XCTAssertNotEqual(bytes.count, 32, "\(name) could be a private scalar") }
        }
        XCTAssertEqual(
            dictionary[kSecAttrApplicationLabel as String] as? Data, Data(Insecure.SHA1.hash(data: publicBytes)),
            "application label = SHA-1 of the X9.63 public key")
        XCTAssertEqual(dictionary[kSecAttrKeyClass as String] as? Int, 1, "SecItem results give numbers")
        XCTAssertEqual(dictionary[kSecAttrKeyType as String] as? Int, 73)
        XCTAssertEqual(dictionary[kSecClass as String] as? String, "keys", "class comes with a reference")
    }

    func testTokenKeyIsAlreadyStored() throws {
        let key = try makeKey(token: true)
        let added = secItemAdd([kSecValueRef as String: key])
        XCTAssertEqual(added, errSecDuplicateItem)
    }

    func testTokenKeyWithPrivateKeyUsageAsksTheAuthenticator() throws {
        let authenticator = ScriptedAuthenticator()
        authenticator.script([.success(.biometry), .canceled, .success(.passcode)], fallback: .failed)
        keychain.authenticator = authenticator
        try authenticator.enroll(in: keychain)
        let control = try XCTUnwrap(
            SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .userPresence], nil))
        let context = LAContext(reuseDuration: 0)
        let key = try makeKey(
            token: true,
            [kSecAttrAccessControl as String: control, kSecAttrApplicationTag as String: Data("guarded".utf8)],
            top: [kSecUseAuthenticationContext as String: context])
        XCTAssertEqual(authenticator.requests.count, 0, "creating the key does not prompt")
        _ = try sign(key, .ecdsaSignatureMessageX962SHA256, message)
        XCTAssertEqual(authenticator.requests.last?.operation, "private key")
        let canceled = secKeyCall {
            SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, self.message as CFData, $0)
        }
        XCTAssertEqual(canceled.status, errSecUserCanceled)
        _ = try sign(key, .ecdsaSignatureMessageX962SHA256, message)
        XCTAssertEqual(authenticator.requests.count, 3)

        // A key found with kSecUseAuthenticationUIFail keeps that choice for its operations.
        let found = copy(
            keyQuery(
                tag: "guarded",
                [kSecReturnRef as String: true, kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]))
        let quiet = try XCTUnwrap(found.result as? SecKey)
        let refused = secKeyCall {
            SecKeyCreateSignature(quiet, .ecdsaSignatureMessageX962SHA256, self.message as CFData, $0)
        }
        XCTAssertEqual(refused.status, errSecInteractionNotAllowed)
        XCTAssertEqual(authenticator.requests.count, 3, "no prompt with UI fail")
        let attributes = try XCTUnwrap(SecKeyCopyAttributes(key) as? [String: Any])
        XCTAssertEqual(
            (attributes[kSecAttrAccessControl as String] as? SecAccessControl)?.flags, [.privateKeyUsage, .userPresence]
        )
    }

    func testTokenKeyIsUnavailableWhileLocked() throws {
        let key = try makeKey(token: true)
        try keychain.setPassphrase("pass")
        try SecItemEnvironment.lock()
        let locked = secKeyCall {
            SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, self.message as CFData, $0)
        }
        XCTAssertEqual(locked.status, errSecInteractionNotAllowed)
        try SecItemEnvironment.unlock(passphrase: "pass")
        _ = try sign(key, .ecdsaSignatureMessageX962SHA256, message)
    }

    // MARK: - Permanent software keys

    func testPermanentSoftwareKeyIsStoredWithApplesAttributes() throws {
        let key = try makeKey(
            bits: 384,
            [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("soft".utf8),
                kSecAttrLabel as String: "Software key"
            ])
        let privateBytes = try external(key)
        let publicBytes = try external(self.publicKey(of: key))
        let found = copy(keyQuery(tag: "soft", [kSecReturnAttributes as String: true, kSecReturnData as String: true]))
        XCTAssertEqual(found.status, errSecSuccess)
        let item = try XCTUnwrap(found.result as? [String: Any])
        XCTAssertEqual(item[kSecValueData as String] as? Data, privateBytes, "stored as X9.63 04 ‖ X ‖ Y ‖ K")
        XCTAssertEqual(item[kSecAttrKeyClass as String] as? Int, 1)
        XCTAssertEqual(item[kSecAttrKeyType as String] as? Int, 73)
        XCTAssertEqual(item[kSecAttrKeySizeInBits as String] as? Int, 384)
        XCTAssertEqual(item[kSecAttrApplicationLabel as String] as? Data, Data(Insecure.SHA1.hash(data: publicBytes)))
        XCTAssertEqual(item[kSecAttrLabel as String] as? String, "Software key")
        XCTAssertEqual(item[kSecAttrIsPermanent as String] as? Int, 1)
        XCTAssertEqual(item[kSecAttrCanSign as String] as? Int, 1)
        XCTAssertNil(item[kSecAttrTokenID as String])

        let reference = copy(keyQuery(tag: "soft", [kSecReturnRef as String: true]))
        let foundKey = try XCTUnwrap(reference.result as? SecKey)
        XCTAssertEqual(foundKey, key)
        let signature = try sign(foundKey, .ecdsaSignatureMessageX962SHA384, message)
        XCTAssertTrue(verify(try self.publicKey(of: key), .ecdsaSignatureMessageX962SHA384, message, signature).valid)
        let attributes = try XCTUnwrap(SecKeyCopyAttributes(foundKey) as? [String: Any])
        XCTAssertEqual(attributes[kSecAttrApplicationTag as String] as? Data, Data("soft".utf8))
        XCTAssertEqual(attributes[kSecAttrIsPermanent as String] as? Bool, true)
    }

    func testReferenceResultShapes() throws {
        let first = try makeKey([
            kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("shape".utf8),
            kSecAttrLabel as String: "1"
        ])
        let second = try makeKey([
            kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("shape".utf8),
            kSecAttrLabel as String: "2"
        ])
        let all = copy(
            keyQuery(tag: "shape", [kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll]))
        XCTAssertEqual(
            try XCTUnwrap(all.result as? [SecKey]), [first, second], "an array of SecKeys in insertion order")

        let several = copy(
            keyQuery(
                tag: "shape",
                [
                    kSecReturnRef as String: true, kSecReturnPersistentRef as String: true,
                    kSecAttrLabel as String: "2"
                ]))
        let dictionary = try XCTUnwrap(several.result as? [String: Any])
        XCTAssertEqual(dictionary[kSecValueRef as String] as? SecKey, second)
        XCTAssertNotNil(dictionary[kSecValuePersistentRef as String] as? Data)
        XCTAssertEqual(dictionary[kSecClass as String] as? String, "keys")
        XCTAssertNotNil(dictionary[kSecAttrApplicationTag as String], "full attributes with a reference")
        XCTAssertNil(dictionary[kSecValueData as String], "no data unless asked")
        XCTAssertNil(dictionary["sha1"], "the item digest only with data")

        // A reference from a persistent reference.
        let persistent = try XCTUnwrap(dictionary[kSecValuePersistentRef as String] as? Data)
        let byReference = copy([kSecValuePersistentRef as String: persistent, kSecReturnRef as String: true])
        XCTAssertEqual(byReference.result as? SecKey, second)

        // SecItemAdd returns a reference too, and the key it adds can be used.
        let imported = P256.Signing.PrivateKey()
        var result: AnyObject?
        XCTAssertEqual(
            SecItemAdd(
                [
                    kSecClass as String: kSecClassKey, kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                    kSecAttrApplicationTag as String: Data("imported".utf8),
                    kSecValueData as String: imported.x963Representation, kSecReturnRef as String: true
                ] as CFDictionary, &result), errSecSuccess)
        let added = try XCTUnwrap(result as? SecKey)
        let signature = try sign(added, .ecdsaSignatureMessageX962SHA256, message)
        XCTAssertTrue(
            imported.publicKey.isValidSignature(
                try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
    }

    // MARK: - kSecValueRef

    func testAddingKeysByReference() throws {
        let key = try makeKey()
        let publicKey = try self.publicKey(of: key)
        XCTAssertEqual(
            secItemAdd([kSecValueRef as String: key, kSecAttrApplicationTag as String: Data("by-ref".utf8)]),
            errSecSuccess)
        XCTAssertEqual(
            secItemAdd([kSecValueRef as String: key, kSecAttrApplicationTag as String: Data("by-ref".utf8)]),
            errSecDuplicateItem)
        XCTAssertEqual(
            secItemAdd([
                kSecClass as String: kSecClassKey, kSecValueRef as String: publicKey,
                kSecAttrApplicationTag as String: Data("by-ref".utf8)
            ]), errSecSuccess, "the public half is another item (kcls 0)")
        XCTAssertEqual(
            secItemAdd([kSecClass as String: kSecClassGenericPassword, kSecValueRef as String: key]), errSecParam)
        XCTAssertEqual(secItemAdd([kSecValueRef as String: "not a key"]), errSecParam)

        let stored = copy(
            keyQuery(
                tag: "by-ref", [kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecReturnData as String: true]))
        XCTAssertEqual(stored.result as? Data, try external(key))
        let storedPublic = copy(
            keyQuery(tag: "by-ref", [kSecAttrKeyClass as String: kSecAttrKeyClassPublic, kSecReturnRef as String: true])
        )
        XCTAssertEqual(storedPublic.result as? SecKey, publicKey)
    }

    func testKeyItemsOfEveryCurveAndHalfComeBackAsTheirKeys() throws {
        // A P-256 private key and a P-384 public key are both 97 bytes: the class decides.
        for bits in [256, 384, 521] {
            let key = try makeKey(bits: bits)
            let publicKey = try self.publicKey(of: key)
            let tag = Data("curve-\(bits)".utf8)
            XCTAssertEqual(
                secItemAdd([kSecValueRef as String: key, kSecAttrApplicationTag as String: tag]), errSecSuccess)
            XCTAssertEqual(
                secItemAdd([kSecValueRef as String: publicKey, kSecAttrApplicationTag as String: tag]), errSecSuccess)
            for (keyClass, expected) in [(kSecAttrKeyClassPrivate, key), (kSecAttrKeyClassPublic, publicKey)] {
                let found = copy([
                    kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                    kSecAttrKeyClass as String: keyClass, kSecReturnRef as String: true
                ])
                XCTAssertEqual(found.status, errSecSuccess, "\(bits) \(keyClass)")
                XCTAssertEqual(found.result as? SecKey, expected, "\(bits) \(keyClass)")
            }
        }
    }

    func testSearchingUpdatingAndDeletingByReference() throws {
        // A key that is not from the keychain is matched by its application label.
        let key = try makeKey()
        XCTAssertEqual(secItemAdd([kSecValueRef as String: key, kSecAttrLabel as String: "before"]), errSecSuccess)
        let other = try makeKey([kSecAttrIsPermanent as String: true])
        let byLabel = copy([kSecValueRef as String: key, kSecReturnAttributes as String: true])
        XCTAssertEqual(byLabel.status, errSecSuccess)
        XCTAssertEqual((byLabel.result as? [String: Any])?[kSecAttrLabel as String] as? String, "before")
        XCTAssertEqual(
            copy([kSecValueRef as String: try self.publicKey(of: key)]).status, errSecItemNotFound,
            "the public half is not stored")

        XCTAssertEqual(
            SecItemUpdate(
                [kSecValueRef as String: key] as CFDictionary, [kSecAttrLabel as String: "after"] as CFDictionary),
            errSecSuccess)
        XCTAssertEqual(
            (copy([kSecClass as String: kSecClassKey, kSecValueRef as String: key, kSecReturnAttributes as String: true]
            )
            .result as? [String: Any])?[kSecAttrLabel as String] as? String, "after")
        XCTAssertEqual(
            copy([kSecValueRef as String: key, kSecAttrLabel as String: "before"]).status, errSecItemNotFound,
            "explicit attributes still filter")

        // A key from the keychain is matched by its persistent reference.
        XCTAssertEqual(copy([kSecValueRef as String: other]).status, errSecSuccess)
        XCTAssertEqual(SecItemDelete([kSecValueRef as String: other] as CFDictionary), errSecSuccess)
        XCTAssertEqual(copy([kSecValueRef as String: other]).status, errSecItemNotFound)
        XCTAssertEqual(copy([kSecValueRef as String: key]).status, errSecSuccess, "only that key was deleted")
        XCTAssertEqual(SecItemDelete([kSecValueRef as String: key] as CFDictionary), errSecSuccess)
        XCTAssertEqual(copy([kSecClass as String: kSecClassKey]).status, errSecItemNotFound)

        XCTAssertEqual(
            copy([kSecClass as String: kSecClassGenericPassword, kSecValueRef as String: key]).status, errSecParam)
        XCTAssertEqual(SecItemDelete([kSecValueRef as String: Data()] as CFDictionary), errSecParam)
    }

    func secItemAdd(_ attributes: [String: Any]) -> OSStatus {
        SecItemAdd(attributes as CFDictionary, nil)
    }
}
#endif
