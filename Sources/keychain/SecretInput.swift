#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation

/// Reads secrets without echoing them: from the terminal when there is one, else one line of
/// standard input (so scripts can pipe them in and keep them out of the process list).
enum SecretInput {
    static func read(prompt: String) throws -> String {
        if isatty(STDIN_FILENO) != 0, let typed = getpass(prompt) {
            return String(cString: typed)
        }
        guard let line = Swift.readLine(strippingNewline: true) else {
            throw ValidationError("Expected a secret on standard input (\(prompt.trimmingCharacters(in: .whitespaces)))")
        }
        return line
    }

    /// Reads a new secret; on a terminal it is asked twice and must match.
    static func readNew(prompt: String) throws -> String {
        let first = try read(prompt: prompt)
        if isatty(STDIN_FILENO) != 0 {
            guard try read(prompt: "Again: ") == first else { throw ValidationError("The two entries differ.") }
        }
        guard !first.isEmpty else { throw ValidationError("A passphrase cannot be empty.") }
        return first
    }
}
