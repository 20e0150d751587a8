#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPseudoTerminal
import Foundation
import XCTest

/// A bash script run as a user runs documented commands: either in a terminal (standard input,
/// output and error on a pseudo-terminal that is the session's controlling terminal, so prompts
/// and `/dev/tty` work) or without one (output to pipes, input from a pipe), with a transcript
/// the test reads and answers, like `expect`.
final class ShellSession: @unchecked Sendable {
    /// How the script's standard streams are connected.
    enum Streams { case terminal, pipes(input: String) }

    private let process = Process()
    private let lock = NSCondition()
    private var transcript = Data()
    private var consumed = 0
    private var primary: Int32 = -1
    private var ended = false

    /// Starts `script` in `directory` with `environment`.
    init(_ script: String, in directory: URL, environment: [String: String], streams: Streams) throws {
        process.currentDirectoryURL = directory
        process.environment = environment
        switch streams {
        case .terminal:
            var primary: Int32 = -1
            var secondary: Int32 = -1
            guard pseudo_terminal_open(&primary, &secondary) == 0 else { throw XCTSkip("no pseudo-terminals here") }
            self.primary = primary
            var size = winsize(ws_row: 40, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(secondary, UInt(TIOCSWINSZ), &size)
            let terminal = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = [
                "--fork", "--wait", "--ctty", "/bin/bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script
            ]
            process.standardInput = terminal
            process.standardOutput = terminal
            process.standardError = terminal
            try process.run()
            try terminal.close()
            let descriptor = primary
            Thread.detachNewThread { [self] in drain(descriptor) }
        case .pipes(let input):
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script]
            let stdin = Pipe()
            let output = Pipe()
            process.standardInput = stdin
            process.standardOutput = output
            process.standardError = output
            try process.run()
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
            let descriptor = output.fileHandleForReading.fileDescriptor
            Thread.detachNewThread { [self] in
                drain(descriptor)
                _ = output
            }
        }
    }

    /// Everything the script wrote so far (terminal line endings made plain).
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: transcript, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// Waits until `pattern` appears in output not yet matched; returns the output up to and
    /// including it, or fails the test after `timeout` seconds.
    @discardableResult
    func expect(_ pattern: String, timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line)
        -> String?
    {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            let unread = String(decoding: transcript[consumed...], as: UTF8.self)
            if let range = unread.range(of: pattern) {
                let matched = String(unread[..<range.upperBound])
                consumed += matched.utf8.count
                return matched
            }
            if ended || !lock.wait(until: deadline) {
                XCTFail(
                    "'\(pattern)' never appeared; the script wrote:\n\(String(decoding: transcript, as: UTF8.self))",
                    file: file, line: line)
                return nil
            }
        }
    }

    /// Waits for the first of `prompts` to appear in output not yet read; consumes the output
    /// up to it. `nil` when the script ended (or `deadline` passed) before any appeared.
    func nextPrompt(among prompts: [String], until deadline: Date) -> (prompt: String, before: String)? {
        lock.lock()
        defer { lock.unlock() }
        while true {
            let unread = String(decoding: transcript[consumed...], as: UTF8.self)
            let found = prompts.compactMap { prompt in unread.range(of: prompt).map { (prompt, $0) } }
                .min { $0.1.lowerBound < $1.1.lowerBound }
            if let (prompt, range) = found {
                let before = String(unread[..<range.upperBound])
                consumed += before.utf8.count
                return (prompt, before)
            }
            if ended || !lock.wait(until: deadline) { return nil }
        }
    }

    /// Types `text` and Return on the terminal.
    func type(_ text: String) {
        let line = text + "\n"
        _ = line.withCString { write(primary, $0, strlen($0)) }
    }

    /// Waits until everything written so far satisfies `condition`; `false` when the script
    /// ended or `timeout` seconds passed first.
    func wait(timeout: TimeInterval, until condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if condition(String(decoding: transcript, as: UTF8.self)) { return true }
            if ended || !lock.wait(until: deadline) { return false }
        }
    }

    /// Ends a script that runs until stopped (`sync watch`): SIGTERM to its process group.
    func terminate() {
        guard process.isRunning else { return }
        let group = getpgid(process.processIdentifier)
        if group > 0, group != getpgrp() { kill(-group, SIGTERM) }
        kill(process.processIdentifier, SIGTERM)
    }

    /// Waits for the script to end (killing it after `timeout` seconds) and returns its status.
    func finish(timeout: TimeInterval = 300) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        lock.lock()
        while !ended, lock.wait(until: Date().addingTimeInterval(5)) {}
        lock.unlock()
        if primary >= 0 {
            close(primary)
            primary = -1
        }
        return process.terminationStatus
    }

    private func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            lock.lock()
            if count > 0 { transcript.append(contentsOf: buffer[0..<count]) } else { ended = true }
            lock.broadcast()
            lock.unlock()
            if count <= 0 { return }
        }
    }
}

extension ShellSession {
    /// Answers prompts as they appear, in the order they appear (`Retype to confirm: ` gets the
    /// answer typed before it), until the script ends or `timeout` seconds pass.
    func answerPrompts(_ answers: [(prompt: String, reply: String)], timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        var previous = ""
        while Date() < deadline {
            let confirmations = ["Retype to confirm: ", "Repeat the "]
            guard let (prompt, _) = nextPrompt(among: answers.map(\.prompt) + confirmations, until: deadline) else {
                return
            }
            let reply = confirmations.contains(prompt) ? previous : answers.first { $0.prompt == prompt }!.reply
            type(reply)
            previous = reply
        }
    }
}
