#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// Edge cases of key parsing and defaults found by an independent review against the spec.
final class SecItemEdgeCaseTests: SecItemTestCase {
    func testKeyParsingEdgeCases() throws {
        try check([
            StatusCase("one-character key m", "length 1 → -50", errSecParam) {
                $0.copy($0.password().merging(["m": true]) { $1 }).status
            },
            StatusCase("one-character key f", "length 1 → -50", errSecParam) {
                $0.copy($0.password().merging(["f": true]) { $1 }).status
            },
            StatusCase("a number as a key", "CFNumber key is an attribute → -25303", errSecNoSuchAttr) { test in
                let query: [AnyHashable: Any] = [kSecClass as String: kSecClassGenericPassword, NSNumber(value: 5): "x"]
                return SecItemCopyMatching(query as CFDictionary, nil)
            },
            StatusCase("a number as a key of the changes", "→ -25303", errSecNoSuchAttr) { test in
                test.add(test.password())
                let changes: [AnyHashable: Any] = [NSNumber(value: 5): "x"]
                return SecItemUpdate(test.password() as CFDictionary, changes as CFDictionary)
            },
            StatusCase("clip in the changes", "private attribute clip → -50", errSecParam) { test in
                test.add(test.password())
                return test.update(test.password(), ["clip": 1])
            },
            StatusCase("accc and pdmn together in the changes, same protection", "both → -50", errSecParam) { test in
                test.add(test.password())
                let control = try XCTUnwrap(
                    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))
                return test.update(
                    test.password(),
                    [
                        kSecAttrAccessControl as String: control,
                        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock
                    ])
            },
            StatusCase("sync as a numeric string in the changes", "numeric string accepted", errSecSuccess) { test in
                test.add(test.password())
                return test.update(test.password(), [kSecAttrSynchronizable as String: "0"])
            },
            StatusCase("persistent reference to the apls class", "apls has no table → -25306", errSecNoSuchClass) {
                test in
                test.copy([kSecValuePersistentRef as String: Data("apls".utf8) + Data(count: 16)]).status
            }
        ])
    }

    func testSyncAsNumericStringInChangesMakesTheItemSynchronizable() throws {
        add(password())
        XCTAssertEqual(update(password(), [kSecAttrSynchronizable as String: "1"]), errSecSuccess)
        XCTAssertEqual(
            copy(password()).status, errSecItemNotFound, "now synchronizable, so hidden from a default search")
        XCTAssertEqual(
            copy(password("alice", service: "svc", [kSecAttrSynchronizable as String: true])).status, errSecSuccess)
    }

    /// Items of `com.apple.apsd` default to `dku`, whatever their class.
    func testPushServiceGroupDefaultsToAlwaysThisDeviceOnly() throws {
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(
            applicationIdentifier: Self.appGroup, accessGroups: ["com.apple.apsd"])
        add(password())
        let attributes = try XCTUnwrap(
            copy(password("alice", service: "svc", [kSecReturnAttributes as String: true])).result as? [String: Any])
        XCTAssertEqual(attributes[kSecAttrAccessGroup as String] as? String, "com.apple.apsd")
        XCTAssertEqual(
            attributes[kSecAttrAccessible as String] as? String, kSecAttrAccessibleAlwaysThisDeviceOnly as String)
    }

    /// The internet-password extra secret blobs come back only together with the data.
    func testInternetPasswordSecretBlobsNeedReturnData() throws {
        let item: [String: Any] = [
            kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
            kSecAttrAccount as String: "bob", "binn": Data("NOTES".utf8)
        ]
        add(item)
        let attributesOnly = try XCTUnwrap(
            copy(item.merging([kSecReturnAttributes as String: true]) { $1 }).result as? [String: Any])
        XCTAssertNil(attributesOnly["binn"])
        XCTAssertNil(attributesOnly["sha1"])
        let withData = try XCTUnwrap(
            copy(item.merging([kSecReturnAttributes as String: true, kSecReturnData as String: true]) { $1 }).result
                as? [String: Any])
        XCTAssertEqual(withData["binn"] as? Data, Data("NOTES".utf8))
    }
}
#endif
