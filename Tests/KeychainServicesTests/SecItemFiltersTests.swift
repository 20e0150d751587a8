#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// The implicit filters, access groups and synchronizable items, persistent
/// references, and lock state showing through.
final class SecItemFiltersTests: SecItemTestCase {
    /// A query without kSecAttrSynchronizable sees only local items; true only synced; Any both.
    func testSynchronizableFilter() throws {
        add(password("acct"), data: "local")
        add(password("acct", [kSecAttrSynchronizable as String: kCFBooleanTrue!]), data: "synced")
        XCTAssertEqual(copy(password("acct", [kSecReturnData as String: true])).result as? Data, Data("local".utf8))
        XCTAssertEqual(
            copy(password("acct", [kSecReturnData as String: true, kSecAttrSynchronizable as String: true])).result
                as? Data, Data("synced".utf8))
        let both = copy(
            password(
                "acct",
                [
                    kSecReturnData as String: true, kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
                    kSecMatchLimit as String: kSecMatchLimitAll
                ]))
        XCTAssertEqual((both.result as? [Data])?.count, 2)
    }

    /// Add goes to the first entitled group; searches without a group cover every entitled group;
    /// with a group, only that one; other apps' groups are invisible.
    func testAccessGroups() throws {
        add(password("default"))
        add(password("app", [kSecAttrAccessGroup as String: Self.appGroup]))
        // An item of another application, written directly to the engine.
        try keychain.add(
            NewItem(.genericPassword, attributes: [.service: "svc", .account: "foreign", .accessGroup: "OTHER.app"]))

        let all = copy([
            kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true
        ])
        let visible = (all.result as? [[String: Any]])?.compactMap { $0[kSecAttrAccount as String] as? String }
        XCTAssertEqual(visible, ["default", "app"], "agrp IN (caller's groups)")
        let group = (all.result as? [[String: Any]])?.first?[kSecAttrAccessGroup as String] as? String
        XCTAssertEqual(group, Self.sharedGroup)
        let onlyApp = copy([
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: Self.appGroup,
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true
        ])
        XCTAssertEqual(
            (onlyApp.result as? [[String: Any]])?.compactMap { $0[kSecAttrAccount as String] as? String }, ["app"])
        XCTAssertEqual(
            SecItemDelete(password("foreign") as CFDictionary), errSecItemNotFound,
            "another app's item cannot be deleted")

        SecItemEnvironment.applicationIdentity = ApplicationIdentity(
            applicationIdentifier: "ROOT.admin", accessGroups: ["*"])
        XCTAssertEqual(
            ((copy([
                kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true
            ]).result) as? [Any])?.count, 3, "\"*\" entitles every group")
    }

    /// A client without any entitlement gets -34018 from every call.
    func testNoEntitlementsMeansMissingEntitlementEverywhere() {
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(
            applicationIdentifier: "x", accessGroups: [], includeApplicationIdentifier: false)
        XCTAssertEqual(add(password()), errSecMissingEntitlement)
        XCTAssertEqual(copy(password()).status, errSecMissingEntitlement)
        XCTAssertEqual(update(password(), [kSecAttrLabel as String: "x"]), errSecMissingEntitlement)
        XCTAssertEqual(SecItemDelete(password() as CFDictionary), errSecMissingEntitlement)
    }

    /// The identity comes from KEYCHAIN_APPLICATION_IDENTIFIER and KEYCHAIN_ACCESS_GROUPS, else the shared default.
    func testIdentityFromEnvironment() {
        let identity = ApplicationIdentity.resolve(environment: [
            "KEYCHAIN_APPLICATION_IDENTIFIER": "TEAM.com.acme.app",
            "KEYCHAIN_ACCESS_GROUPS": "TEAM.com.acme.shared, group.com.acme"
        ])
        XCTAssertEqual(identity.accessGroups, ["TEAM.com.acme.shared", "group.com.acme", "TEAM.com.acme.app"])
        XCTAssertEqual(identity.defaultAccessGroup, "TEAM.com.acme.shared")
        // Without configuration: the shared default, whatever the executable is called.
        let fallback = ApplicationIdentity.resolve(environment: [:])
        XCTAssertEqual(fallback, .sharedDefault)
        XCTAssertEqual(fallback.defaultAccessGroup, "local.keychain")
        XCTAssertTrue(fallback.isEntitledToEveryGroup, "it sees what the tool and other unconfigured processes wrote")
        XCTAssertFalse(fallback.isConfigured)
        XCTAssertEqual(
            ApplicationIdentity.resolve(environment: ["KEYCHAIN_APPLICATION_IDENTIFIER": ""]), .sharedDefault)
        // Groups without an identifier restrict too (never silently the identity that sees everything).
        let groupsOnly = ApplicationIdentity.resolve(environment: [
            "KEYCHAIN_ACCESS_GROUPS": "TEAM.com.acme.app, local.keychain"
        ])
        XCTAssertEqual(groupsOnly.applicationIdentifier, "TEAM.com.acme.app")
        XCTAssertEqual(groupsOnly.accessGroups, ["TEAM.com.acme.app", "local.keychain"])
        XCTAssertFalse(groupsOnly.canRead("TEAM.com.other.app"))
        XCTAssertTrue(groupsOnly.isConfigured)
        XCTAssertEqual(ApplicationIdentity.resolve(environment: ["KEYCHAIN_ACCESS_GROUPS": " , "]), .sharedDefault)
    }

