#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import CPseudoTerminal
import Foundation
import KeychainCore
import SecureStorageFoundation
import XCTest

/// `keychain unlock --serve-prompts` running on a pseudo-terminal the test types into (its
/// standard input); what it prints on standard error is collected as it comes.
final class PrompterTerminal: @unchecked Sendable {
    let process: Process
    let primary: Int32
    let secondary: Int32
    private let collected = LockedText()
    private var consumed: String.Index?

    init(_ process: Process) throws {
        var primary: Int32 = -1
        var secondary: Int32 = -1
        guard pseudo_terminal_open(&primary, &secondary) == 0 else { throw XCTSkip("no pseudo-terminals here") }
        self.primary = primary
        self.secondary = secondary
        self.process = process
        process.standardInput = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let handle = stderr.fileHandleForReading
        Thread.detachNewThread { [collected] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                collected.append(String(decoding: data, as: UTF8.self))
            }
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        close(primary)
        close(secondary)
    }

    /// Everything it printed on standard error so far.
    var log: String { collected.text }

    /// Types `text` at the terminal.
    func type(_ text: String) {
        _ = text.withCString { write(primary, $0, strlen($0)) }
    }

    /// Waits (up to `timeout` seconds) until `text` appears after what earlier waits consumed.
    func waitFor(_ text: String, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let log = self.log
            let start = consumed.map { min($0, log.endIndex) } ?? log.startIndex
            if let range = log[start...].range(of: text) {
                consumed = range.upperBound
                return true
            }
            if !process.isRunning, !self.log[start...].contains(text) { return false }
            usleep(20_000)
        }
        return false
    }

    /// Everything the terminal displayed (its echo), read without blocking.
    func displayed() -> String {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var entry = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { break }
            let count = read(primary, &buffer, buffer.count)
            guard count > 0 else { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// A `requestUnlock` sent to the agent over its socket from a thread of its own, as a program of
/// the user would send it; its answer (or error) and how long it took are kept.
final class UnlockRequest: @unchecked Sendable {
    private let outcome = Locked<Result<Bool, KeychainError>?>(nil)
    private let started = ContinuousClock.now
    private let finished = Locked<ContinuousClock.Instant?>(nil)

    init(_ agent: KeychainAgentClient, reason: String, timeout: Duration = .seconds(60)) {
        Thread.detachNewThread { [self] in
            let result = Result { () throws(KeychainError) in
                try agent.requestUnlock(reason: reason, timeout: timeout)
            }
            finished.withLock { $0 = ContinuousClock.now }
            outcome.withLock { $0 = result }
        }
    }

    /// The answer, waiting up to `seconds` for it; `nil` when none came.
    func answer(within seconds: TimeInterval = 30) throws -> Bool? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let result = outcome.withLock({ $0 }) { return try result.get() }
            usleep(20_000)
        }
        return nil
    }

    /// How long the request took (once answered).
    var elapsed: Duration? { finished.withLock { $0 }.map { started.duration(to: $0) } }
}
