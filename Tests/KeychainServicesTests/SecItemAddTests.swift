#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// Every row of the SecItemAdd table.
final class SecItemAddTests: SecItemTestCase {
    func testAddStatusTable() throws {
        try check([
            StatusCase("success", "Apple's status", errSecSuccess) { $0.add($0.password()) },
            StatusCase("missing class", "Apple's status", errSecParam) { $0.add([kSecAttrAccount as String: "a"]) },
            StatusCase("kSecValueData not CFData (a String)", "Apple's status", errSecParam) {
                SecItemAdd($0.password().merging([kSecValueData as String: "secret"]) { $1 } as CFDictionary, nil)
            },
            StatusCase("attribute of the wrong type", "Apple's status", errSecParam) {
                $0.add($0.password("a", [kSecAttrCreationDate as String: "today"]))
            },
            StatusCase("unknown r_ key", "Apple's status", errSecParam) {
                $0.add($0.password("a", ["r_Nonsense": true]))
            },
            StatusCase("unknown u_ key", "Apple's status", errSecParam) {
                $0.add($0.password("a", ["u_Nonsense": true]))
            },
            StatusCase("unknown v_ key", "Apple's status", errSecParam) {
                $0.add($0.password("a", ["v_Nonsense": Data()]))
            },
            StatusCase("key with an unknown first letter", "Apple's status", errSecParam) {
                $0.add($0.password("a", ["zNonsense": 1]))
            },
            StatusCase("kSecReturnData as a number, not a boolean", "Apple's status", errSecParam) {
                SecItemAdd(
                    $0.password().merging([kSecValueData as String: Data(), kSecReturnData as String: 1]) { $1 }
                        as CFDictionary, nil)
            },
            StatusCase("unknown class", "Apple's status", errSecNoSuchClass) { $0.add([kSecClass as String: "nope"]) },
            StatusCase("AppleShare class has no table", "Apple's status", errSecNoSuchClass) {
                $0.add([kSecClass as String: "apls"])
            },
            StatusCase(
                "unknown attribute for the class (kSecAttrApplicationTag on genp)", "Apple's status", errSecNoSuchAttr
            ) {
                $0.add($0.password("a", [kSecAttrApplicationTag as String: Data("t".utf8)]))
            },
            StatusCase("legacy 12-byte persistent reference", "Apple's status", errSecParam) {
                $0.add(
                    $0.password(
                        "a", [kSecValuePersistentRef as String: Data("genp".utf8) + Data(repeating: 0, count: 8)]))
            },
            StatusCase(
                "kSecMatchLimit (a reused search dictionary): -50, not iOS's silent no-op", "Apple's status (a quirk)",
                errSecParam
            ) {
                $0.add($0.password("a", [kSecMatchLimit as String: kSecMatchLimitOne]))
            },
            StatusCase("kSecUseItemList", "Apple's status", errSecParam) {
                $0.add($0.password("a", [kSecUseItemList as String: [Any]()]))
            },
            StatusCase("invalid kSecAttrAccessible", "Apple's status", errSecParam) {
                $0.add($0.password("a", [kSecAttrAccessible as String: "sometimes"]))
            },
            StatusCase("both kSecAttrAccessible and kSecAttrAccessControl", "Apple's status", errSecParam) {
                let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil)!
                return $0.add(
                    $0.password(
                        "a",
                        [
                            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
                            kSecAttrAccessControl as String: control
                        ]))
            },
            StatusCase("kSecAttrAccessControl that is not a SecAccessControl", "Apple's status", errSecParam) {
                $0.add($0.password("a", [kSecAttrAccessControl as String: "ak"]))
            },
            StatusCase("access group not entitled", "Apple's status", errSecMissingEntitlement) {
                $0.add($0.password("a", [kSecAttrAccessGroup as String: "OTHER.group"]))
            },
            StatusCase("access group com.apple.token is read-only", "Apple's status", errSecMissingEntitlement) {
                $0.add($0.password("a", [kSecAttrAccessGroup as String: kSecAttrAccessGroupToken]))
            },
            StatusCase("live item with the same primary key", "Apple's status", errSecDuplicateItem) {
                $0.add($0.password())
                return $0.add(
                    $0.password(
                        "alice",
                        // keychain-lint:disable-next-line accessible-always -- a different accessibility must not make the item distinct (Apple's rule)
                        [kSecAttrLabel as String: "other label", kSecAttrAccessible as String: kSecAttrAccessibleAlways]
                    ))
            },
            StatusCase("class A item while locked", "Apple's status", errSecInteractionNotAllowed) {
                try $0.keychain.setPassphrase("pw")
                try SecItemEnvironment.lock()
                return $0.add($0.password())
            },
            StatusCase("class C item before the first unlock", "Apple's status", errSecInteractionNotAllowed) {
                try $0.keychain.setPassphrase("pw")
                SecItemEnvironment.useKeychain(
                    try Keychain(location: $0.keychain.location, options: $0.keychain.options))
                return $0.add($0.password("a", [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]))
            },
            StatusCase("akpu with no passcode (passphrase)", "Apple's status", errSecAuthFailed) {
                $0.add(
                    $0.password("a", [kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly]))
            },
            StatusCase("kSecUseDataProtectionKeychain is ignored", "Apple's status", errSecSuccess) {
                $0.add($0.password("a", [kSecUseDataProtectionKeychain as String: true]))
            },
            StatusCase("private attribute clip", "Apple's status", errSecParam) {
                $0.add($0.password("a", ["clip": 1]))
            },
            StatusCase("a null value", "Apple's status", errSecParam) {
                $0.add($0.password("a", [kSecAttrLabel as String: NSNull()]))
            },
            StatusCase("kSecUseAuthenticationUISkip outside CopyMatching", "Apple's status", errSecParam) {
                $0.add($0.password("a", [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]))
            },
            StatusCase("an identity without kSecValueRef", "Apple's status", errSecParam) {
                $0.add([kSecClass as String: kSecClassIdentity])
            },
            StatusCase(
                "access-control constraints with no authenticator configured", "Apple's status", errSecAuthFailed
            ) {
                let control = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil)!
                return $0.add($0.password("a", [kSecAttrAccessControl as String: control]))
            },
            StatusCase("access control without constraints", "Apple's status", errSecSuccess) {
                let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil)!
                return $0.add($0.password("a", [kSecAttrAccessControl as String: control]))
            },
            StatusCase("kSecAttrSynchronizableAny on add behaves as absent", "Apple's status", errSecSuccess) {
                $0.add($0.password("a", [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]))
            }
        ])
    }

    /// Defaults, server-set values, and the result (never an array).
    func testAddAppliesDefaultsAndReturnsWhatIsAsked() throws {
        var result: AnyObject?
        let status = SecItemAdd(
            [
                kSecClass as String: kSecClassGenericPassword, kSecValueData as String: Data("x".utf8),
                kSecReturnAttributes as String: true
            ] as CFDictionary, &result)
        XCTAssertEqual(status, errSecSuccess)
        let attributes = try XCTUnwrap(result as? [String: Any])
        XCTAssertEqual(attributes[kSecAttrAccount as String] as? String, "", "account defaults to \"\"")
        XCTAssertEqual(attributes[kSecAttrService as String] as? String, "")
        XCTAssertEqual(
            attributes[kSecAttrAccessGroup as String] as? String, Self.sharedGroup,
            "default group = first entitled group")
        XCTAssertEqual(attributes[kSecAttrAccessible as String] as? String, "ak")
        XCTAssertEqual(attributes[kSecAttrSynchronizable as String] as? Int, 0)
        XCTAssertNotNil(attributes[kSecAttrCreationDate as String] as? Date)

        var reference: AnyObject?
        XCTAssertEqual(
            SecItemAdd(
                password("b").merging([kSecValueData as String: Data(), kSecReturnPersistentRef as String: true]) { $1 }
                    as CFDictionary, &reference), errSecSuccess)
        XCTAssertEqual((reference as? Data)?.count, 20)
        XCTAssertEqual(add(password("c"), data: nil), errSecSuccess, "an item without data")
        XCTAssertEqual(
            SecItemAdd(password("d").merging([kSecReturnData as String: true]) { $1 } as CFDictionary, nil),
            errSecSuccess, "a nil result pointer is accepted")
    }

    func testCertificatesDefaultToAlwaysAccessible() throws {
        var result: AnyObject?
        XCTAssertEqual(
            SecItemAdd(
                [
                    kSecClass as String: kSecClassCertificate, kSecValueData as String: Data([0x30]),
                    kSecReturnAttributes as String: true
                ] as CFDictionary, &result), errSecSuccess)
        XCTAssertEqual(
            (result as? [String: Any])?[kSecAttrAccessible as String] as? String, "dk",
            "certificates are always accessible by default")
    }
}
#endif
