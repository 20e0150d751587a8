#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// The status tables of SecItemUpdate and SecItemDelete.
final class SecItemUpdateDeleteTests: SecItemTestCase {
    func testUpdateStatusTable() throws {
        let newData: [String: Any] = [kSecValueData as String: Data("new".utf8)]
        try check([
            StatusCase("at least one item updated", "Apple's status", errSecSuccess) {
                $0.add($0.password())
                return $0.update($0.password(), newData)
            },
            StatusCase("nothing matched", "Apple's status", errSecItemNotFound) { $0.update($0.password(), newData) },
            StatusCase("query with kSecReturnData true", "Apple's status", errSecParam) {
                $0.add($0.password())
                return $0.update($0.password("alice", [kSecReturnData as String: true]), newData)
            },
            StatusCase("query with kSecMatchLimit", "Apple's status", errSecParam) {
                $0.add($0.password())
                return $0.update($0.password("alice", [kSecMatchLimit as String: kSecMatchLimitAll]), newData)
            },
            StatusCase("kSecValueData in the query is ignored", "Apple's status", errSecSuccess) {
                $0.add($0.password())
                return $0.update($0.password("alice", [kSecValueData as String: Data("whatever".utf8)]), newData)
            },
            StatusCase("legacy persistent reference plus attributes", "Apple's status", errSecParam) {
                $0.add($0.password())
                let legacy = Data("genp".utf8) + Data([0, 0, 0, 0, 0, 0, 0, 1])
                return $0.update(
                    [kSecValuePersistentRef as String: legacy, kSecAttrAccount as String: "alice"], newData)
            },
            StatusCase("meta key class in attributesToUpdate", "Apple's status", errSecNoSuchAttr) {
                $0.add($0.password())
                return $0.update($0.password(), [kSecClass as String: kSecClassInternetPassword])
            },
            StatusCase("return key in attributesToUpdate", "Apple's status", errSecNoSuchAttr) {
                $0.add($0.password())
                return $0.update($0.password(), [kSecReturnData as String: true])
            },
            StatusCase("unknown attribute in attributesToUpdate", "Apple's status", errSecNoSuchAttr) {
                $0.add($0.password())
                return $0.update($0.password(), ["zzzz": "x"])
            },
            StatusCase("kSecAttrSharingGroup in attributesToUpdate", "Apple's status", errSecParam) {
                $0.add($0.password())
                return $0.update($0.password(), [kSecAttrSharingGroup as String: "g"])
            },
            StatusCase("new access group not entitled", "Apple's status", errSecMissingEntitlement) {
                $0.add($0.password())
                return $0.update($0.password(), [kSecAttrAccessGroup as String: "OTHER.group"])
            },
            StatusCase("explicit query group not entitled", "Apple's status", errSecMissingEntitlement) {
                $0.update($0.password("alice", [kSecAttrAccessGroup as String: "OTHER.group"]), newData)
            },
            StatusCase("the change collides with another live item", "Apple's status", errSecDuplicateItem) {
                $0.add($0.password("a"))
                $0.add($0.password("b"))
                return $0.update($0.password("b"), [kSecAttrAccount as String: "a"])
            },
            StatusCase("class A item while locked", "Apple's status", errSecInteractionNotAllowed) {
                try $0.keychain.setPassphrase("pw")
                $0.add($0.password())
                try SecItemEnvironment.lock()
                return $0.update($0.password(), newData)
            },
            StatusCase("kSecUseAuthenticationUISkip", "Apple's status", errSecParam) {
                $0.add($0.password())
                return $0.update(
                    $0.password("alice", [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]), newData)
            }
        ])
    }

