#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// The status table of SecItemCopyMatching and the result-type matrix.
final class SecItemCopyMatchingTests: SecItemTestCase {
    func testCopyMatchingStatusTable() throws {
        try check([
            StatusCase("at least one match", "Apple's status", errSecSuccess) {
                $0.add($0.password())
                return $0.copy($0.password()).status
            },
            StatusCase("no match", "Apple's status", errSecItemNotFound) { $0.copy($0.password()).status },
            StatusCase("missing class", "Apple's status", errSecParam) {
                $0.copy([kSecAttrAccount as String: "a"]).status
            },
            StatusCase("kSecUseItemList", "Apple's status", errSecParam) {
                $0.copy($0.password("a", [kSecUseItemList as String: [Any]()])).status
            },
            StatusCase("20-byte persistent reference plus attributes", "Apple's status", errSecParam) {
                let reference = try $0.persistentReference(of: $0.password())
                return $0.copy([kSecValuePersistentRef as String: reference, kSecAttrAccount as String: "alice"]).status
            },
            StatusCase("20-byte persistent reference plus kSecAttrSynchronizable true", "Apple's status", errSecParam) {
                let reference = try $0.persistentReference(of: $0.password())
                return $0.copy([kSecValuePersistentRef as String: reference, kSecAttrSynchronizable as String: true])
                    .status
            },
            StatusCase(
                "20-byte persistent reference plus kSecAttrSynchronizableAny is fine", "Apple's status", errSecSuccess
            ) {
                let reference = try $0.persistentReference(of: $0.password())
                return $0.copy([
                    kSecValuePersistentRef as String: reference,
                    kSecAttrSynchronizable as String: kSecAttrSynchronizableAny
                ]).status
            },
            StatusCase("unparseable persistent reference", "Apple's status", errSecParam) {
                $0.copy([kSecValuePersistentRef as String: Data([1, 2, 3])]).status
            },
            StatusCase("persistent reference whose class differs from kSecClass", "Apple's status", errSecNoSuchClass) {
                let reference = try $0.persistentReference(of: $0.password())
                return $0.copy([
                    kSecClass as String: kSecClassInternetPassword, kSecValuePersistentRef as String: reference
                ]).status
            },
            StatusCase("unknown class", "Apple's status", errSecNoSuchClass) {
                $0.copy([kSecClass as String: "zzzz"]).status
            },
            StatusCase("unknown attribute", "Apple's status", errSecNoSuchAttr) {
                $0.copy($0.password("a", ["zzzz": "x"])).status
            },
            StatusCase("kSecMatchPolicy on a password", "Apple's status", errSecUnimplemented) {
                $0.copy($0.password("a", [kSecMatchPolicy as String: "p"])).status
            },
            StatusCase("kSecMatchIssuers on a password", "Apple's status", errSecUnimplemented) {
                $0.copy($0.password("a", [kSecMatchIssuers as String: [Data()]])).status
            },
            StatusCase("kSecMatchHostOrSubdomainOfHost on a generic password", "Apple's status", errSecUnimplemented) {
                $0.copy($0.password("a", [kSecMatchHostOrSubdomainOfHost as String: "example.com"])).status
            },
            StatusCase("explicit access group not entitled", "Apple's status", errSecMissingEntitlement) {
                $0.copy($0.password("a", [kSecAttrAccessGroup as String: "OTHER.group"])).status
            },
            StatusCase(
                "a matched row's class is locked: the whole call fails", "Apple's status", errSecInteractionNotAllowed
            ) {
                try $0.keychain.setPassphrase("pw")
                $0.add($0.password("background", [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]))
                $0.add($0.password("foreground"))
                try SecItemEnvironment.lock()
                return $0.copy([
                    kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                    kSecReturnAttributes as String: true
                ]).status
            },
            StatusCase("attribute-only read of a locked class-A item", "Apple's status", errSecInteractionNotAllowed) {
                try $0.keychain.setPassphrase("pw")
                $0.add($0.password())
                try SecItemEnvironment.lock()
                return $0.copy($0.password("alice", [kSecReturnAttributes as String: true])).status
            },
            StatusCase("kSecReturnData as a number", "Apple's status", errSecParam) {
                $0.copy($0.password("a", [kSecReturnData as String: 1])).status
            },
            StatusCase("kSecMatchLimit an unknown string", "Apple's status", errSecParam) {
                $0.copy($0.password("a", [kSecMatchLimit as String: "m_LimitSome"])).status
            },
            StatusCase(
                "kSecMatchCaseInsensitive is ignored, matching stays exact", "Apple's status", errSecItemNotFound
            ) {
                $0.add($0.password())
                return $0.copy($0.password("ALICE", [kSecMatchCaseInsensitive as String: true])).status
            },
            StatusCase("kSecValueData in a search is ignored", "Apple's status", errSecSuccess) {
                $0.add($0.password())
                return $0.copy($0.password("alice", [kSecValueData as String: Data("not the secret".utf8)])).status
            },
            StatusCase(
                "kSecReturnRef on a key item that holds no EC key (no type, no data)", "Apple's status", errSecDecode
            ) {
                $0.add([kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("t".utf8)])
                return $0.copy([kSecClass as String: kSecClassKey, kSecReturnRef as String: true]).status
            },
            StatusCase("kSecReturnRef on an RSA key item whose data is no PKCS#1 key", "Apple's status", errSecDecode) {
                $0.add([
                    kSecClass as String: kSecClassKey, kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPrivate
                ])
                return $0.copy([kSecClass as String: kSecClassKey, kSecReturnRef as String: true]).status
            },
            StatusCase(
                "kSecReturnRef on a certificate (SecCertificate not yet on this platform)", "Apple's status",
                errSecUnimplemented
            ) {
                $0.add([kSecClass as String: kSecClassCertificate, kSecAttrSerialNumber as String: Data([1])])
                return $0.copy([kSecClass as String: kSecClassCertificate, kSecReturnRef as String: true]).status
            }
        ])
    }

