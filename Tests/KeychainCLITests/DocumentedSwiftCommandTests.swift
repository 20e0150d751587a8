import Foundation
import XCTest

/// The documentation's shell blocks that run `swift run`, exactly as written, from the
/// repository's root with the build `scripts/test` made.
///
/// `swift test` holds the package's build lock while tests run, so a `swift run` inside it would
/// wait for ever: `scripts/test` leaves this class out of `swift test` and runs it directly from
/// the test bundle afterwards. Run alone, it says so instead of hanging.
final class DocumentedSwiftCommandTests: DocumentedCommandCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["DOCUMENTED_SWIFT_COMMANDS"] != nil else {
            let message =
                "These tests run `swift run`, which waits for the build lock `swift test` holds: scripts/test runs them after `swift test` with DOCUMENTED_SWIFT_COMMANDS=1, straight from the test bundle."
            throw XCTSkip(message)
        }
    }

    private var repository: URL { DocumentedBlock.repositoryRoot }

    func testTheReadmesTwoCommands() throws {
        let block = try block(
            "README.md", startingWith: "swift run --disable-local-rpath keychain add-generic-password")
        let lines = block.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.last, "scripts/test", "the second command is the test command, which is what runs this test")
        let run = try runOnTerminal(lines.dropLast().joined(separator: "\n"), in: repository)
        XCTAssertSucceeded(run, block)
        XCTAssertTrue(
            run.transcript.contains(Self.secret), "the second half read back the secret typed:\n\(run.transcript)")
        XCTAssertFalse(
            run.transcript.contains("Compiling"),
            "the command reuses scripts/test's build (same flags):\n\(run.transcript)")
    }

    func testTheSecureNotesExample() throws {
        for file in ["README.md", "Examples/SecureNotes/README.md"] {
            try FileManager.default.removeItem(at: userHome)
            try FileManager.default.createDirectory(
                at: userHome, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let block = try block(file, startingWith: "swift run secure-notes v1-add")
            let run = try runOnTerminal(block.text, in: repository)
            XCTAssertSucceeded(run, block)
            XCTAssertTrue(run.transcript.contains("milk, eggs"), "show 1 printed the migrated note:\n\(run.transcript)")
        }
    }

    func testTheReadmesIdentityExample() throws {
        let block = try block(
            "README.md",
            startingWith: "printf %s \"$DB_PASSWORD\" | keychain add-generic-password -s com.acme.app -a db --stdin")
        let run = try runWithoutTerminal(block.text, in: repository)
        XCTAssertSucceeded(run, block)
        XCTAssertTrue(
            run.transcript.contains(Self.databasePassword),
            "the sample read the password the tool stored:\n\(run.transcript)")
    }
}
