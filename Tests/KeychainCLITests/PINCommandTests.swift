import Foundation
import XCTest

/// `set-pin` and `--require-user-presence`: protected items need the PIN to be read, never to be listed.
final class PINCommandTests: CLITestCase {
    func testProtectedItemNeedsThePINToBeRead() throws {
        let noPIN = try keychain(
            "add-generic-password", "-s", "bank", "-a", "me", "--require-user-presence", "-w", "s3cret")
        XCTAssertStatus(noPIN, 50)
        XCTAssertTrue(noPIN.stderr.contains("authenticator"), noPIN.stderr)

        XCTAssertStatus(try keychain("set-pin", input: "2468\n"), 0)
        let mode =
            try FileManager.default.attributesOfItem(
                atPath: home.appendingPathComponent("state/authenticator/pin").path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "bank", "-a", "me", "--require-user-presence", "-w", "s3cret"), 0
        )

        let listed = try keychain("find-generic-password", "-s", "bank", "-a", "me")
        XCTAssertStatus(listed, 0)
        XCTAssertFalse(listed.stderr.contains("PIN"), "attributes need no PIN: \(listed.stderr)")

        let read = try keychain("find-generic-password", "-s", "bank", "-a", "me", "-w", input: "2468\n")
        XCTAssertStatus(read, 0)
        XCTAssertEqual(read.stdout, "s3cret\n")

        let wrong = try keychain("find-generic-password", "-s", "bank", "-a", "me", "-w", input: "1111\n")
        XCTAssertStatus(wrong, 50)
        XCTAssertEqual(wrong.stdout, "")
        let cancelled = try keychain("find-generic-password", "-s", "bank", "-a", "me", "-w")
        XCTAssertStatus(cancelled, 50)
        XCTAssertTrue(
            cancelled.stderr.contains("-128"), "a dismissed prompt is errSecUserCanceled: \(cancelled.stderr)")

        // Changing a PIN needs the current one and the new one: a terminal (StandardInputAttackTests).
        XCTAssertStatus(
            try runOnTerminal(
                ["set-pin"],
                answers: [("Current PIN: ", "0000"), ("New PIN: ", "9999"), ("Retype to confirm: ", "9999")]
            ).result, 50)
        XCTAssertStatus(
            try runOnTerminal(
                ["set-pin"],
                answers: [("Current PIN: ", "2468"), ("New PIN: ", "1357"), ("Retype to confirm: ", "1357")]
            ).result, 0)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "bank", "-a", "me", "-w", input: "1357\n").stdout, "s3cret\n")
        XCTAssertStatus(try keychain("delete-generic-password", "-s", "bank", "-a", "me"), 0)
    }

    /// `keychain unlock --timeout 600 && keychain set-pin && keychain add-generic-password …` (the
    /// tool article's tour): enrolling the PIN keeps the unlock session, in a runtime directory
    /// and in the kernel keyring alike; it used to end it, so the add found the keychain locked.
    func testSettingAPINKeepsTheUnlockSession() throws {
        let passphrase = try passphraseFile("pin-session-pass")
        let noRuntimeDirectory: [String: String?] = ["XDG_RUNTIME_DIR": nil]
        XCTAssertStatus(try keychain(["create", "--passphrase-file", passphrase.path]), 0)
        XCTAssertStatus(
            try run(
                ["unlock", "--timeout", "600", "--passphrase-file", passphrase.path], input: Data(),
                changing: noRuntimeDirectory), 0)
        XCTAssertStatus(try run(["set-pin"], input: Data("2468\n".utf8), changing: noRuntimeDirectory), 0)
        let status = try run(["status"], input: Data(), changing: noRuntimeDirectory)
        XCTAssertTrue(
            status.stdout.contains("unlock session until"), "the session outlives the enrolment:\n\(status.stdout)")
        XCTAssertStatus(
            try run(
                ["add-generic-password", "-s", "after-pin", "-a", "me", "-w", "value"], input: Data(),
                changing: noRuntimeDirectory), 0)
        XCTAssertStatus(try run(["lock"], input: Data(), changing: noRuntimeDirectory), 0)
        let locked = try run(
            ["add-generic-password", "-s", "after-lock", "-a", "me", "-w", "value"], input: Data(),
            changing: noRuntimeDirectory)
        XCTAssertStatus(locked, 51)
    }

    /// `rm state/authenticator/pin && keychain set-pin` used to install a new PIN that opened the
    /// protected items. Now the deleted file is tampering (52), no new PIN is set, and the item
    /// stays closed.
    func testADeletedPINFileIsTamperingAndNoNewPINOpensTheItems() throws {
        XCTAssertStatus(try keychain("set-pin", input: "2468\n"), 0)
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "bank", "-a", "me", "--require-user-presence", "--stdin", input: "s3cret"),
            0)
        let pinFile = home.appendingPathComponent("state/authenticator/pin")
        try FileManager.default.removeItem(at: pinFile)
        let reset = try keychain("set-pin", input: "1111\n")
        XCTAssertStatus(reset, 52)
        XCTAssertTrue(reset.stderr.contains("missing"), reset.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: pinFile.path), "no new PIN file")
        let read = try keychain("find-generic-password", "-s", "bank", "-a", "me", "-w", input: "1111\n")
        XCTAssertStatus(read, 52)
        XCTAssertEqual(read.stdout, "")
        XCTAssertFalse(read.stderr.contains("s3cret"), read.stderr)
        // its attributes stay listed
        XCTAssertStatus(try keychain("find-generic-password", "-s", "bank", "-a", "me"), 0)
    }
}
