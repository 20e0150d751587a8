#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AttackTestSupport
import Foundation
import XCTest

/// What one run of the `keychain` executable produced.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output parsed as a JSON object.
    func json(file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try XCTUnwrap(object as? [String: Any], "not a JSON object: \(stdout)", file: file, line: line)
    }
}

/// Runs the built `keychain` executable as a separate process on a keychain in a fresh
/// temporary `SECURE_STORAGE_HOME`, with its own `XDG_RUNTIME_DIR` for unlock sessions.
class CLITestCase: XCTestCase {
    /// The characters of `text` a terminal would act on (newlines and tabs aside): C0, DEL, C1
    /// and bidirectional formatting characters, as `U+XXXX`. The tests' own list, not the tool's.
    func unsafeCharacters(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            let value = scalar.value
            return (value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(value)
                || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value)
        }.map { String(format: "U+%04X", $0.value) }
    }

    var home: URL!
    var scratch: URL!
    /// `XDG_RUNTIME_DIR`: private and on tmpfs, as unlock sessions require.
    var runtime: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kc-cli-\(UUID().uuidString)")
        home = scratch.appendingPathComponent("home")
        try FileManager.default.createDirectory(
            at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        runtime = URL(fileURLWithPath: "/dev/shm/kc-cli-run-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
        try? FileManager.default.removeItem(at: runtime)
    }

    /// The `keychain` executable built beside the test bundle.
    static let executable = builtExecutable("keychain")

    /// An executable of this package built beside the test bundle.
    static func builtExecutable(_ name: String) -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path)
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SECURE_STORAGE_HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["KEYCHAIN_LOG_LEVEL"] = nil
        environment["KEYCHAIN_APPLICATION_IDENTIFIER"] = nil
        environment["KEYCHAIN_ACCESS_GROUPS"] = nil
        // No TPM unless a test gives one (a machine's /dev/tpmrm0 would bind every keychain).
        environment["SECURE_STORAGE_TPM_TCTI"] = "none"
        environment["SECURE_STORAGE_TPM_BINDING"] = nil
        return environment
    }

    /// Runs `keychain arguments…` with `input` on standard input (empty when nil).
    @discardableResult
    func keychain(_ arguments: String..., input: String? = nil, file: StaticString = #filePath, line: UInt = #line)
        throws -> CLIResult
    {
        try run(arguments, input: input.map { Data($0.utf8) } ?? Data())
    }

    /// Runs `keychain arguments…` with `input` on standard input (empty when nil).
    @discardableResult
    func keychain(_ arguments: [String], input: String? = nil) throws -> CLIResult {
        try run(arguments, input: input.map { Data($0.utf8) } ?? Data())
    }

    /// Runs `executable` (by default the `keychain` tool) with the test's environment, changed by
    /// `changes` (a nil value removes a variable).
    func run(
        _ arguments: [String], input: Data, executable: URL = executable,
        changing changes: [String: String?] = [:]
    ) throws -> CLIResult {
        let path = executable.path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            let message = "The executable is not built at \(path); run `swift build --build-tests` first."
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
        let process = self.process(arguments, executable: executable, changing: changes)
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = DrainedPipe(stdout.fileHandleForReading)
        let errors = DrainedPipe(stderr.fileHandleForReading)
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: output.text(), stderr: errors.text())
    }

    /// Starts `keychain arguments…` (or `executable`) with the test's environment (changed by `changes`), output
    /// discarded, and kills it with SIGKILL after `delay` seconds: a crash at that moment.
    func runKilled(
        _ arguments: [String], after delay: TimeInterval, executable: URL = executable,
        changing changes: [String: String?] = [:]
    ) throws {
        let process = self.process(arguments, executable: executable, changing: changes)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A process of `executable` with `arguments` and the test's environment changed by
    /// `changes` (a nil value removes a variable), not started yet.
    func process(_ arguments: [String], executable: URL, changing changes: [String: String?]) -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = self.environment
        for (name, value) in changes { environment[name] = value }
        process.environment = environment
        return process
    }

    /// A 0600 file of the test's scratch directory holding `passphrase` and a newline (for `--passphrase-file`).
    func passphraseFile(_ passphrase: String, name: String = UUID().uuidString) throws -> URL {
        let url = scratch.appendingPathComponent("passphrase-\(name)")
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: url.path, contents: Data((passphrase + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        return url
    }

    func XCTAssertStatus(_ result: CLIResult, _ status: Int32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            result.status, status, "stdout: \(result.stdout)\nstderr: \(result.stderr)", file: file, line: line)
    }
}
