#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import GRDB
@_spi(Testing) import KeychainCore
import KeychainServices
import SecureStorage
import AttackTestSupport
import XCTest

/// Sensitivity tags, the delete-then-add scenario on a locked device, and protection changes.
final class ProtectionTests: StorageTestCase {
    func testSensitivityTagsMapToTheirDocumentedProtections() throws {
        try keychain.setPassphrase("device passcode")
        let expected: [(Sensitivity, Protection, String)] = [
            (.public, .afterFirstUnlock, "ck"),
            (.private, .afterFirstUnlockThisDeviceOnly, "cku"),
            (.secret, .whenUnlockedThisDeviceOnly, "aku"),
            (.topSecret, .whenPasscodeSetThisDeviceOnly, "akpu"),
            (.custom(.always), .always, "dk")
        ]
        for (sensitivity, protection, raw) in expected {
            XCTAssertEqual(sensitivity.protection, protection)
            try storage.set("v", for: "\(sensitivity)", sensitivity: sensitivity)
            XCTAssertEqual(try storage.protection(of: "\(sensitivity)"), protection)
            // As the SecItem API sees it.
            var result: CFTypeRef?
            XCTAssertEqual(
                SecItemCopyMatching(
                    [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.acme.app",
                        kSecAttrAccount as String: "\(sensitivity)", kSecReturnAttributes as String: true
                    ] as CFDictionary, &result), errSecSuccess)
            XCTAssertEqual((result as? [String: Any])?[kSecAttrAccessible as String] as? String, raw)
        }
        try storage.set("v", for: "default")
        XCTAssertEqual(
            try storage.protection(of: "default"), .whenUnlockedThisDeviceOnly, "the default sensitivity is .secret")
    }

    func testTopSecretNeedsAPasscodeOrFallsBackWhenAllowed() throws {
        XCTAssertStorageError(.passcodeRequired, try storage.set("card key", for: "payment", sensitivity: .topSecret))
        XCTAssertNil(try storage.data(for: "payment"))
        let lenient = SecureStorage(service: "com.acme.app", passcodeFallback: .storeAsSecret)
        try lenient.set("card key", for: "payment", sensitivity: .topSecret)
        XCTAssertEqual(try lenient.protection(of: "payment"), .whenUnlockedThisDeviceOnly)
        try keychain.setPassphrase("device passcode")
        try storage.set("card key", for: "payment", sensitivity: .topSecret)
        XCTAssertEqual(try storage.protection(of: "payment"), .whenPasscodeSetThisDeviceOnly)
    }

    /// SSKeychain-style code deletes then adds. While the device is locked the delete
    /// succeeds and the add fails, so the token is gone. SecureStorage updates instead: the write
    /// fails with `.locked` and the token is still there.
    func testLockedDeviceWriteNeverLosesTheOldValue() throws {
        // The seed's pattern, as SSKeychain implements setPassword: delete, then add.
        func seedStyleSet(_ token: String, account: String) -> OSStatus {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.acme.app",
                kSecAttrAccount as String: account
            ]
            // keychain-lint:disable-next-line delete-then-add -- reproduces the seed's bug to prove the engine keeps the old value
            SecItemDelete(query as CFDictionary)
            var add = query
            add[kSecValueData as String] = Data(token.utf8)
            // keychain-lint:disable-next-line implicit-accessibility -- the seed's code, unchanged
            return SecItemAdd(add as CFDictionary, nil)
        }
        XCTAssertEqual(seedStyleSet("seed-token-1", account: "seed.token"), errSecSuccess)
        try storage.set("our-token-1", for: "our.token")

        try lockWithPassphrase()  // the app is relaunched in the background while locked
        XCTAssertEqual(seedStyleSet("seed-token-2", account: "seed.token"), errSecInteractionNotAllowed)
        XCTAssertStorageError(.locked, try storage.set("our-token-2", for: "our.token"))
        XCTAssertStorageError(.locked, try storage.set(Data("our-token-2".utf8), for: "our.token"))

