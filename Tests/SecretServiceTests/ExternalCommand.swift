import Foundation
import XCTest

/// A program the bus tests run (secret-tool, python, dbus-send), its output captured in files and
/// its end awaited without blocking a thread of the cooperative pool (the provider under test
/// runs on that pool in this same process).
struct ExternalCommand {
    var executable: String
    var arguments: [String]
    var environment: [String: String]
    var input = Data()
    var workingDirectory: URL?

    /// The outcome of a run.
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
        var timedOut: Bool
    }

    /// Runs the command for at most `timeout`.
    func run(timeout: Duration = .seconds(120)) async throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        FileManager.default.createFile(atPath: inURL.path, contents: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        try process.run()
        let deadline = ContinuousClock.now + timeout
        var timedOut = false
        while process.isRunning {
            if ContinuousClock.now > deadline {
                timedOut = true
                process.terminate()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return Outcome(
            status: process.terminationStatus,
            output: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "", timedOut: timedOut)
    }
}
