import Foundation
import XCTest
@testable import KeychainCore

/// Issue 35, item 2: without a runtime directory (no `XDG_RUNTIME_DIR`, no `/run/user/<uid>`:
/// a root shell, a container, CI, cron) an unlock session's ticket is a key in the kernel
/// keyring, private to the user, which a planted or edited key cannot stand in for.
final class KernelKeyringSessionTests: XCTestCase {
    /// The test keychain, opened without a runtime directory.
    private func keyringKeychain() throws -> (test: TestKeychain, location: KeychainLocation, keychain: Keychain) {
        if (try? KernelKeyring.ring()) == nil {
            let message = "the kernel keyring is not available here (a seccomp profile?)"
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        try test.keychain.add(password("svc", "a", "secret-a", .whenUnlocked))
        var location = test.location
        location.runtimeDirectoryURL = nil
        return (test, location, try Keychain(location: location, options: test.options))
    }

    private func description(_ keychain: Keychain) -> String {
        UnlockTicketStore.keyDescription(vaultID: keychain.vaultID)
    }

    /// The line of `/proc/keys` for the key, as this process may view it: id, flags, usage,
    /// timeout, permissions, uid, gid, type, description.
    private func procKeysLine(_ description: String) throws -> [Substring]? {
        let text = try String(contentsOfFile: "/proc/keys", encoding: .utf8)
        return text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            .first { $0.count >= 9 && $0[8].hasPrefix(description) }
    }

    func testWithoutARuntimeDirectoryTheSessionLivesInTheKernelKeyringUntilLock() throws {
        let (test, location, keychain) = try keyringKeychain()
        defer { withExtendedLifetime(test) {} }
        XCTAssertNil(keychain.unlockTicketURL, "no file")
        try keychain.unlock(passphrase: "p", keepingSessionFor: .seconds(600))
        XCTAssertNotNil(KernelKeyring.read(description(keychain), maximumSize: UnlockTicket.maximumSize))

        let later = try Keychain(location: location, options: test.options)
        XCTAssertEqual(later.lockState, .unlocked, "the next instance resumes the session from the keyring")
        XCTAssertEqual(try later.find(query("svc", "a"), returning: .data).first?.data, Data("secret-a".utf8))
        XCTAssertEqual(try XCTUnwrap(later.unlockSession?.expiry).timeIntervalSinceNow, 600, accuracy: 5)

        // Owner and possessor only (0x3f3f0000), nothing for group or others; the kernel drops it at the expiry.
        let line = try XCTUnwrap(procKeysLine(description(keychain)))
        XCTAssertEqual(line[4], "3f3f0000", "permissions: \(line)")
        XCTAssertEqual(line[5], "\(getuid())")
        XCTAssertNotEqual(line[3], "perm", "a timeout is set: \(line)")
        XCTAssertEqual(line[7], "user")

        try later.lock()
        XCTAssertNil(
            KernelKeyring.read(description(keychain), maximumSize: UnlockTicket.maximumSize), "lock removes the key")
        XCTAssertEqual(try Keychain(location: location, options: test.options).lockState, .beforeFirstUnlock)
    }

    /// A session without expiry gets a kernel timeout of a day (review 35, F3: an abandoned ticket
    /// must not hold the user's key quota forever), not the earlier session's; a new session
    /// replaces the key, and resuming restarts the day.
    func testASessionWithoutExpiryGetsAKernelTimeoutOfADay() throws {
        let (test, location, keychain) = try keyringKeychain()
        defer { withExtendedLifetime(test) { KernelKeyring.remove(description(keychain)) } }
        try keychain.unlock(passphrase: "p", keepingSessionFor: .seconds(60))
        let first = try XCTUnwrap(KernelKeyring.read(description(keychain), maximumSize: UnlockTicket.maximumSize))
        try keychain.unlock(passphrase: "p", keepingSessionFor: nil)
        let second = try XCTUnwrap(KernelKeyring.read(description(keychain), maximumSize: UnlockTicket.maximumSize))
        XCTAssertNotEqual(first.key, second.key, "a new key, not the earlier one edited")
        XCTAssertNotEqual(first.payload, second.payload)
        XCTAssertEqual(KernelKeyring.idleLifetime, 86_400)
        // The line of the new key (the invalidated one may be listed until the kernel collects it).
        func line() throws -> [Substring] {
            let serial = String(format: "%08x", second.key)
            return try XCTUnwrap(
                String(contentsOfFile: "/proc/keys", encoding: .utf8).split(separator: "\n")
                    .map { $0.split(separator: " ", omittingEmptySubsequences: true) }.first {
                        $0.first.map(String.init) == serial
                    })
        }
        let timeout = try line()[3]
        XCTAssertTrue(
            ["1d", "23h"].contains(timeout), "a day, and no timeout left from the earlier session: \(timeout)")
        XCTAssertEqual(try Keychain(location: location, options: test.options).lockState, .unlocked)
        XCTAssertEqual(try line()[4], "3f3f0000", "still owner-only")
    }

    /// "The passphrase is not correct" comes first, whatever the state of the ticket's place.
    func testAWrongPassphraseIsReportedBeforeTheTicketsPlace() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        var location = test.location
        location.runtimeDirectoryURL = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/secure-storage")
        let unusable = try Keychain(location: location, options: test.options)
        XCTAssertKeychainError(.authFailed, try unusable.unlock(passphrase: "wrong", keepingSessionFor: .seconds(60)))
        XCTAssertKeychainError(
            .keychainUnavailable, try unusable.unlock(passphrase: "p", keepingSessionFor: .seconds(60)))
        XCTAssertEqual(unusable.lockState, .beforeFirstUnlock, "a refused session leaves the instance as it was")
    }

