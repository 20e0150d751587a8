#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A `keychain` process whose standard output and error are pipes, read as they arrive: a test
/// sees what the tool wrote while it still runs (block-buffered output would show nothing).
final class RunningTool: @unchecked Sendable {
    /// The process, started.
    let process: Process
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()
    private let drained = DispatchGroup()

    /// Starts `executable` with `arguments` and `environment`; standard input is empty.
    init(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        read(stdout.fileHandleForReading) { [self] in output.append($0) }
        read(stderr.fileHandleForReading) { [self] in errors.append($0) }
    }

    /// Standard output so far.
    var stdout: String { locked { String(decoding: output, as: UTF8.self) } }
    /// Standard error so far.
    var stderr: String { locked { String(decoding: errors, as: UTF8.self) } }

    /// Waits until `find` returns something for the standard output so far, or `timeout` passes.
    func waitForOutput<T>(timeout: TimeInterval, _ find: (String) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = find(stdout) { return found }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return find(stdout)
    }

    /// Sends `signal` to the process.
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit and its pipes to close: its status and everything it wrote.
    func finish() -> (status: Int32, stdout: String, stderr: String) {
        process.waitUntilExit()
        drained.wait()
        return (process.terminationStatus, stdout, stderr)
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private func read(_ handle: FileHandle, into append: @escaping @Sendable (Data) -> Void) {
        drained.enter()
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                locked { append(chunk) }
            }
            drained.leave()
        }
    }
}
