#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AttackTestSupport
import CPseudoTerminal
import Foundation
import XCTest

/// On a terminal, secrets are prompted for with echo off, new passphrases are asked twice, and
/// the terminal is restored afterwards. The terminal is a pseudo-terminal the test drives.
final class TerminalPromptTests: CLITestCase {
    func testPromptedSecretIsNotEchoed() throws {
        let run = try runOnTerminal(
            ["add-generic-password", "-s", "svc", "-a", "typed", "-w"],
            answers: [("Password: ", "typed-secret-123")])
        XCTAssertStatus(run.result, 0)
        XCTAssertFalse(run.displayed.contains("typed-secret-123"), "the terminal echoed the secret: \(run.displayed)")
        XCTAssertFalse(run.result.stderr.contains("typed-secret-123"))
        XCTAssertTrue(run.echoRestored, "echo is switched back on")
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-a", "typed", "-w").stdout, "typed-secret-123\n")
    }

    func testProgressBarOnlyWhenStandardErrorIsATerminal() throws {
        for index in 0..<3 { try keychain("add-generic-password", "-s", "svc", "-a", "\(index)", "-w", "v") }
        XCTAssertFalse(try keychain("verify").stderr.contains("verifying ["), "no bar in a pipe or log")

        let terminal = try PseudoTerminal()
        defer { terminal.shutDown() }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["verify"]
        process.environment = environment
        process.standardError = FileHandle(fileDescriptor: terminal.secondary, closeOnDealloc: false)
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let output = DrainedPipe(stdout.fileHandleForReading)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(output.text(), "verified 3 items\n")
        let shown = terminal.displayed()
        XCTAssertTrue(shown.contains("verifying [##############################] 100% 3/3"), shown)
    }

    func testNewPassphraseIsAskedTwiceAndMustMatch() throws {
        try keychain("create")
        let mismatch = try runOnTerminal(
            ["set-passphrase"], answers: [("New passphrase: ", "first"), ("Retype to confirm: ", "second")])
        XCTAssertStatus(mismatch.result, 64)
        XCTAssertTrue(mismatch.result.stderr.contains("differ"))
        XCTAssertEqual(try keychain("status", "--json").json()["hasPassphrase"] as? Bool, false, "nothing changed")

        let matching = try runOnTerminal(
            ["set-passphrase"], answers: [("New passphrase: ", "same words"), ("Retype to confirm: ", "same words")])
        XCTAssertStatus(matching.result, 0)
        XCTAssertFalse(matching.displayed.contains("same words"), "not echoed")
        XCTAssertEqual(try keychain("status", "--json").json()["hasPassphrase"] as? Bool, true)
        XCTAssertStatus(try keychain("unlock", input: "same words\n"), 0)
    }
}
