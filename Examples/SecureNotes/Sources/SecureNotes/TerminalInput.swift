import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a secret: on a terminal, after a prompt on standard error and with echo off; otherwise
/// one line of standard input.
enum TerminalInput {
    static func secret(_ prompt: String) throws -> String {
        let terminal = isatty(STDIN_FILENO) == 1
        var original = termios()
        if terminal {
            FileHandle.standardError.write(Data(prompt.utf8))
            tcgetattr(STDIN_FILENO, &original)
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        }
        defer {
            if terminal {
                tcsetattr(STDIN_FILENO, TCSANOW, &original)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw NotesError("nothing entered") }
        return line
    }

    /// A new secret, asked twice.
    static func newSecret(_ what: String) throws -> String {
        let first = try secret("New \(what): ")
        guard try secret("Repeat the \(what): ") == first else { throw NotesError("the two entries differ; nothing was changed") }
        return first
    }
}
