import Crypto
import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Finding 1 of the adversarial review: an older copy of the file (from before the passphrase,
/// or from before a passphrase change) plus the device key must open nothing written or
/// rewrapped after the change, even spliced into the live file with a forged header MAC.
final class KeyRotationAttackTests: XCTestCase {
    func testAKeybagFromBeforeThePassphraseOpensNothingAfterIt() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("bank", "before", "secret-before", .whenUnlocked))
        let old = try test.snapshot()
        try test.keychain.setPassphrase("correct horse")
        try test.keychain.add(password("bank", "after", "secret-after", .whenUnlocked))
        try test.keychain.add(password("bank", "after-c", "secret-after-c", .afterFirstUnlock))

        // Without the device key the splice is caught before anything is unwrapped.
        try test.spliceKeybagAndPassphrase(from: old, forgingMAC: false)
        XCTAssertKeychainError(.integrityViolation, try test.openAnother(), "a spliced keybag fails the header MAC")

        // Nor does an older header and keybag put back whole: the anchor beside the device key
        // no longer accepts their MAC.
        try test.restoreHeaderAndKeybag(from: old)
        XCTAssertKeychainError(.integrityViolation, try test.openAnother(), "an older header is not the recorded one")

        // With the device key, forging the header MAC and the anchor too, the file becomes
        // passphrase-less — but the old class keys open no item.
        try test.spliceKeybagAndPassphrase(from: old, forgingMAC: true)
        XCTAssertKeychainError(
            .integrityViolation, try test.openAnother(), "a forged header MAC alone does not match the anchor")
        try test.forgeAnchor()
        let spliced = try test.openAnother()
        XCTAssertFalse(spliced.hasPassphrase)
        for account in ["before", "after", "after-c"] {
            XCTAssertKeychainError(
                .integrityViolation, revealing: ["secret-before", "secret-after", "secret-after-c"],
                try spliced.find(query("bank", account, limit: .one), returning: .data), account)
        }
        XCTAssertFalse(try spliced.verify().isClean)
    }

    func testAPassphraseChangeLocksOutTheLeakedPassphraseWithItsKeybag() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("leaked")
        try test.keychain.add(password("bank", "kept", "secret-kept", .whenUnlocked))
        let old = try test.snapshot()
        try test.keychain.changePassphrase(from: "leaked", to: "fresh")
        try test.keychain.add(password("bank", "new", "secret-new", .whenUnlocked))

        try test.spliceKeybagAndPassphrase(from: old, forgingMAC: true)
        try test.forgeAnchor()
        let spliced = try test.openAnother()
        try spliced.unlock(passphrase: "leaked")  // the old keybag does open with the old passphrase…
        for account in ["kept", "new"] {  // …and its keys open nothing in the file any more
            XCTAssertKeychainError(
                .integrityViolation, revealing: ["secret-kept", "secret-new"],
                try spliced.find(query("bank", account, limit: .one), returning: .data), account)
        }
    }

    /// A passphrase change checkpoints the log: the main database file alone (a copy made without
    /// its -wal, or the file once the log is gone) no longer opens with the old passphrase.
    func testAfterAChangeTheMainFileAloneNoLongerOpensWithTheOldPassphrase() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("leaked")
        try test.keychain.add(password("bank", "a", "secret-a", .whenUnlocked))
        try test.keychain.changePassphrase(from: "leaked", to: "fresh")
        let copy = KeychainLocation(directory: test.directory.appendingPathComponent("main-file-only"))
        try FileManager.default.createDirectory(
            at: copy.databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: copy.deviceKeyURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: test.location.databaseURL, to: copy.databaseURL)
        try FileManager.default.copyItem(at: test.location.deviceKeyURL, to: copy.deviceKeyURL)
        try FileManager.default.copyItem(
            at: test.anchorURL, to: FormatAnchor.url(for: copy, vaultID: test.keychain.vaultID))
        let stolen = try Keychain(location: copy, options: test.options)
        XCTAssertKeychainError(.authFailed, try stolen.unlock(passphrase: "leaked"))
        try stolen.unlock(passphrase: "fresh")
        XCTAssertEqual(try stolen.find(query("bank", "a"), returning: .data).first?.data, Data("secret-a".utf8))
    }

    /// Removing the passphrase destroys passcode-set items; an item whose clear accessibility
    /// column was edited to look like one is not destroyed: its seal gives the edit away.
    func testRemovingThePassphraseDestroysOnlyProvenPasscodeSetItems() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        try test.keychain.add(password("svc", "passcode", "secret-p", .whenPasscodeSetThisDeviceOnly))
        try test.keychain.add(password("svc", "important", "secret-i", .always))
        try test.tamper { db in try db.execute(sql: "UPDATE items SET accessibility = 'akpu' WHERE id = 2") }
        XCTAssertKeychainError(.integrityViolation, try test.keychain.removePassphrase(current: "p"))
        try test.tamper { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items"), 2, "nothing was deleted")
        }
        XCTAssertTrue(test.keychain.hasPassphrase)
    }

    func testCreatingWithAPassphraseNeverCommitsADeviceOnlyKeybag() throws {
        let test = try TestKeychain()
        let location = KeychainLocation(directory: test.directory.appendingPathComponent("created"))
        let created = try Keychain.create(at: location, passphrase: "from the start", options: test.options)
        XCTAssertEqual(created.lockState, .unlocked)
        try created.add(password("svc", "a", "secret-a", .whenUnlocked))
        // Every keybag change bumps the generation: generation 1 with a passphrase means the only
        // keybag ever committed had it.
        XCTAssertEqual(created.keys.header.keybagGeneration, 1)
        XCTAssertTrue(created.keys.header.hasPassphrase)
        let keybag = try created.read { db in try KeyRing.fetchKeybag(db) }
        let deviceOnly = KeyHierarchy.userKEK(
            deviceKey: created.keys.deviceKey, passphraseKey: nil, vaultID: created.vaultID)
        XCTAssertKeychainError(
            .authFailed, try KeyRing.unwrapUserClassKeys(keybag, kek: deviceOnly, vaultID: created.vaultID))
        let reopened = try Keychain(location: location, options: test.options)
        XCTAssertEqual(reopened.lockState, .beforeFirstUnlock)
    }

    func testRemovingThePassphraseRotatesToo() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        let old = try test.snapshot()
        try test.keychain.add(password("svc", "x", "secret-x", .afterFirstUnlock))
        try test.keychain.removePassphrase(current: "p")
        try test.spliceKeybagAndPassphrase(from: old, forgingMAC: true)
        try test.forgeAnchor()
        let spliced = try test.openAnother()
        try spliced.unlock(passphrase: "p")
        XCTAssertKeychainError(
            .integrityViolation, revealing: ["secret-x"], try spliced.find(query("svc", "x"), returning: .data))
    }
}
