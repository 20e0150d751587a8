import Foundation
import XCTest

/// Runs the `keychain-lint` executable built beside the test bundle.
enum LintExecutable {
    /// What one run of keychain-lint gave.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var elapsed: Duration
    }

    /// keychain-lint, built beside the test bundle.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4
        where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("keychain-lint").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("keychain-lint")
    }()

    /// Skips the test when keychain-lint is not built, or fails it under REQUIRE_TEST_EXECUTABLES (scripts/test).
    static func require() throws {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            let message = "keychain-lint is not built at \(executable.path); run `swift build --build-tests` first."
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil { XCTFail(message) }
            throw XCTSkip(message)
        }
    }

    /// The findings of a `--json` run as `file:line rule`, paths relative to `root`, sorted.
    static func findings(_ result: Result, under root: URL) throws -> [String] {
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = try XCTUnwrap(report?["findings"] as? [[String: Any]], result.stdout + result.stderr)
        return findings.map { finding in
            let file = (finding["file"] as? String ?? "").replacingOccurrences(of: root.path + "/", with: "")
            return "\(file):\(finding["line"] ?? "?") \(finding["rule"] ?? "?")"
        }.sorted()
    }

    /// Runs keychain-lint with `arguments` in `directory` (the current one by default).
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> Result {
        try require()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lint-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdout = scratch.appendingPathComponent("stdout")
        let stderr = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        let clock = ContinuousClock()
        let started = clock.now
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: try String(contentsOf: stdout, encoding: .utf8),
            stderr: try String(contentsOf: stderr, encoding: .utf8),
            elapsed: clock.now - started)
    }
}

extension XCTestCase {
    /// A new directory holding `files` (relative paths, directories created as needed → source),
    /// under a subdirectory `name` when one is given; the new directory, removed after the test.
    func sourceTree(_ files: [String: String], under name: String = "") throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lint-tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let base = name.isEmpty ? root : root.appendingPathComponent(name)
        for (path, source) in files {
            let url = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(source.utf8).write(to: url)
        }
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        return root
    }
}