    func testUpdateSemantics() throws {
        add(password("a"), data: "1")
        add(password("b"), data: "2")
        XCTAssertEqual(
            update(
                [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc"],
                [kSecAttrLabel as String: "L", kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]),
            errSecSuccess)
        let all = try XCTUnwrap(
            copy([
                kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true, kSecReturnData as String: true
            ]).result as? [[String: Any]])
        XCTAssertEqual(all.map { $0[kSecAttrLabel as String] as? String }, ["L", "L"], "every match is updated")
        XCTAssertEqual(
            all.map { $0[kSecValueData as String] as? Data }, [Data("1".utf8), Data("2".utf8)],
            "data unchanged when not given")
        XCTAssertEqual(all.map { $0[kSecAttrAccessible as String] as? String }, ["ck", "ck"])

        // A collision rolls everything back.
        XCTAssertEqual(
            update(
                [kSecClass as String: kSecClassGenericPassword],
                [kSecAttrAccount as String: "same", kSecAttrLabel as String: "M"]), errSecDuplicateItem)
        XCTAssertEqual(copy(password("a", [kSecAttrLabel as String: "L"])).status, errSecSuccess)

        // A persistent reference stays valid across updates, and an access control changes the accessibility.
        let reference = try XCTUnwrap(copy(password("a", [kSecReturnPersistentRef as String: true])).result as? Data)
        let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [], nil)!
        XCTAssertEqual(
            update(password("a"), [kSecAttrAccount as String: "renamed", kSecAttrAccessControl as String: control]),
            errSecSuccess)
        let byReference = try XCTUnwrap(
            copy([kSecValuePersistentRef as String: reference, kSecReturnAttributes as String: true]).result
                as? [String: Any])
        XCTAssertEqual(byReference[kSecAttrAccount as String] as? String, "renamed")
        XCTAssertEqual(byReference[kSecAttrAccessible as String] as? String, "aku")
    }

    func testDeleteStatusTable() throws {
        try check([
            StatusCase("at least one deleted", "Apple's status", errSecSuccess) {
                $0.add($0.password())
                return SecItemDelete($0.password() as CFDictionary)
            },
            StatusCase("none matched", "Apple's status", errSecItemNotFound) {
                SecItemDelete($0.password() as CFDictionary)
            },
            StatusCase("kSecMatchLimitAll", "Apple's status", errSecParam) {
                $0.add($0.password())
                return SecItemDelete(
                    $0.password("alice", [kSecMatchLimit as String: kSecMatchLimitAll]) as CFDictionary)
            },
            StatusCase("any kSecMatch key", "Apple's status", errSecParam) {
                $0.add($0.password())
                return SecItemDelete($0.password("alice", [kSecMatchCaseInsensitive as String: true]) as CFDictionary)
            },
            StatusCase("legacy persistent reference plus attributes", "Apple's status", errSecParam) { _ in
                let legacy = Data("genp".utf8) + Data([0, 0, 0, 0, 0, 0, 0, 1])
                return SecItemDelete(
                    [kSecValuePersistentRef as String: legacy, kSecAttrAccount as String: "alice"] as CFDictionary)
            },
            StatusCase("explicit group not entitled", "Apple's status", errSecMissingEntitlement) {
                SecItemDelete($0.password("alice", [kSecAttrAccessGroup as String: "OTHER.group"]) as CFDictionary)
            },
            StatusCase("kSecUseAuthenticationUISkip", "Apple's status", errSecParam) {
                SecItemDelete(
                    $0.password("alice", [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip])
                        as CFDictionary)
            },
            StatusCase("kSecReturn keys are ignored", "Apple's status", errSecSuccess) {
                $0.add($0.password())
                return SecItemDelete($0.password("alice", [kSecReturnData as String: true]) as CFDictionary)
            },
            StatusCase("works while locked", "Apple's status", errSecSuccess) {
                try $0.keychain.setPassphrase("pw")
                $0.add($0.password())
                try SecItemEnvironment.lock()
                return SecItemDelete($0.password() as CFDictionary)
            }
        ])
    }

    func testDeleteRemovesEveryMatchInEveryGroupButOnlyLocalItems() throws {
        add(password("a"))
        add(password("b", [kSecAttrAccessGroup as String: Self.appGroup]))
        add(password("c", [kSecAttrSynchronizable as String: true]))
        XCTAssertEqual(SecItemDelete([kSecClass as String: kSecClassGenericPassword] as CFDictionary), errSecSuccess)
        XCTAssertEqual(
            copy([
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true
            ]).result.flatMap { ($0 as? [[String: Any]])?.count }, 1,
            "the synchronizable item survives a delete without kSecAttrSynchronizable")

        let reference = try persistentReference(of: password("d"))
        XCTAssertEqual(
            SecItemDelete([kSecValuePersistentRef as String: reference] as CFDictionary), errSecSuccess,
            "delete by reference")
        XCTAssertEqual(copy([kSecValuePersistentRef as String: reference]).status, errSecItemNotFound)
    }
}
#endif
