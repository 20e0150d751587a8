import Crypto
import Foundation
import XCTest
@testable import KeychainCore

/// Finding 7 of the adversarial review: a copy of an unlock ticket must not outlive `lock()`,
/// whichever environment locks, and a ticket must not carry a long-term key.
final class UnlockSessionAttackTests: XCTestCase {
    func testACopiedTicketDoesNotOutliveALockFromAnotherEnvironment() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        try test.keychain.add(password("svc", "a", "secret-a", .whenUnlocked))
        try test.keychain.unlock(passphrase: "p", keepingSessionFor: nil)
        let ticketURL = try XCTUnwrap(test.keychain.unlockTicketURL)
        let copy = try Data(contentsOf: ticketURL)
        XCTAssertEqual(try test.openAnother().lockState, .unlocked, "the session resumes in another process")

        // `keychain lock` run with another XDG_RUNTIME_DIR: it never sees the ticket file.
        let elsewhere = KeychainLocation(
            databaseURL: test.location.databaseURL, deviceKeyURL: test.location.deviceKeyURL,
            runtimeDirectoryURL: test.directory.appendingPathComponent("other-run"))
        let locker = try Keychain(location: elsewhere, options: test.options)
        XCTAssertNil(locker.unlockSession)
        try locker.unlock(passphrase: "p")
        try locker.lock()

        try copy.write(to: ticketURL)  // the copy, written back
        XCTAssertTrue(FileManager.default.fileExists(atPath: ticketURL.path))
        let resumed = try test.openAnother()
        XCTAssertEqual(resumed.lockState, .beforeFirstUnlock, "the written-back ticket resumes nothing")
        XCTAssertNil(resumed.unlockSession)
        XCTAssertKeychainError(
            .interactionNotAllowed, revealing: ["secret-a"], try resumed.find(query("svc", "a"), returning: .data))
    }

    /// The session record put back from a copy of the file taken while the session lasted, with
    /// the ticket: the header MAC it carries is no longer the one recorded beside the device key.
    func testALockIsNotUndoneByPuttingTheOldSessionRecordBack() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        try test.keychain.add(password("svc", "a", "secret-a", .whenUnlocked))
        try test.keychain.unlock(passphrase: "p", keepingSessionFor: nil)
        let ticketURL = try XCTUnwrap(test.keychain.unlockTicketURL)
        let ticket = try Data(contentsOf: ticketURL)
        let old = try test.snapshot()
        try test.keychain.lock()
        try test.restoreHeaderAndKeybag(from: old)
        try ticket.write(to: ticketURL)
        XCTAssertKeychainError(
            .integrityViolation, revealing: ["secret-a"],
            try test.openAnother().find(query("svc", "a"), returning: .data))
    }

    /// Not an attack, the false positive the anchor must never produce: a read whose snapshot was
    /// taken before another instance started a session (a header change, settled at once) sees
    /// the old header while the anchor accepts only the new one. It is retried on a fresh
    /// snapshot, not reported as tampering.
    func testASnapshotOlderThanASettledHeaderChangeIsRetriedNotTakenForTampering() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        let other = try test.openAnother()
        var attempts = 0
        try test.keychain.read { db in
            attempts += 1
            // commits and settles meanwhile
            if attempts == 1 { try other.unlock(passphrase: "p", keepingSessionFor: nil) }
            _ = try HeaderAuthenticator.fetchVerified(
                db, deviceKey: test.keychain.keys.deviceKey, location: test.location)
        }
        XCTAssertEqual(attempts, 2, "the first snapshot was stale and the read ran again")
        XCTAssertTrue(try test.keychain.verify().isClean)
    }

    /// Issue 16, finding 5: tickets only in the user's own memory-backed runtime directory.
    func testATicketIsNeverWrittenToDiskOrToAnotherUsersDirectory() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        func sessionLocation(_ base: URL) -> KeychainLocation {
            KeychainLocation(
                databaseURL: test.location.databaseURL, deviceKeyURL: test.location.deviceKeyURL,
                runtimeDirectoryURL: base.appendingPathComponent("secure-storage"))
        }
        // XDG_RUNTIME_DIR pointed at a disk directory.
        let onDisk = test.directory.appendingPathComponent("disk-runtime")
        try FileManager.default.createDirectory(
            at: onDisk, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let diskKeychain = try Keychain(location: sessionLocation(onDisk), options: test.options)
        XCTAssertKeychainError(.keychainUnavailable, try diskKeychain.unlock(passphrase: "p", keepingSessionFor: nil))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: onDisk.path), [], "nothing reached the disk")
        // A memory-backed directory other users can write, and one owned by another user.
        let shared = try TestKeychain.makeMemoryBackedDirectory()
        defer { try? FileManager.default.removeItem(at: shared) }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared.path)
        XCTAssertKeychainError(
            .keychainUnavailable,
            try Keychain(location: sessionLocation(shared), options: test.options)
                .unlock(passphrase: "p", keepingSessionFor: nil))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: shared.path)
        XCTAssertEqual(getuid(), 0, "CI runs as root, so the test can hand the directory to another user")
        XCTAssertEqual(chown(shared.path, 65534, 65534), 0)
        let squatted = try Keychain(location: sessionLocation(shared), options: test.options)
        XCTAssertThrowsError(try squatted.unlock(passphrase: "p", keepingSessionFor: nil)) { error in
            XCTAssertEqual((error as? KeychainError)?.code, .keychainUnavailable)
            XCTAssertFalse(
                "\(error)".contains("chown"), "the victim is not told to chown a directory they do not own: \(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared.path), [])
        XCTAssertNil(squatted.unlockSession)
    }

    /// Without XDG_RUNTIME_DIR no predictable name in a shared directory is used.
    func testWithoutXDGRuntimeDirectoryNoSharedPredictableNameIsUsed() {
        let resolved = KeychainLocation.runtimeDirectory(environment: [:])
        XCTAssertTrue(
            resolved == nil || resolved?.path == "/run/user/\(getuid())/secure-storage",
            "\(String(describing: resolved))")
        XCTAssertEqual(
            KeychainLocation.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": "relative/path"]), resolved,
            "a relative XDG path is ignored")
    }

    func testATicketHoldsNoLongTermKey() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        try test.keychain.unlock(passphrase: "p", keepingSessionFor: .seconds(600))
        let bytes = try Data(contentsOf: XCTUnwrap(test.keychain.unlockTicketURL))
        let ticket = try XCTUnwrap(
            UnlockTicket.open(bytes, deviceKey: test.stolenDeviceKey(), vaultID: test.keychain.vaultID))
        let keybag = try test.keychain.read { db in try KeyRing.fetchKeybag(db) }
        XCTAssertKeychainError(
            .authFailed,
            try KeyRing.unwrapUserClassKeys(keybag, kek: ticket.sessionKey, vaultID: test.keychain.vaultID),
            "the session key is not the passphrase's KEK")
    }

    func testAPassphraseChangeEndsTheSession() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        try test.keychain.unlock(passphrase: "p", keepingSessionFor: nil)
        let copy = try Data(contentsOf: XCTUnwrap(test.keychain.unlockTicketURL))
        try test.keychain.changePassphrase(from: "p", to: "q")
        try copy.write(to: XCTUnwrap(test.keychain.unlockTicketURL))
        XCTAssertEqual(try test.openAnother().lockState, .beforeFirstUnlock)
    }
}
