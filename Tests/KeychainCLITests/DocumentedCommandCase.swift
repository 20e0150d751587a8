import Foundation
import XCTest

/// Runs the documentation's shell blocks exactly as written, as a new user would: the built
/// `keychain` first on `PATH`, a throw-away `HOME` (so the default keychain, `~/keychain.backup`
/// and the like are the test's), no `SECURE_STORAGE_HOME`, no `XDG_RUNTIME_DIR` (a server, a
/// container, CI), and the variables the documents assume (`$TOKEN`, `$DB_PASSWORD`).
class DocumentedCommandCase: CLITestCase {
    /// What the documented commands' prompts are answered with (one secret per kind).
    static let secret = "s3cret-from-the-docs"
    static let passphrase = "correct horse battery staple"
    static let backupPassphrase = "backup passphrase of the docs"
    static let pin = "482915"
    static let token = "token-from-the-environment"
    static let databasePassword = "database-password-of-the-docs"

    /// The prompts the tool shows and what a user types at each.
    static let answers: [(prompt: String, reply: String)] = [
        ("Password: ", secret), ("New keychain passphrase: ", passphrase), ("New passphrase: ", passphrase),
        ("Current passphrase: ", passphrase), ("Passphrase for ", passphrase),
        ("Backup passphrase: ", backupPassphrase),
        ("New PIN: ", pin), ("Current PIN: ", pin), ("Keychain PIN to ", pin),
        ("Keychain passphrase: ", passphrase), ("PIN to open the notes: ", pin), ("New PIN for the notes: ", pin),
        ("Password for GNOME keyring ", secret)
    ]

    /// The documents' user's home: fresh for each test.
    var userHome: URL { scratch.appendingPathComponent("user") }
    /// Where the documented commands run (a project directory of the user's).
    var workingDirectory: URL { scratch.appendingPathComponent("work") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        for directory in [userHome, workingDirectory] {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    /// The environment of a user following the documents.
    func userEnvironment(_ changes: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in environment.keys
        where name.hasPrefix("XDG_") || name.hasPrefix("SECURE_STORAGE_") || name.hasPrefix("KEYCHAIN_")
            || name == "CREDENTIALS_DIRECTORY"
        {
            environment[name] = nil
        }
        let realHome = environment["HOME"] ?? NSHomeDirectory()
        // git's settings stay the user's (where packages are fetched from), the rest is new.
        if environment["GIT_CONFIG_GLOBAL"] == nil, FileManager.default.fileExists(atPath: realHome + "/.gitconfig") {
            environment["GIT_CONFIG_GLOBAL"] = realHome + "/.gitconfig"
        }
        environment["HOME"] = userHome.path
        environment["PATH"] =
            Self.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["SECURE_STORAGE_TPM_TCTI"] = "none"  // no TPM unless the machine's own
        environment["TOKEN"] = Self.token
        environment["DB_PASSWORD"] = Self.databasePassword
        environment["TERM"] = "xterm"
        for (name, value) in changes { environment[name] = value }
        return environment
    }

    /// The documented block of `file` whose first line starts with `firstLine`.
    func block(
        _ file: String, startingWith firstLine: String, file testFile: StaticString = #filePath, line: UInt = #line
    ) throws -> DocumentedBlock {
        let matches = try DocumentedBlock.blocks(in: file).filter { $0.firstLine.hasPrefix(firstLine) }
        guard matches.count == 1 else {
            XCTFail(
                "\(file) has \(matches.count) shell blocks starting with `\(firstLine)`; DocumentedCommandCoverage lists one",
                file: testFile, line: line)
            throw XCTSkip("no such block")
        }
        return matches[0]
    }

    /// Runs `script` in a terminal, typing the documented answers at each prompt until it ends;
    /// returns its status and everything it displayed.
    func runOnTerminal(
        _ script: String, in directory: URL? = nil, environment: [String: String]? = nil,
        timeout: TimeInterval = 600
    ) throws -> (status: Int32, transcript: String) {
        let session = try ShellSession(
            script, in: directory ?? workingDirectory, environment: environment ?? userEnvironment(), streams: .terminal
        )
        session.answerPrompts(Self.answers, timeout: timeout)
        let status = session.finish()
        return (status, session.text)
    }

    /// Runs `script` without a terminal (standard input from `input`, output to a pipe).
    func runWithoutTerminal(
        _ script: String, input: String = "", in directory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> (status: Int32, transcript: String) {
        let session = try ShellSession(
            script, in: directory ?? workingDirectory, environment: environment ?? userEnvironment(),
            streams: .pipes(input: input))
        let status = session.finish()
        return (status, session.text)
    }

    func XCTAssertSucceeded(
        _ run: (status: Int32, transcript: String), _ block: DocumentedBlock, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(run.status, 0, "\(block) failed as written:\n\(run.transcript)", file: file, line: line)
    }
}
