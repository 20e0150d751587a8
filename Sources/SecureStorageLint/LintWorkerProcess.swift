import Foundation

/// One worker process (`keychain-lint --worker`), which lints the files it is sent one at a time
/// and is killed when one takes longer than the time limit: swift-syntax cannot be interrupted,
/// and a thread left parsing would keep a core busy until the run ends.
final class LintWorkerProcess {
    /// How one request ended.
    enum Answer<Value> {
        /// The worker answered in time.
        case answered(Value)
        /// The time limit passed; the worker was killed.
        case timedOut
        /// The worker ended or answered garbage; it was killed, and this says how it ended.
        case failed(String)
    }

    /// How long a worker may take to start (load the executable) before it is given up.
    static let startupTimeLimit: Double = 60

    private let process: Process
    private var requests: Int32
    private var answers: DeadlineLineReader

    /// Starts `executable arguments…` and waits for it to say it is ready.
    init(executable: String, arguments: [String]) throws(LintWorkerError) {
        let input = Pipe()
        let output = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw LintWorkerError("cannot start \(executable): \(error.localizedDescription)")
        }
        // The child's ends, so that the parent sees end of file when the child is gone (Process
        // may have closed them already), and the parent's ends as descriptors of their own that
        // later workers do not inherit.
        try? input.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        requests = fcntl(input.fileHandleForWriting.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        try? input.fileHandleForWriting.close()
        answers = DeadlineLineReader(descriptor: fcntl(output.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0))
        try? output.fileHandleForReading.close()
        guard case .line([]) = answers.nextLine(before: Self.deadline(after: Self.startupTimeLimit)) else {
            stop()
            throw LintWorkerError("\(executable) --worker did not start")
        }
    }

    deinit { stop() }

    /// Sends `request` and waits `timeLimit` seconds at most for an answer of type `Value`.
    func ask<Value: Decodable>(_ request: LintWorkerRequest, timeLimit: Double) -> Answer<Value> {
        let deadline = Self.deadline(after: timeLimit)
        // Encoding a value of this shape does not fail.
        let line = Array(((try? JSONEncoder().encode(request)) ?? Data()) + Data("\n".utf8))
        var sent = 0
        while sent < line.count {
            let written = line[sent...].withUnsafeBytes { write(requests, $0.baseAddress!, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return .failed(stop()) }
            sent += written
        }
        switch answers.nextLine(before: deadline) {
        case .line(let answer):
            if let value = try? JSONDecoder().decode(Value.self, from: Data(answer)) { return .answered(value) }
            return .failed(stop())
        case .timedOut:
            stop()
            return .timedOut
        case .ended:
            return .failed(stop())
        }
    }

    /// Kills the worker if it still runs, waits for it, and says how it ended.
    @discardableResult
    func stop() -> String {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        if requests >= 0 { close(requests) }
        requests = -1
        answers.closeDescriptor()
        return process.terminationReason == .uncaughtSignal
            ? "killed by signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
    }

    /// The uptime `seconds` from now, in nanoseconds.
    private static func deadline(after seconds: Double) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + UInt64(min(max(seconds, 0), 1e9) * 1e9)
    }
}

/// A worker process that could not be started.
package struct LintWorkerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    package var description: String

    /// An error saying `description`.
    init(_ description: String) { self.description = description }
}