    /// The same user (or anyone who can write the keyring) planting or editing the ticket key
    /// gets nothing: the ticket is sealed under the device key and the boot id, and the key that
    /// does not open is removed.
    func testAPlantedOrEditedTicketKeyOpensNothing() throws {
        let (test, location, keychain) = try keyringKeychain()
        try keychain.unlock(passphrase: "p", keepingSessionFor: .seconds(600))
        let genuine = try XCTUnwrap(KernelKeyring.read(description(keychain), maximumSize: UnlockTicket.maximumSize))
            .payload
        try keychain.lock()

        var edited = genuine
        edited[60] ^= 1
        // garbage, an edited ticket, a replayed one
        let planted = [Data(repeating: 0x41, count: genuine.count), edited, genuine]
        for bytes in planted {
            try KernelKeyring.store(bytes, as: description(keychain), lifetime: 600)
            let opened = try Keychain(location: location, options: test.options)
            XCTAssertEqual(opened.lockState, .beforeFirstUnlock)
            XCTAssertKeychainError(
                .interactionNotAllowed, revealing: ["secret-a"], try opened.find(query("svc", "a"), returning: .data))
            XCTAssertNil(
                KernelKeyring.read(description(keychain), maximumSize: UnlockTicket.maximumSize),
                "a ticket that opens nothing is removed")
        }
    }

    /// Docker's default seccomp profile answers keyctl with EPERM (older runtimes: ENOSYS): the
    /// error says so and names what works instead, a runtime directory of one's own or a
    /// passphrase file on each command.
    func testABlockedKernelKeyringNamesWhatWorks() {
        for code in [EPERM, ENOSYS] {
            let error = KernelKeyring.unavailable(code)
            XCTAssertEqual(error.code, .keychainUnavailable)
            let message = "\(error)"
            for expected in [
                "kernel keyring is not available", "seccomp", "XDG_RUNTIME_DIR=/dev/shm/keychain-$(id -u)",
                "install -d -m 700",
                "--passphrase-file", "secure-storage-passphrase"
            ] {
                XCTAssertTrue(message.contains(expected), "\(expected) in: \(message)")
            }
        }
    }
}