        try unlock()
        XCTAssertEqual(try storage.string(for: "seed.token"), nil, "the seed-style code lost its token")
        XCTAssertEqual(try storage.string(for: "our.token"), "our-token-1", "ours kept the previous token")
    }

    func testPrivateValuesStayUsableInTheBackgroundWhileLocked() throws {
        try storage.set("refresh-1", for: "refresh", sensitivity: .private)
        try lockWithPassphrase()
        XCTAssertEqual(try storage.string(for: "refresh"), "refresh-1")
        try storage.set("refresh-2", for: "refresh", sensitivity: .private)
        XCTAssertEqual(try storage.string(for: "refresh"), "refresh-2")
    }

    /// Changing protection keeps exactly one item, with no moment without it.
    func testChangingProtectionKeepsExactlyOneItem() throws {
        try storage.set("token", for: "t", sensitivity: .private)
        try storage.changeProtection(of: "t", to: .secret)
        XCTAssertEqual(try storage.protection(of: "t"), .whenUnlockedThisDeviceOnly)
        XCTAssertEqual(try storage.string(for: "t"), "token")
        XCTAssertEqual(try storage.allKeys(), ["t"])
        XCTAssertEqual(
            try keychain.find(Query(.genericPassword, [.service: "com.acme.app"])).count, 1, "one item in the engine")
        XCTAssertStorageError(.notFound, try storage.changeProtection(of: "missing", to: .secret))

        // Storing with another sensitivity also moves it, in the same single update.
        try storage.set("token", for: "t", sensitivity: .public)
        XCTAssertEqual(try storage.protection(of: "t"), .afterFirstUnlock)
    }

    /// Out of the deprecated `Always` class, for every value of the service at once.
    func testMigratingOutOfAlways() throws {
        try storage.set("a", for: "a", sensitivity: .custom(.always))
        try storage.set("b", for: "b", sensitivity: .custom(.always))
        try storage.set("c", for: "c", sensitivity: .private)
        XCTAssertTrue(try storage.migrateProtection(from: .always, to: .private))
        XCTAssertEqual(
            try ["a", "b", "c"].map { try storage.protection(of: $0) },
            Array(repeating: .afterFirstUnlockThisDeviceOnly, count: 3))
        XCTAssertFalse(try storage.migrateProtection(from: .always, to: .private), "nothing left to move")
    }

    /// A protection change that needs the device unlocked fails while locked and changes nothing.
    func testProtectionChangeUnderLock() throws {
        try storage.set("token", for: "t", sensitivity: .private)
        try lockWithPassphrase()
        XCTAssertStorageError(.locked, try storage.changeProtection(of: "t", to: .secret))
        XCTAssertEqual(try storage.protection(of: "t"), .afterFirstUnlockThisDeviceOnly)
        XCTAssertEqual(try storage.string(for: "t"), "token")
        try storage.changeProtection(of: "t", to: .public)
        XCTAssertEqual(try storage.protection(of: "t"), .afterFirstUnlock, "C to C works while locked")
    }

    func testTamperedValueIsAnIntegrityViolation() throws {
        try storage.set("value", for: "k")
        let queue = try DatabaseQueue(path: keychain.location.databaseURL.path)
        try queue.write { db in
            var secret = try XCTUnwrap(Data.fetchOne(db, sql: "SELECT secret FROM items"))
            secret[0] ^= 1
            try db.execute(sql: "UPDATE items SET secret = ?", arguments: [secret])
        }
        try queue.close()
        XCTAssertStorageError(.integrityViolation, try storage.string(for: "k"))
    }

    func testSecurityProperties() throws {
        var properties = try SecureStorage.securityProperties
        XCTAssertEqual(properties.backend, .fileKeychain)
        XCTAssertEqual(properties.passcodeSet, false)
        XCTAssertEqual(properties.lockStatus, .unlocked)
        XCTAssertEqual(properties.keychainPath, keychain.location.databaseURL.path)
        XCTAssertEqual(properties.deviceBinding, .keyFile(path: keychain.location.deviceKeyURL.path))
        XCTAssertFalse(properties.detectsRollback)
        try lockWithPassphrase()
        properties = try SecureStorage.securityProperties
        XCTAssertEqual(properties.passcodeSet, true)
        XCTAssertEqual(properties.lockStatus, .locked)
        XCTAssertTrue(properties.description.contains("fileKeychain"))
    }

    func testSecurityPropertiesOfAKeychainBoundToATPM() throws {
        let tpm = try startSoftwareTPM()
        let bound = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("bound")),
            options: KeychainOptions(
                passphraseHardening: .fixed(.insecureForTestingOnly), tpm: TPMDevice(tcti: tpm.tcti)))
        SecItemEnvironment.useKeychain(bound)
        let properties = try SecureStorage.securityProperties
        XCTAssertEqual(properties.deviceBinding, .tpm(tcti: tpm.tcti, pcrs: [], path: bound.location.deviceKeyURL.path))
        XCTAssertFalse(properties.isProtectedBySecureHardware, "a software TPM is not secure hardware")
        XCTAssertTrue(properties.description.contains("device binding: TPM \(tpm.tcti)"), properties.description)
        try storage.set("bound", for: "k")
        XCTAssertEqual(try storage.string(for: "k"), "bound")
    }

    /// Reading the diagnostics never creates a keychain or a device key.
    func testSecurityPropertiesDoNotCreateAKeychain() throws {
        try withEmptyDefaultHome { home in
            let properties = try SecureStorage.securityProperties
            XCTAssertEqual(properties.keychainPath, home.appendingPathComponent("data/keychain.db").path)
            XCTAssertEqual(properties.lockStatus, .unlocked)
            XCTAssertEqual(properties.passcodeSet, false)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.path), [], "nothing was created")
        }
    }
}
#endif
