import ArgumentParser
import Foundation
import KeychainCore
import SecureStorageFoundation

/// Reads secrets without echoing them: on a terminal, a prompt on standard error and a line typed
/// with echo switched off; otherwise one line of standard input, so scripts can pipe secrets in
/// and keep them out of the process list and the shell history. A piped standard input carries
/// one value per command (``StandardInput``): each read names the value it reads.
enum SecretInput {
    /// Whether standard input is a terminal (prompts are shown and new secrets confirmed).
    static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 }

    /// Reads one secret, `use`, which must be the value standard input carries when it is not a terminal.
    static func read(prompt: String, as use: StandardInputUse) throws -> String {
        try StandardInput.permit(use)
        if isInteractive {
            let line = withEchoOff {
                FileHandle.standardError.write(Data(prompt.utf8))
                return Swift.readLine(strippingNewline: true)
            }
            FileHandle.standardError.write(Data("\n".utf8))
            guard let line else {
                throw usageFailure(
                    "No input (end of file) at the prompt '\(prompt.trimmingCharacters(in: .whitespaces))'.")
            }
            return line
        }
        guard let line = Swift.readLine(strippingNewline: true) else {
            // Only the prompt's first letter is lowered: it may name a path, whose case matters.
            let trimmed = prompt.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: [":"])
            let what = trimmed.prefix(1).lowercased() + trimmed.dropFirst()
            throw usageFailure(
                "Expected \(what) as a line on standard input; pipe it in, give it in a file (--passphrase-file FILE for the keychain's, --backup-passphrase-file FILE for a backup's), or run in a terminal to be prompted."
            )
        }
        return line
    }

    /// Reads a new secret; on a terminal it is asked twice and must match. Empty is refused.
    static func readNew(prompt: String, as use: StandardInputUse) throws -> String {
        let first = try read(prompt: prompt, as: use)
        guard !first.isEmpty else { throw usageFailure("An empty passphrase is not allowed.") }
        if isInteractive {
            guard try read(prompt: "Retype to confirm: ", as: use) == first else {
                throw usageFailure("The two entries differ; nothing was changed.")
            }
        }
        return first
    }

    /// All of standard input (for `--stdin`), which then carries nothing else. A text secret
    /// loses one trailing newline (`\n` or `\r\n`); binary input is kept byte for byte.
    static func readAll() throws -> Data {
        try StandardInput.permit(.secretStream)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        defer { SecretWiping.wipe(&buffer) }
        while true {
            let count = fread(&buffer, 1, buffer.count, standardInputStream)
            if count > 0 { data.append(contentsOf: buffer[0..<count]) }
            if count < buffer.count { break }
        }
        if ferror(standardInputStream) != 0 { throw usageFailure("Reading the secret from standard input failed.") }
        guard !data.isEmpty else {
            throw usageFailure(
                "Standard input was empty; nothing was stored. Pipe the secret in, or use -w to be prompted.")
        }
        if String(data: data, encoding: .utf8) != nil, data.last == UInt8(ascii: "\n") {
            data.removeLast()
            if data.last == UInt8(ascii: "\r") { data.removeLast() }
        }
        return data
    }

    /// Asks a yes/no question on the terminal; `false` when not interactive.
    static func confirm(_ question: String) -> Bool {
        guard isInteractive else { return false }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        return Swift.readLine()?.lowercased().hasPrefix("y") ?? false
    }

    /// Runs `body` with terminal echo switched off (before the prompt is shown, so nothing typed
    /// after it is echoed), restoring the terminal afterwards — also on Ctrl-C.
    static func withEchoOff<T>(_ body: () -> T) -> T {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return body() }
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
        }
        return body()
    }
}

/// The terminal settings to restore if a signal arrives while echo is off.
nonisolated(unsafe) private var savedTerminal: termios?

private func restoreTerminalAndExit(_ signal: Int32) {
    if var terminal = savedTerminal { _ = tcsetattr(STDIN_FILENO, TCSANOW, &terminal) }
    _exit(128 + signal)
}
