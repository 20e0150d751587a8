import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a secret: on a terminal with echo off (switched off before the prompt appears, and
/// restored afterwards, also on Ctrl-C or another terminating signal); otherwise one line of
/// standard input.
enum TerminalInput {
    static func secret(_ prompt: String) throws -> String {
        var original = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &original) == 0 else { return try line() }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        savedTerminal = original
        let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
        let previous = signals.map { signal($0, restoreTerminalAndExit) }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &original)
            for (number, handler) in zip(signals, previous) { signal(number, handler) }
            savedTerminal = nil
            FileHandle.standardError.write(Data("\n".utf8))
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        return try line()
    }

    /// A new secret, asked twice.
    static func newSecret(_ what: String) throws -> String {
        let first = try secret("New \(what): ")
        guard try secret("Repeat the \(what): ") == first else {
            throw NotesError("the two entries differ; nothing was changed")
        }
        return first
    }

    private static func line() throws -> String {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw NotesError("nothing entered") }
        return line
    }
}

/// The terminal settings to restore if a signal arrives while echo is off.
nonisolated(unsafe) private var savedTerminal: termios?

private func restoreTerminalAndExit(_ signal: Int32) {
    if var terminal = savedTerminal { _ = tcsetattr(STDIN_FILENO, TCSANOW, &terminal) }
    _exit(128 + signal)
}
