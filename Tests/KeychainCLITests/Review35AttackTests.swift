#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import XCTest

/// Review 35: attacks on issue 35's changes (one value per piped standard input, did-you-mean,
/// PIN enrolment keeping the session), by an independent review session; the kernel keyring's
/// are in Review35KeyringAttackTests. Each asserts the secure or documented behaviour; the
/// findings (aliases refused, a keychain created by a refused read, escapes in the parser's
/// errors) are fixed.
final class Review35AttackTests: CLITestCase {
    private let noRuntime: [String: String?] = ["XDG_RUNTIME_DIR": nil]

    // MARK: - Finding: macOS aliases are refused by the did-you-mean pre-parser

    /// KeychainTool.md documents `lock-keychain` (and `unlock-keychain`, `create-keychain`,
    /// `set-keychain-password`, `show-keychain-info`) as aliases, as macOS `security` spells
    /// them. A logout script's `keychain lock-keychain` must end the session.
    func testReview35_LockKeychainAliasEndsTheSession() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "pass\n"), 0)
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "a", "-w", "secret", "--unlock", input: "pass\n"), 0
        )
        XCTAssertStatus(try keychain("unlock", "--timeout", "600", input: "pass\n"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w").stdout, "secret\n")

        let locked = try keychain("lock-keychain")
        XCTAssertStatus(locked, 0)
        // today: 0, the session survived
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w"), 51)
    }

    func testReview35_EveryDocumentedAliasRuns() throws {
        for alias in [
            "create-keychain", "unlock-keychain", "lock-keychain", "set-keychain-password", "show-keychain-info"
        ] {
            let help = try keychain([alias, "--help"])
            XCTAssertStatus(help, 0)
            XCTAssertFalse(help.stderr.contains("is not a command"), "\(alias): \(help.stderr)")
        }
    }

    // MARK: - Finding: a refusal after the keychain was created

    /// "refused … before reading, opening or writing anything": a piped standard input that
    /// does not hold the value the command reads must not leave a new (passphrase-less) default
    /// keychain behind, which then makes `keychain create --passphrase` fail with 45.
    func testReview35_ARefusedReadCreatesNoKeychain() throws {
        let database = home.appendingPathComponent("data/keychain.db").path
        let cases: [[String]] = [
            ["add-generic-password", "-s", "svc", "-a", "a"],  // one line expected, none given
            ["add-generic-password", "-s", "svc", "-a", "a", "--stdin"],  // "nothing was stored"
            ["set-pin"],
            ["import", scratch.appendingPathComponent("no-such-backup").path]
        ]
        for arguments in cases {
            try? FileManager.default.removeItem(at: home)
            let result = try keychain(arguments, input: "")
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: database),
                "\(arguments.joined(separator: " ")) refused (\(result.status): \(result.stderr.prefix(120))) but created \(database)"
            )
        }
        // The consequence: the keychain that should have been created with a passphrase cannot be.
        try? FileManager.default.removeItem(at: home)
        _ = try keychain("add-generic-password", "-s", "svc", "-a", "a", input: "")
        XCTAssertStatus(try keychain("create", "--passphrase", input: "pass\n"), 0)
    }

    // MARK: - Held: PIN enrolment does not resurrect or extend sessions

    /// `lock` from an environment with a runtime directory, then `set-pin` in the keyring
    /// environment that still holds the ticket: the ticket's record is gone, so nothing is resealed.
    func testReview35_SetPINAfterALockElsewhereDoesNotResurrectTheSession() throws {
        guard !FileManager.default.fileExists(atPath: "/run/user/\(getuid())") else {
            throw XCTSkip("/run/user exists")
        }
        XCTAssertStatus(try run(["create", "--passphrase"], input: Data("pass\n".utf8), changing: noRuntime), 0)
        XCTAssertStatus(
            try run(
                ["add-generic-password", "-s", "svc", "-a", "a", "-w", "secret", "--unlock"],
                input: Data("pass\n".utf8), changing: noRuntime), 0)
        XCTAssertStatus(try run(["unlock", "--timeout", "600"], input: Data("pass\n".utf8), changing: noRuntime), 0)
        XCTAssertStatus(try keychain("lock"), 0)  // with a runtime directory
        XCTAssertEqual(
            try run(["status", "--json"], input: Data(), changing: noRuntime).json()["lockState"] as? String,
            "beforeFirstUnlock",
            "the keyring ticket is void after a lock run where a runtime directory exists")
        // set-pin unlocks for itself: the enrolment runs, with the keyring ticket present
        let file = try passphraseFile("pass")
        XCTAssertStatus(
            try run(["set-pin", "--passphrase-file", file.path], input: Data("1234\n".utf8), changing: noRuntime), 0)
        XCTAssertStatus(
            try run(["find-generic-password", "-s", "svc", "-a", "a", "-w"], input: Data(), changing: noRuntime), 51)
    }

    /// An expired session is not resealed by `set-pin`.
    func testReview35_SetPINAfterExpiryDoesNotExtendTheSession() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "pass\n"), 0)
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "a", "-w", "secret", "--unlock", input: "pass\n"), 0
        )
        XCTAssertStatus(try keychain("unlock", "--timeout", "2", input: "pass\n"), 0)
        Thread.sleep(forTimeInterval: 3)
        let file = try passphraseFile("pass")
        XCTAssertStatus(try keychain("set-pin", "--passphrase-file", file.path, input: "1234\n"), 0)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w"), 51)
    }

    /// A session kept through `set-pin` still ends with `change-passphrase`.
    func testReview35_SessionKeptBySetPINEndsWithAPassphraseChange() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "pass\n"), 0)
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "svc", "-a", "a", "-w", "secret", "--unlock", input: "pass\n"), 0
        )
        XCTAssertStatus(try keychain("unlock", "--timeout", "600", input: "pass\n"), 0)
        XCTAssertStatus(try keychain("set-pin", input: "1234\n"), 0)
        XCTAssertEqual(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w").stdout, "secret\n")
        let old = try passphraseFile("pass")
        XCTAssertStatus(try keychain("change-passphrase", "--passphrase-file", old.path, input: "new\n"), 0)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-a", "a", "-w"), 51)
    }

    // MARK: - Held: standard input

    /// `set-pin --unlock` piped, and `sync approve --unlock` piped, are refused before a keychain exists.
    func testReview35_TwoValuesAreRefusedBeforeAnythingIsCreated() throws {
        let database = home.appendingPathComponent("data/keychain.db").path
        for arguments in [
            ["set-pin", "--unlock"], ["add-generic-password", "-s", "s", "-a", "a", "--unlock"],
            ["import", "x", "--unlock"], ["sync", "approve", "--unlock"]
        ] {
            XCTAssertStatus(try keychain(arguments, input: "a\nb\n"), 64)
            XCTAssertFalse(FileManager.default.fileExists(atPath: database), "\(arguments)")
        }
    }
    // MARK: - Finding (low): terminal escapes from argv in the parser's own errors

    /// The did-you-mean answer escapes an unknown command; the argument parser's errors for an
    /// unknown option or a refused value (and the tool's own validation of -r) echo it raw.
    func testReview35_ArgumentErrorsDoNotEchoTerminalEscapes() throws {
        XCTAssertStatus(try keychain("create"), 0)
        let escape = "x\u{1B}]0;PWNED\u{07}\u{1B}[2J"
        for arguments in [
            ["status", "--\(escape)"], ["add-internet-password", "-s", "srv", "-r", escape, "-w", "p"],
            ["add-generic-password", "-s", "s", "-a", "a", "--accessibility", escape, "-w", "p"],
            ["unlock", "--timeout", escape]
        ] {
            let result = try keychain(arguments)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(
                unsafeCharacters(in: result.stderr + result.stdout), [],
                "\(arguments.first!): \(result.stderr.prefix(100))")
        }
    }
}
