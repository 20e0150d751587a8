#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AttackTestSupport
import CPseudoTerminal
import Foundation
import XCTest

/// Running a command on a pseudo-terminal the test types into: for prompts with echo off.
extension CLITestCase {
    /// A pseudo-terminal: the child gets the secondary side as standard input, the test types into the primary side.
    struct PseudoTerminal {
        let primary: Int32
        let secondary: Int32

        init() throws {
            var primary: Int32 = -1
            var secondary: Int32 = -1
            guard pseudo_terminal_open(&primary, &secondary) == 0 else { throw XCTSkip("no pseudo-terminals here") }
            self.primary = primary
            self.secondary = secondary
        }

        func type(_ text: String) {
            _ = text.withCString { write(primary, $0, strlen($0)) }
        }

        /// Everything the terminal displayed (echo), read without blocking.
        func displayed() -> String {
            var result = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 100) > 0 else { break }
                let count = read(primary, &buffer, buffer.count)
                guard count > 0 else { break }
                result.append(contentsOf: buffer[0..<count])
            }
            return String(decoding: result, as: UTF8.self)
        }

        var echoes: Bool {
            var settings = termios()
            tcgetattr(secondary, &settings)
            return settings.c_lflag & tcflag_t(ECHO) != 0
        }

        func shutDown() {
            close(primary)
            close(secondary)
        }
    }

    /// Runs the tool (or `executable`) with the terminal as standard input, answering each prompt in turn.
    func runOnTerminal(
        _ arguments: [String], answers: [(prompt: String, typed: String)], executable: URL = executable,
        changing changes: [String: String?] = [:]
    ) throws -> (result: CLIResult, displayed: String, echoRestored: Bool) {
        let terminal = try PseudoTerminal()
        defer { terminal.shutDown() }
        XCTAssertTrue(terminal.echoes, "a fresh terminal echoes, so the test would see a leak")
        let process = self.process(arguments, executable: executable, changing: changes)
        process.standardInput = FileHandle(fileDescriptor: terminal.secondary, closeOnDealloc: false)
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = DrainedPipe(stdout.fileHandleForReading)
        let errors = PromptWatcher(stderr.fileHandleForReading)
        for answer in answers {
            XCTAssertTrue(
                errors.wait(for: answer.prompt), "prompt '\(answer.prompt)' never came; stderr: \(errors.text)")
            terminal.type(answer.typed + "\n")
        }
        process.waitUntilExit()
        let result = CLIResult(status: process.terminationStatus, stdout: output.text(), stderr: errors.finish())
        return (result, terminal.displayed(), terminal.echoes)
    }
}

/// Collects a child's standard error and lets the test wait for a prompt to appear.
final class PromptWatcher: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var ended = false
    private var consumed = 0

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let piece = handle.availableData
                condition.lock()
                if piece.isEmpty { ended = true } else { data.append(piece) }
                condition.broadcast()
                condition.unlock()
                if piece.isEmpty { return }
            }
        }
    }

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits (up to 60 s) until `prompt` appears after the previous prompt.
    func wait(for prompt: String) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let range = data[consumed...].range(of: Data(prompt.utf8)) {
                consumed = range.upperBound
                return true
            }
            if ended || !condition.wait(until: deadline) { return false }
        }
    }

    func finish() -> String {
        condition.lock()
        while !ended { condition.wait() }
        condition.unlock()
        return text
    }
}
