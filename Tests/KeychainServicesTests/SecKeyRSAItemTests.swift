#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux SecKey implementation; on Apple platforms these are Apple's.
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// RSA keys in the keychain: permanent generation, `SecItemAdd` with `kSecValueRef`, and
/// `SecItemCopyMatching` with `kSecReturnRef`.
final class SecKeyRSAItemTests: SecItemTestCase {
    func testPermanentKeyIsStoredAndFoundAsAWorkingKey() throws {
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("rsa.private".utf8),
                kSecAttrLabel as String: "RSA signing key"
            ],
            kSecPublicKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("rsa.public".utf8)
            ]
        ]
        let outcome = secKeyCall { SecKeyCreateRandomKey(parameters as CFDictionary, $0) }
        let key = try XCTUnwrap(outcome.value, outcome.message ?? "")
        let publicBytes = try external(self.publicKey(of: key))

        // The stored items carry Apple's RSA attributes.
        let attributes = copy(
            keyQuery(tag: "rsa.private", [kSecReturnAttributes as String: true, kSecReturnData as String: true]))
        XCTAssertEqual(attributes.status, errSecSuccess)
        let item = try XCTUnwrap(attributes.result as? [String: Any])
        XCTAssertEqual(item[kSecAttrKeyType as String] as? Int, 42)
        XCTAssertEqual(item[kSecAttrKeyClass as String] as? Int, 1)
        XCTAssertEqual(item[kSecAttrKeySizeInBits as String] as? Int, 2048)
        XCTAssertEqual(item[kSecAttrApplicationLabel as String] as? Data, Data(Insecure.SHA1.hash(data: publicBytes)))
        XCTAssertEqual(item[kSecAttrLabel as String] as? String, "RSA signing key")
        XCTAssertEqual(item[kSecValueData as String] as? Data, try external(key), "the data is the PKCS#1 private key")

        // kSecReturnRef gives keys that sign and verify.
        let found = try XCTUnwrap(
            copy(
                keyQuery(
                    tag: "rsa.private", [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecReturnRef as String: true])
            ).result as? SecKey)
        XCTAssertEqual(found, key)
        XCTAssertEqual((SecKeyCopyAttributes(found) as? [String: Any])?[kSecAttrIsPermanent as String] as? Bool, true)
        XCTAssertEqual(
            (SecKeyCopyAttributes(found) as? [String: Any])?[kSecAttrApplicationTag as String] as? Data,
            Data("rsa.private".utf8))
        let foundPublic = try XCTUnwrap(
            copy(keyQuery(tag: "rsa.public", [kSecReturnRef as String: true])).result as? SecKey)
        XCTAssertEqual(try external(foundPublic), publicBytes)
        let message = Data("stored".utf8)
        let signature = try sign(found, .rsaSignatureMessagePSSSHA256, message)
        XCTAssertTrue(verify(foundPublic, .rsaSignatureMessagePSSSHA256, message, signature).valid)

        // Found again by the key itself (kSecValueRef) and by its application label.
        XCTAssertEqual(copy([kSecClass as String: kSecClassKey, kSecValueRef as String: found]).status, errSecSuccess)
        XCTAssertEqual(
            copy([
                kSecClass as String: kSecClassKey,
                kSecAttrApplicationLabel as String: Data(Insecure.SHA1.hash(data: publicBytes)),
                kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
            ]).status, errSecSuccess)
    }

    func testImportedKeyAddedWithValueRefRoundTrips() throws {
        let key = try RSATestKeys.vectorKey()
        let add = SecItemAdd(
            [
                kSecClass as String: kSecClassKey, kSecValueRef as String: key,
                kSecAttrApplicationTag as String: Data("imported".utf8)
            ] as CFDictionary, nil)
        XCTAssertEqual(add, errSecSuccess)
        XCTAssertEqual(
            SecItemAdd(
                [
                    kSecClass as String: kSecClassKey, kSecValueRef as String: key,
                    kSecAttrApplicationTag as String: Data("imported".utf8)
                ] as CFDictionary, nil), errSecDuplicateItem)
        let found = try XCTUnwrap(copy(keyQuery(tag: "imported", [kSecReturnRef as String: true])).result as? SecKey)
        XCTAssertEqual(try external(found), RSAVectors.privateKey)
        XCTAssertEqual(try sign(found, .rsaSignatureMessagePKCS1v15SHA256, RSAVectors.message), RSAVectors.pkcs1SHA256)
        XCTAssertEqual(
            SecItemDelete([kSecClass as String: kSecClassKey, kSecValueRef as String: key] as CFDictionary),
            errSecSuccess)
        XCTAssertEqual(copy(keyQuery(tag: "imported")).status, errSecItemNotFound)
    }

    func testCorruptRSAItemIsReportedNotReturned() throws {
        // A key item that says RSA but holds no PKCS#1 key: errSecDecode, as for EC items.
        XCTAssertEqual(
            add(
                [
                    kSecClass as String: kSecClassKey, kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                    kSecAttrApplicationTag as String: Data("bad".utf8)
                ], data: "not a key"),
            errSecSuccess)
        XCTAssertEqual(copy(keyQuery(tag: "bad", [kSecReturnRef as String: true])).status, errSecDecode)
        XCTAssertEqual(
            copy(keyQuery(tag: "bad", [kSecReturnData as String: true])).status, errSecSuccess,
            "the data is still readable")
    }
}
#endif
