import Foundation
import XCTest

/// Issue 35, items 1 and 3: no two values ever share a piped standard input, and what a line
/// means never depends on state the caller cannot see (an unlock session, whether the keychain
/// has a passphrase or a PIN yet). Every command that reads two values is fed input in the shape
/// of the issue, with and without an unlock session: it refuses (status 64) before reading,
/// opening, writing or changing anything, and says how to give one value another way.
final class StandardInputAttackTests: CLITestCase {
    private let passphrase = "s3cret-kc-words"

    /// A keychain with a passphrase and one whenUnlocked item; with `session`, unlocked for later commands.
    private func protectedKeychain(session: Bool) throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: passphrase + "\n"), 0)
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "svc", "-a", "kept", "-w", "kept-secret", "--passphrase-file",
                passphraseFile(passphrase).path), 0)
        if session { XCTAssertStatus(try keychain("unlock", input: passphrase + "\n"), 0) }
    }

    private func assertRefused(
        _ result: CLIResult, naming fix: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertStatus(result, 64, file: file, line: line)
        XCTAssertTrue(result.stderr.contains("Standard input cannot carry both"), result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(fix), "names the fix \(fix): \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains(passphrase), "never echoes input", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
    }

    private func itemCount() throws -> Int? {
        try keychain("status", "--json").json()["totalItems"] as? Int
    }

    /// README "Servers", step 1, as it was: the secret was taken for the passphrase (status 50).
    func testTheServersRecipeWithStdinAndUnlockIsRefusedAndTheDocumentedOneWorks() throws {
        for session in [false, true] {
            try? FileManager.default.removeItem(at: home)
            try protectedKeychain(session: session)
            for arguments in [["--stdin", "--unlock"], ["--unlock"]] {  // all of standard input, or one line (no -w)
                let refused = try keychain(
                    ["add-generic-password", "-s", "com.acme.app", "-a", "db"] + arguments,
                    input: "\(passphrase)\npa55")
                assertRefused(refused, naming: "--passphrase-file")
                XCTAssertEqual(try itemCount(), 1, "nothing added (session: \(session))")
            }
        }
        // The container recipe (README, Servers.md): the passphrase from a file, the secret piped.
        let file = try passphraseFile(passphrase)
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "com.acme.app", "-a", "db", "--stdin", "--passphrase-file", file.path,
                input: "pa55"), 0)
        XCTAssertEqual(
            try keychain(
                "find-generic-password", "-s", "com.acme.app", "-a", "db", "-w", "--passphrase-file", file.path
            ).stdout, "pa55\n")
    }

    /// Servers.md, "Containers", command for command: no terminal, no systemd, no runtime directory.
    func testTheDocumentedContainerRecipeWorksWithoutATerminal() throws {
        let secret = try passphraseFile("container pass", name: "keychain-passphrase")
        let container: [String: String?] = ["XDG_RUNTIME_DIR": nil]
        XCTAssertStatus(try run(["create", "--passphrase-file", secret.path], input: Data(), changing: container), 0)
        XCTAssertStatus(
            try run(
                ["add-generic-password", "-s", "com.acme.app", "-a", "db", "--stdin", "--passphrase-file", secret.path],
                input: Data("pa55".utf8), changing: container), 0)
        XCTAssertEqual(try keychain("status", "--json").json()["hasPassphrase"] as? Bool, true)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "com.acme.app", "-a", "db", "-w"), 51)
        XCTAssertEqual(
            try run(
                ["find-generic-password", "-s", "com.acme.app", "-a", "db", "-w", "--passphrase-file", secret.path],
                input: Data(), changing: container
            ).stdout, "pa55\n")
    }

    /// Nothing is created either: the refusal comes before the keychain is opened.
    func testARefusedAddCreatesNoKeychain() throws {
        let refused = try keychain(
            "add-generic-password", "-s", "svc", "-a", "x", "--stdin", "--unlock", input: "pass\nsecret")
        assertRefused(refused, naming: "--passphrase-file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.appendingPathComponent("data/keychain.db").path))
    }

    /// The shape: `printf '%s\n%s\n' "$KEYCHAIN_PASSPHRASE" backup-pass | keychain export f --unlock`
    /// with a session open made the keychain passphrase the backup's, and wrote the file.
    func testExportWithUnlockNeverTakesTheKeychainPassphraseForTheBackups() throws {
        for session in [false, true] {
            try? FileManager.default.removeItem(at: home)
            try protectedKeychain(session: session)
            let backup = scratch.appendingPathComponent("backup-\(session)")
            let refused = try keychain("export", backup.path, "--unlock", input: "\(passphrase)\nbackup-pass\n")
            assertRefused(refused, naming: "--backup-passphrase-file")
            XCTAssertTrue(refused.stderr.contains("--passphrase-file"), refused.stderr)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: backup.path), "no backup written (session: \(session))")
        }
        // Distinct, named sources: the keychain passphrase from a file, the backup's piped; or both from files.
        let backup = scratch.appendingPathComponent("backup")
        XCTAssertStatus(
            try keychain(
                "export", backup.path, "--passphrase-file", passphraseFile(passphrase).path, input: "backup-pass\n"), 0)
        let other = scratch.appendingPathComponent("other").path
        XCTAssertStatus(try keychain("import", backup.path, "--keychain", other, input: passphrase + "\n"), 50)
        XCTAssertStatus(
            try keychain(
                "import", backup.path, "--keychain", other, "--backup-passphrase-file",
                passphraseFile("backup-pass").path), 0)
        XCTAssertEqual(
            try keychain("find-generic-password", "--keychain", other, "-s", "svc", "-a", "kept", "-w").stdout,
            "kept-secret\n")
        let second = scratch.appendingPathComponent("second")
        XCTAssertStatus(
            try keychain(
                "export", second.path, "--unlock", "--backup-passphrase-file", passphraseFile("second pass").path,
                input: passphrase + "\n"), 0)
        XCTAssertStatus(try keychain("import", second.path, "--keychain", other, input: "second pass\n"), 0)
    }

    func testImportWithUnlockRefusesOnePipeForTwoPassphrases() throws {
        try protectedKeychain(session: false)
        let backup = scratch.appendingPathComponent("backup")
        XCTAssertStatus(
            try keychain(
                "export", backup.path, "--passphrase-file", passphraseFile(passphrase).path, input: "backup-pass\n"), 0)
        XCTAssertStatus(try keychain("delete-generic-password", "-s", "svc", "-a", "kept"), 0)
        for session in [false, true] {
            if session { XCTAssertStatus(try keychain("unlock", input: passphrase + "\n"), 0) }
            assertRefused(
                try keychain("import", backup.path, "--unlock", input: "\(passphrase)\nbackup-pass\n"),
                naming: "--backup-passphrase-file")
            XCTAssertEqual(try itemCount(), 0, "nothing imported (session: \(session))")
        }
    }

    /// `printf 'old\nnew\n' | keychain change-passphrase` on a keychain without a passphrase set
    /// "old" as the passphrase. Piped, line one is now always the new passphrase, and the current
    /// one comes from --passphrase-file.
    func testChangePassphraseTakesOnlyTheNewPassphraseFromAPipe() throws {
        XCTAssertStatus(try keychain("create"), 0)
        assertRefused(try keychain("change-passphrase", input: "old\nnew\n"), naming: "--passphrase-file")
        XCTAssertEqual(try keychain("status", "--json").json()["hasPassphrase"] as? Bool, false, "nothing changed")

        XCTAssertStatus(try keychain("set-passphrase", input: "old\n"), 0)
        for session in [false, true] {
            if session { XCTAssertStatus(try keychain("unlock", input: "old\n"), 0) }
            assertRefused(try keychain("change-passphrase", input: "old\nnew\n"), naming: "--passphrase-file")
            assertRefused(
                try keychain("set-keychain-password", "--unlock", input: "old\nnew\n"), naming: "--passphrase-file")
        }
        XCTAssertStatus(try keychain("lock"), 0)
        XCTAssertStatus(try keychain("unlock", input: "old\n"), 0)  // the passphrase is unchanged
        XCTAssertStatus(
            try keychain("change-passphrase", "--passphrase-file", passphraseFile("old").path, input: "new\n"), 0)
        XCTAssertStatus(try keychain("unlock", input: "new\n"), 0)
    }

    /// `remove-passphrase --unlock` read the passphrase for --unlock and then the current one, or
    /// only the current one with a session. Now it reads the current one, once, either way.
    func testRemovePassphraseReadsTheCurrentPassphraseOnceWhateverTheSession() throws {
        for session in [false, true] {
            try? FileManager.default.removeItem(at: home)
            try protectedKeychain(session: session)
            XCTAssertStatus(try keychain("remove-passphrase", "--unlock", "--yes", input: passphrase + "\n"), 0)
            XCTAssertEqual(try keychain("status", "--json").json()["hasPassphrase"] as? Bool, false)
        }
    }

    /// set-pin read "current PIN, new PIN" when a PIN was set and "new PIN" when not: the first
    /// line's meaning depended on the PIN file. Piped, it is always the new PIN; a change needs a terminal.
    func testSetPINTakesOnlyTheNewPINFromAPipe() throws {
        let file = try passphraseFile(passphrase)
        try protectedKeychain(session: false)
        assertRefused(try keychain("set-pin", "--unlock", input: "\(passphrase)\n2468\n"), naming: "--passphrase-file")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: home.appendingPathComponent("state/authenticator/pin").path),
            "no PIN set")
        XCTAssertStatus(try keychain("set-pin", "--passphrase-file", file.path, input: "2468\n"), 0)
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "bank", "-a", "me", "--require-user-presence", "-w", "s3cret",
                "--passphrase-file", file.path), 0)

        let change = try keychain("set-pin", input: "2468\n1357\n")
        XCTAssertStatus(change, 64)
        XCTAssertTrue(change.stderr.contains("on a terminal"), change.stderr)
        XCTAssertEqual(
            try keychain(
                "find-generic-password", "-s", "bank", "-a", "me", "-w", "--passphrase-file", file.path, input: "2468\n"
            ).stdout,
            "s3cret\n", "the PIN is unchanged")
        let changed = try runOnTerminal(
            ["set-pin", "--passphrase-file", file.path],
            answers: [("Current PIN: ", "2468"), ("New PIN: ", "1357"), ("Retype to confirm: ", "1357")])
        XCTAssertStatus(changed.result, 0)
        XCTAssertFalse(changed.displayed.contains("1357"), "not echoed")
    }

    /// With a session, `printf 'pass\nPIN\n' | keychain find-generic-password --unlock … -w` took
    /// the passphrase for the PIN (a wrong attempt counted towards the lock-out). Standard input
    /// belongs to the passphrase whenever --unlock reads it there, so the PIN prompt is refused.
    func testAPINIsNeverReadFromAStandardInputThatCarriesThePassphrase() throws {
        let file = try passphraseFile(passphrase)
        try protectedKeychain(session: false)
        XCTAssertStatus(try keychain("set-pin", "--passphrase-file", file.path, input: "2468\n"), 0)
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "bank", "-a", "me", "--require-user-presence", "-w", "s3cret",
                "--passphrase-file", file.path), 0)
        for session in [false, true] {
            if session { XCTAssertStatus(try keychain("unlock", input: passphrase + "\n"), 0) }
            let refused = try keychain(
                "find-generic-password", "-s", "bank", "-a", "me", "-w", "--unlock", input: "\(passphrase)\n2468\n")
            XCTAssertStatus(refused, 50)
            XCTAssertTrue(refused.stderr.contains("which carries the keychain passphrase"), refused.stderr)
            XCTAssertEqual(refused.stdout, "")
        }
        // The PIN alone on standard input, the passphrase from its file.
        XCTAssertEqual(
            try keychain(
                "find-generic-password", "-s", "bank", "-a", "me", "-w", "--passphrase-file", file.path, input: "2468\n"
            ).stdout, "s3cret\n")
    }

    func testSyncApproveRefusesTheApprovalCodeAndThePassphraseOnOnePipe() throws {
        try protectedKeychain(session: true)
        assertRefused(
            try keychain("sync", "approve", "--unlock", input: "\(passphrase)\nABCD-EFGH\n"),
            naming: "--passphrase-file")
    }

    /// `unlock --unlock` read the passphrase for --unlock and then once more for the session,
    /// without a session; only once with one. It reads it once, the first line, either way.
    func testUnlockReadsThePassphraseOnceWhateverTheSession() throws {
        try protectedKeychain(session: false)
        XCTAssertStatus(try keychain("unlock", "--unlock", input: "\(passphrase)\nwrong\n"), 0)
        XCTAssertStatus(try keychain("unlock", "--unlock", input: "\(passphrase)\nwrong\n"), 0)  // now with a session
        XCTAssertStatus(try keychain("unlock", "--unlock", input: "wrong\n\(passphrase)\n"), 50)
    }

    /// On a terminal every value is its own prompt, which names it: the combinations refused
    /// through a pipe work there, with a session or without.
    func testOnATerminalEachValueIsItsOwnPrompt() throws {
        for session in [false, true] {
            try? FileManager.default.removeItem(at: home)
            try protectedKeychain(session: session)
            let backup = scratch.appendingPathComponent("terminal-\(session)")
            let answers =
                (session ? [] : [(prompt: "Passphrase for ", typed: passphrase)])
                + [
                    (prompt: "Backup passphrase: ", typed: "backup-pass"),
                    (prompt: "Retype to confirm: ", typed: "backup-pass")
                ]
            let exported = try runOnTerminal(["export", backup.path, "--unlock"], answers: answers)
            XCTAssertStatus(exported.result, 0)
            XCTAssertFalse(exported.displayed.contains("backup-pass"), "not echoed")
            XCTAssertStatus(
                try keychain(
                    "import", backup.path, "--keychain", scratch.appendingPathComponent("restored-\(session)").path,
                    input: "backup-pass\n"), 0)
        }
    }

    /// A new user's trial of the container recipe: with a secret file `create` refused (mode
    /// 0444, as Compose mounts secrets), the next line's `add --passphrase-file` made a keychain
    /// without a passphrase, stored the secret in it and exited 0. A passphrase file now never
    /// goes with a keychain that has no passphrase: no keychain is made, nothing is stored.
    func testAPassphraseFileNeverGoesWithAKeychainWithoutAPassphrase() throws {
        let file = try passphraseFile("container pass")
        let database = home.appendingPathComponent("data/keychain.db").path
        let refused = try keychain(
            ["add-generic-password", "-s", "com.acme.app", "-a", "db", "--stdin", "--passphrase-file", file.path],
            input: "pw")
        XCTAssertStatus(refused, 53)
        XCTAssertTrue(refused.stderr.contains("keychain create --passphrase-file \(file.path)"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: database), "no unprotected keychain was made")

        XCTAssertStatus(try keychain("create"), 0)  // without a passphrase
        for arguments in [
            ["add-generic-password", "-s", "com.acme.app", "-a", "db", "--stdin"],
            ["find-generic-password", "-s", "x", "-a", "y"]
        ] {
            let mismatched = try keychain(arguments + ["--passphrase-file", file.path], input: "pw")
            XCTAssertStatus(mismatched, 64)
            XCTAssertTrue(
                mismatched.stderr.contains("has no passphrase")
                    && mismatched.stderr.contains("keychain set-passphrase --passphrase-file"), mismatched.stderr)
        }
        XCTAssertStatus(try keychain("find-generic-password", "-s", "com.acme.app", "-a", "db"), 44)
    }

    /// The message for a missing line keeps the prompt's path as it is (it was lower-cased).
    func testAMissingLineNamesThePathInItsOwnCase() throws {
        let file = try passphraseFile("Pass")
        let directory = scratch.appendingPathComponent("MixedCase")
        XCTAssertStatus(try keychain(["create", "--passphrase-file", file.path, "--keychain", directory.path]), 0)
        let result = try keychain(
            ["find-generic-password", "-s", "a", "-a", "b", "--unlock", "--keychain", directory.path], input: "")
        XCTAssertStatus(result, 64)
        XCTAssertTrue(result.stderr.contains("MixedCase"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--passphrase-file FILE"), result.stderr)
    }
}
