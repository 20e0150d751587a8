import Foundation
import XCTest

/// The libraries log only to a logger the application gives them (issue 35): a program using
/// the facade prints nothing on standard error when it did not set up logging, and the
/// library's messages arrive when it did. The `keychain` tool sets up logging itself.
final class LibraryLoggingTests: CLITestCase {
    private let sample = CLITestCase.builtExecutable("secure-storage-sample")

    private func app(_ arguments: String...) throws -> CLIResult {
        try run(arguments, input: Data(), executable: sample, changing: [:])
    }

    private func passphraseFile() throws -> URL {
        let url = scratch.appendingPathComponent("passphrase")
        try Data("app pass phrase\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url
    }

    func testAnAppThatSetUpNoLoggingPrintsNothingOnStandardError() throws {
        // The app creates the default keychain on its first write, then writes and reads.
        let written = try app("set", "com.acme.app", "token", "v4lue")
        XCTAssertStatus(written, 0)
        XCTAssertEqual(written.stderr, "", "creating the keychain and a write printed on standard error")
        let read = try app("get", "com.acme.app", "token")
        XCTAssertEqual(read.stdout, "v4lue\n")
        XCTAssertEqual(read.stderr, "", "a read printed on standard error")
        // With a passphrase: unlocking (which logs "keychain unlocked" at info) and reading.
        XCTAssertStatus(try keychain("set-passphrase", input: "app pass phrase\n"), 0)
        let file = try passphraseFile()
        let unlocked = try app("unlock", file.path, "com.acme.app", "token")
        XCTAssertStatus(unlocked, 0)
        XCTAssertEqual(unlocked.stderr, "", "unlock printed on standard error")
    }

    func testAnAppThatSetUpLoggingGetsTheLibrarysMessages() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "app pass phrase\n"), 0)
        let unlocked = try app("--log", "unlock", try passphraseFile().path)
        XCTAssertStatus(unlocked, 0)
        XCTAssertTrue(unlocked.stderr.contains("keychain unlocked"), unlocked.stderr)
        XCTAssertTrue(unlocked.stderr.contains("component=KeychainCore"), unlocked.stderr)
        XCTAssertFalse(unlocked.stderr.contains("app pass phrase"), "no passphrase in the logs")
    }

    func testTheToolStillLogsWarningsAndMoreWhenAskedFor() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "app pass phrase\n"), 0)
        let quiet = try keychain("unlock", "--passphrase-file", try passphraseFile().path)
        XCTAssertStatus(quiet, 0)
        XCTAssertFalse(
            quiet.stderr.contains("keychain unlocked"), "info is below the tool's default level: \(quiet.stderr)")
        let verbose = try run(
            ["unlock", "--passphrase-file", try passphraseFile().path], input: Data(),
            changing: ["KEYCHAIN_LOG_LEVEL": "info"])
        XCTAssertStatus(verbose, 0)
        XCTAssertTrue(verbose.stderr.contains("keychain unlocked"), verbose.stderr)
    }
}
