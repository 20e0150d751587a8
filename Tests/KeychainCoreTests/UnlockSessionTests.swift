import Foundation
import XCTest
@testable import KeychainCore

/// An unlock can be remembered for later processes (`keychain unlock`), ends with `lock()`, its
/// expiry or a passphrase change, and its ticket opens nothing without the device key.
final class UnlockSessionTests: XCTestCase {
    private func lockedKeychainWithSecret() throws -> TestKeychain {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("correct horse")
        try test.keychain.add(password("svc", "acct", "value", .whenUnlocked))
        return test
    }

    func testSessionUnlocksLaterInstancesUntilLock() throws {
        let test = try lockedKeychainWithSecret()
        XCTAssertEqual(try test.openAnother().lockState, .beforeFirstUnlock, "no session yet")

        try test.keychain.unlock(passphrase: "correct horse", keepingSessionFor: .seconds(600))
        let later = try test.openAnother()
        XCTAssertEqual(later.lockState, .unlocked)
        XCTAssertEqual(try later.find(query("svc", "acct"), returning: .data).first?.data, Data("value".utf8))
        let expiry = try XCTUnwrap(later.unlockSession?.expiry)
        XCTAssertEqual(expiry.timeIntervalSinceNow, 600, accuracy: 5)
        let mode = try XCTUnwrap(PlatformIO.ownerAndMode(of: later.ticketURL.path)).mode
        XCTAssertEqual(mode, 0o600)

        try later.lock()
        XCTAssertNil(later.unlockSession)
        XCTAssertEqual(try test.openAnother().lockState, .beforeFirstUnlock)
    }

    func testSessionWithoutExpiryAndWithoutAutoResume() throws {
        let test = try lockedKeychainWithSecret()
        try test.keychain.unlock(passphrase: "correct horse", keepingSessionFor: nil)
        XCTAssertEqual(try test.openAnother().unlockSession, UnlockSession(expiry: nil))
        var options = test.options
        options.resumesUnlockSession = false
        let manual = try Keychain(location: test.location, options: options)
        XCTAssertEqual(manual.lockState, .beforeFirstUnlock)
        XCTAssertTrue(manual.resumeUnlockSession())
        XCTAssertEqual(manual.lockState, .unlocked)
    }

    func testWrongPassphraseWritesNoSession() throws {
        let test = try lockedKeychainWithSecret()
        XCTAssertKeychainError(
            .authFailed, try test.keychain.unlock(passphrase: "wrong", keepingSessionFor: .seconds(60)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: test.keychain.ticketURL.path))
    }

    func testPassphraseChangeEndsTheSession() throws {
        let test = try lockedKeychainWithSecret()
        try test.keychain.unlock(passphrase: "correct horse", keepingSessionFor: .seconds(600))
        let ticket = try Data(contentsOf: test.keychain.ticketURL)
        try test.keychain.changePassphrase(from: "correct horse", to: "battery staple")
        XCTAssertEqual(try test.openAnother().lockState, .beforeFirstUnlock)
        // Even a saved copy of the old ticket no longer fits the new keybag.
        try writePrivate(ticket, to: test.keychain.ticketURL)
        XCTAssertEqual(try test.openAnother().lockState, .beforeFirstUnlock)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: test.keychain.ticketURL.path), "an unusable ticket is removed")
    }

    func testExpiredOrEditedTicketsAreRefusedAndRemoved() throws {
        let test = try lockedKeychainWithSecret()
        try test.keychain.unlock(passphrase: "correct horse", keepingSessionFor: .milliseconds(300))
        Thread.sleep(forTimeInterval: 1.4)
        XCTAssertEqual(try test.openAnother().lockState, .beforeFirstUnlock, "expired")

        for offset in [35, 60] {  // a byte of the expiry, a byte of the sealed key
            try test.keychain.unlock(passphrase: "correct horse", keepingSessionFor: .seconds(600))
            var ticket = try Data(contentsOf: test.keychain.ticketURL)
            ticket[offset] ^= 1
            try writePrivate(ticket, to: test.keychain.ticketURL)
            XCTAssertEqual(try test.openAnother().lockState, .beforeFirstUnlock, "byte \(offset)")
        }
    }

    /// Without a runtime directory the ticket goes to the kernel keyring (KernelKeyringSessionTests).
    func testSessionsNeedAPositiveDurationAndAMemoryBackedDirectory() throws {
        let test = try lockedKeychainWithSecret()
        XCTAssertKeychainError(
            .invalidParameter, try test.keychain.unlock(passphrase: "correct horse", keepingSessionFor: .zero))
        var location = test.location
        location.runtimeDirectoryURL = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/secure-storage")
        let withoutRuntime = try Keychain(location: location, options: test.options)
        XCTAssertKeychainError(
            .keychainUnavailable,
            try withoutRuntime.unlock(passphrase: "correct horse", keepingSessionFor: .seconds(60)))
        XCTAssertEqual(withoutRuntime.lockState, .beforeFirstUnlock, "refused before unlocking")
        XCTAssertNil(withoutRuntime.unlockSession)
        XCTAssertEqual(
            KeychainLocation.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"])?.path,
            "/run/user/1000/secure-storage")
        XCTAssertFalse(
            KeychainLocation.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": "relative"])?.path.hasPrefix("/dev/shm")
                ?? false,
            "no predictable name in a shared directory")
    }

    func testTicketIsUselessWithAnotherDeviceKey() throws {
        let test = try lockedKeychainWithSecret()
        try test.keychain.unlock(passphrase: "correct horse", keepingSessionFor: .seconds(600))
        let ticket = try Data(contentsOf: test.keychain.ticketURL)
        XCTAssertNotNil(
            UnlockTicket.open(ticket, deviceKey: test.keychain.keys.deviceKey, vaultID: test.keychain.vaultID))
        XCTAssertNil(UnlockTicket.open(ticket, deviceKey: .init(size: .bits256), vaultID: test.keychain.vaultID))
        XCTAssertNil(UnlockTicket.open(ticket, deviceKey: test.keychain.keys.deviceKey, vaultID: UUID()))
    }
}

/// Writes a file with mode 0600, as the keychain's own files are.
func writePrivate(_ data: Data, to url: URL) throws {
    try? FileManager.default.removeItem(at: url)
    XCTAssertTrue(
        FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]))
}

extension Keychain {
    /// The ticket path of a keychain whose location has a runtime directory.
    var ticketURL: URL { unlockTicketURL! }
}