    /// Every combination of return keys, with limit one and limit all.
    func testResultTypeMatrix() throws {
        add(password("a"), data: "A")
        add(password("b"), data: "B")
        let all: [String: Any] = [kSecMatchLimit as String: kSecMatchLimitAll]
        let one: [String: Any] = [kSecMatchLimit as String: kSecMatchLimitOne]
        let data: [String: Any] = [kSecReturnData as String: true]
        let attributes: [String: Any] = [kSecReturnAttributes as String: true]
        let reference: [String: Any] = [kSecReturnPersistentRef as String: true]
        let ref: [String: Any] = [kSecReturnRef as String: true]
        func query(_ parts: [String: Any]...) -> [String: Any] {
            parts.reduce([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc"]) {
                $0.merging($1) { $1 }
            }
        }

        // No return key: status only; nil for one, an empty array for all.
        XCTAssertEqual(copy(query(one)).status, errSecSuccess)
        XCTAssertNil(copy(query(one)).result)
        XCTAssertEqual((copy(query(all)).result as? [Any])?.count, 0)
        // Data only: CFData / array of CFData.
        XCTAssertEqual(copy(query(one, data)).result as? Data, Data("A".utf8), "first in insertion order")
        XCTAssertEqual(copy(query(all, data)).result as? [Data], [Data("A".utf8), Data("B".utf8)])
        // Attributes only: dictionary / array of dictionaries.
        XCTAssertEqual(
            (copy(query(one, attributes)).result as? [String: Any])?[kSecAttrAccount as String] as? String, "a")
        XCTAssertEqual(
            (copy(query(all, attributes)).result as? [[String: Any]])?.compactMap {
                $0[kSecAttrAccount as String] as? String
            }, ["a", "b"])
        // Persistent reference only: CFData / array.
        XCTAssertEqual((copy(query(one, reference)).result as? Data)?.count, 20)
        XCTAssertEqual((copy(query(all, reference)).result as? [Data])?.count, 2)
        // Ref only on passwords: nil / array without the password refs.
        XCTAssertEqual(copy(query(one, ref)).status, errSecSuccess)
        XCTAssertNil(copy(query(one, ref)).result, "ReturnRef on passwords returns nil on iOS")
        XCTAssertEqual((copy(query(all, ref)).result as? [Any])?.count, 0)
        // Data + persistent reference: exactly v_Data and v_PersistentRef.
        let pair = try XCTUnwrap(copy(query(one, data, reference)).result as? [String: Any])
        XCTAssertEqual(Set(pair.keys), [kSecValueData as String, kSecValuePersistentRef as String])
        // Data + attributes: the attributes plus v_Data (and sha1, which comes with data).
        let full = try XCTUnwrap(copy(query(one, data, attributes)).result as? [String: Any])
        XCTAssertEqual(full[kSecValueData as String] as? Data, Data("A".utf8))
        XCTAssertEqual(full[kSecAttrAccount as String] as? String, "a")
        XCTAssertNotNil(full["sha1"], "sha1 only when data is requested")
        XCTAssertNil(full[kSecClass as String], "no class without Ref")
        // Ref with another key: class and full attributes (no v_Ref for a password).
        let withRef = try XCTUnwrap(copy(query(one, ref, reference)).result as? [String: Any])
        XCTAssertEqual(withRef[kSecClass as String] as? String, "genp")
        XCTAssertNotNil(withRef[kSecAttrAccount as String])
        XCTAssertNil(withRef[kSecValueRef as String])
        // Several keys, limit all: an array of dictionaries.
        XCTAssertEqual((copy(query(all, data, attributes, reference)).result as? [[String: Any]])?.count, 2)
        // Numeric limits: 1 ≡ one (not an array), N > 1 an array of at most N.
        XCTAssertEqual(copy(query([kSecMatchLimit as String: 1], data)).result as? Data, Data("A".utf8))
        XCTAssertEqual((copy(query([kSecMatchLimit as String: 2], data)).result as? [Data])?.count, 2)
        XCTAssertEqual((copy(query([kSecMatchLimit as String: -1], data)).result as? [Data])?.count, 2)
        // A nil result pointer: status only.
        XCTAssertEqual(SecItemCopyMatching(query(one, data) as CFDictionary, nil), errSecSuccess)
        XCTAssertEqual(SecItemCopyMatching(password("nobody") as CFDictionary, nil), errSecItemNotFound)
    }

    /// Attribute dictionaries by raw key, no persistref/UUID, sync as a number, accc.
    func testAttributeDictionaryContents() throws {
        add(password("a", [kSecAttrGeneric as String: Data([1, 2])]))
        let attributes = try XCTUnwrap(
            copy(password("a", [kSecReturnAttributes as String: true])).result as? [String: Any])
        for key in ["acct", "agrp", "cdat", "mdat", "musr", "pdmn", "svce", "sync", "tomb", "gena", "accc"] {
            XCTAssertNotNil(attributes[key], "missing \(key)")
        }
        XCTAssertNil(attributes["persistref"])
        XCTAssertNil(attributes["UUID"])
        XCTAssertNil(attributes["sha1"])
        XCTAssertEqual(attributes[kSecAttrSynchronizable as String] as? Bool, false)
        XCTAssertEqual(
            (attributes[kSecAttrAccessControl as String] as? SecAccessControl)?.description, "<SecAccessControlRef: ak>"
        )
        XCTAssertEqual(attributes[kSecAttrGeneric as String] as? Data, Data([1, 2]))
    }

    /// Returned dictionaries answer to String keys and to kSec… constants.
    func testReturnedDictionariesWorkWithStringsAndConstants() throws {
        add(password("a"))
        let result = try XCTUnwrap(
            copy(password("a", [kSecReturnAttributes as String: true, kSecReturnData as String: true])).result)
        XCTAssertEqual((result as? [String: Any])?[kSecAttrAccount as String] as? String, "a")
        XCTAssertEqual((result as? [String: Any])?["acct"] as? String, "a")
        XCTAssertEqual((result as? NSDictionary)?[kSecAttrAccount] as? String, "a")
        XCTAssertEqual((result as? NSDictionary)?["acct"] as? String, "a")
        XCTAssertEqual((result as? [CFString: Any])?[kSecAttrAccount] as? String, "a")
        XCTAssertEqual((result as? [CFString: Any])?[kSecValueData] as? Data, Data("secret".utf8))
    }

    /// Data-typed accounts match bytewise and come back as data.
    func testDataAccountsMatchBytewiseAndKeepTheirType() throws {
        XCTAssertEqual(
            add([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: Data("bytes".utf8)]),
            errSecSuccess)
        let found = try XCTUnwrap(
            copy([
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "bytes",
                kSecReturnAttributes as String: true
            ]).result as? [String: Any])
        XCTAssertEqual(found[kSecAttrAccount as String] as? Data, Data("bytes".utf8))
        XCTAssertEqual(
            add([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "bytes"]),
            errSecDuplicateItem)
    }

    /// kSecMatchHostOrSubdomainOfHost on internet passwords.
    func testHostOrSubdomainMatching() throws {
        for server in ["example.com", "api.example.com", "example.org", "notexample.com"] {
            XCTAssertEqual(
                add([kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: server]), errSecSuccess)
        }
        let found = copy([
            kSecClass as String: kSecClassInternetPassword, kSecMatchHostOrSubdomainOfHost as String: "Example.com",
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true
        ])
        XCTAssertEqual(found.status, errSecSuccess)
        XCTAssertEqual(
            Set((found.result as? [[String: Any]])?.compactMap { $0[kSecAttrServer as String] as? String } ?? []),
            ["example.com", "api.example.com"])
        XCTAssertEqual(
            copy([
                kSecClass as String: kSecClassInternetPassword, kSecMatchHostOrSubdomainOfHost as String: "example.net"
            ]).status, errSecItemNotFound)
    }
}
#endif
