#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import XCTest

/// The `keychain-stress` executable built beside the test bundle (Tests/StressHelper).
enum StressHelper {
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4
        where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("keychain-stress").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("keychain-stress")
    }()

    /// Starts `keychain-stress arguments…` with standard output and error going to files.
    static func start(_ arguments: [String], output: URL, errors: URL) throws -> Process {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            let message = "keychain-stress is not built at \(executable.path); run `swift build --build-tests` first."
            // scripts/test (and so CI) requires it: a suite that silently skips proves nothing.
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil {
                throw StressHelperMissing(message)
            }
            throw XCTSkip(message)
        }
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a crash report would outlive SIGKILL's point
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        return process
    }

    /// Waits for `process` to exit; after `timeout` kills it and returns false.
    static func wait(for process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                killHard(process)
                return false
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        return true
    }

    /// Kills `process` with SIGKILL, as a power cut or the OOM killer would, and reaps it.
    static func killHard(_ process: Process) {
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

struct StressHelperMissing: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh temporary directory for one test, removed afterwards.
final class ScratchDirectory {
    let url: URL

    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
