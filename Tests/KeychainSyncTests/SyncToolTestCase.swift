import AttackTestSupport
import Foundation
import XCTest

/// Sync tests that run the `keychain` executable, one keychain (`SECURE_STORAGE_HOME`) per device.
class SyncToolTestCase: SyncTestCase {
    /// What one finished run of the tool produced.
    struct ToolResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `keychain` executable built beside the test bundle.
    let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4
        where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("keychain").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("keychain")
    }()

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            let message =
                "The keychain executable is not built at \(executable.path); run `swift build --build-tests` first."
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
    }

    /// The environment `device`'s commands run with: its own keychain, no TPM, no configured server.
    func environment(_ device: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SECURE_STORAGE_HOME"] = directory.appendingPathComponent("home-\(device)").path
        environment["SECURE_STORAGE_TPM_TCTI"] = "none"
        environment["SECURE_STORAGE_TPM_BINDING"] = nil
        environment["KEYCHAIN_SYNC_SERVER"] = nil
        environment["KEYCHAIN_LOG_LEVEL"] = nil
        return environment
    }

    /// Runs `keychain arguments…` on `device`'s keychain with `input` on standard input, to the end.
    @discardableResult
    func tool(_ device: String, _ arguments: [String], input: String = "") throws -> ToolResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment(device)
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let errors = DrainedPipe(stderr.fileHandleForReading)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolResult(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: errors.text())
    }

    /// Starts `keychain arguments…` on `device`'s keychain, its output read as it comes.
    func start(_ device: String, _ arguments: [String]) throws -> RunningTool {
        try RunningTool(executable, arguments, environment: environment(device))
    }

    /// Creates a circle with `device` as its founder (`keychain sync create`) and returns its circle code.
    func createCircle(_ device: String, name: String? = "laptop") throws -> String {
        let result = try tool(
            device,
            ["sync", "create", "--server", postgres.connectionString, "--json"] + (name.map { ["--name", $0] } ?? []))
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["circleCode"] as? String, result.stdout)
    }

    /// The approval code `keychain sync join` printed in `output`, if it did (alone on an indented line).
    static func approvalCode(in output: String) -> String? {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { line in
            line.count == 29 && line.split(separator: "-").count == 6
                && line.allSatisfy { $0 == "-" || $0.isUppercase || ("2"..."7").contains($0) }
        }
    }

    /// The members `device`'s `keychain sync status --json` lists, by name.
    func memberNames(_ device: String) throws -> [String] {
        let result = try tool(device, ["sync", "status", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (object?["members"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    /// How many rows `table` of the test server holds.
    func rows(_ table: String) throws -> Int {
        Int(try postgres.psql("SELECT count(*) FROM \(table)").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