    /// Persistent references need no class, ignore the sync filter, survive updates.
    func testPersistentReferences() throws {
        let reference = try persistentReference(of: password("a", [kSecAttrSynchronizable as String: true]))
        XCTAssertEqual(reference.prefix(4), Data("genp".utf8))
        XCTAssertEqual(
            update(password("a", [kSecAttrSynchronizable as String: true]), [kSecValueData as String: Data("v2".utf8)]),
            errSecSuccess)
        XCTAssertEqual(
            copy([kSecValuePersistentRef as String: reference, kSecReturnData as String: true]).result as? Data,
            Data("v2".utf8))
        XCTAssertEqual(
            update([kSecValuePersistentRef as String: reference], [kSecAttrLabel as String: "by ref"]), errSecSuccess)
    }

    /// The lock API for tests (Linux only), and lock state showing through as -25308 / -25293.
    func testLockStateShowsThrough() throws {
        add(password("foreground"), data: "f")
        add(
            password("background", [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]),
            data: "b")
        try keychain.setPassphrase("device passcode")
        XCTAssertEqual(
            add(password("p", [kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly])),
            errSecSuccess)
        try SecItemEnvironment.lock()
        XCTAssertEqual(try SecItemEnvironment.lockState, .locked)
        XCTAssertEqual(
            copy(password("foreground", [kSecReturnData as String: true])).status, errSecInteractionNotAllowed)
        XCTAssertEqual(copy(password("p", [kSecReturnData as String: true])).status, errSecInteractionNotAllowed)
        XCTAssertEqual(copy(password("background", [kSecReturnData as String: true])).result as? Data, Data("b".utf8))
        XCTAssertThrowsError(try SecItemEnvironment.unlock(passphrase: "wrong"))
        try SecItemEnvironment.unlock(passphrase: "device passcode")
        XCTAssertEqual(copy(password("foreground", [kSecReturnData as String: true])).result as? Data, Data("f".utf8))
    }

    /// The delete-then-add trap: while locked the delete succeeds and the
    /// add fails, so the secret is gone. This is Apple's behaviour, reproduced exactly.
    func testDeleteThenAddWhileLockedLosesTheItemAsOnIOS() throws {
        add(password("token"), data: "v1")
        try keychain.setPassphrase("pw")
        try SecItemEnvironment.lock()
        XCTAssertEqual(SecItemDelete(password("token") as CFDictionary), errSecSuccess)
        XCTAssertEqual(add(password("token"), data: "v2"), errSecInteractionNotAllowed)
        try SecItemEnvironment.unlock(passphrase: "pw")
        XCTAssertEqual(copy(password("token")).status, errSecItemNotFound)
    }

    /// Concurrent calls from many threads are safe and consistent.
    func testConcurrentCallsFromManyThreads() {
        let failures = Mutex([String]())
        nonisolated(unsafe) let test = self
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            for index in 0..<20 {
                let item = test.password("t\(thread)-\(index)")
                let statuses = [
                    test.add(item, data: "v\(index)"),
                    test.copy(item.merging([kSecReturnData as String: true]) { $1 }).status,
                    test.update(item, [kSecValueData as String: Data("w".utf8)]),
                    SecItemDelete(item as CFDictionary)
                ]
                if statuses != [0, 0, 0, 0] { failures.withLock { $0.append("\(thread)-\(index): \(statuses)") } }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(copy([kSecClass as String: kSecClassGenericPassword]).status, errSecItemNotFound)
    }
}

import Synchronization
#endif
