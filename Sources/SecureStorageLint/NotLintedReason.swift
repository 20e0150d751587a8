/// Why a file was not linted. The reports list such files, and `keychain-lint` then exits with
/// status 74 whatever was found elsewhere.
package enum NotLintedReason: Error, Sendable, Hashable, Codable {
    /// The file could not be opened or read.
    case unreadable
    /// The path is a directory, a FIFO, a device or a socket, not a regular file.
    case notRegularFile
    /// The file is larger than ``InputLimits/maximumBytes``.
    case tooLarge(bytes: Int)
    /// `[` is nested deeper than ``InputLimits/maximumBracketDepth``.
    case bracketsTooDeep(depth: Int)
    /// Brackets are nested deeper than ``InputLimits/maximumNestingLevel``, where the parser stops.
    case nestingTooDeep
    /// Reading, parsing and linting the file took longer than the time limit; the worker
    /// process linting it was killed.
    case overTimeLimit(seconds: Double)
    /// The worker process linting the file ended without answering (a crash).
    case linterCrashed(status: String)

    /// A short stable name for scripts: `unreadable`, `not-a-file`, `too-large`, `too-deep`,
    /// `time-limit` or `linter-crashed` (the JSON `reason`, the SARIF notification's id, the text
    /// report's bracket).
    package var code: String {
        switch self {
        case .unreadable: "unreadable"
        case .notRegularFile: "not-a-file"
        case .tooLarge: "too-large"
        case .bracketsTooDeep, .nestingTooDeep: "too-deep"
        case .overTimeLimit: "time-limit"
        case .linterCrashed: "linter-crashed"
        }
    }

    /// What happened, completing "<file>: ".
    package var message: String {
        switch self {
        case .unreadable:
            "cannot be read"
        case .notRegularFile:
            "is not a regular file"
        case .tooLarge(let bytes):
            "is larger than 16 MiB (\(bytes) bytes)"
        case .bracketsTooDeep(let depth):
            "nests brackets \(depth) deep (more than \(InputLimits.maximumBracketDepth)), where the Swift parser takes exponential time"
        case .nestingTooDeep:
            "nests brackets, parentheses, braces or generic arguments more than \(InputLimits.maximumNestingLevel) deep, where the Swift parser stops"
        case .overTimeLimit(let seconds):
            "took longer than \(Self.formatted(seconds)) s to parse and lint (--time-limit), and was abandoned"
        case .linterCrashed(let status):
            "made the linter's worker process end without an answer (\(status))"
        }
    }

    /// `5`, `0.25`: seconds without a trailing `.0`.
    private static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}

/// A file that was not linted, and why.
package struct NotLintedFile: Sendable, Hashable {
    /// The path as it was given or found.
    package var path: String
    /// Why it was not linted.
    package var reason: NotLintedReason

    /// A file at `path` not linted for `reason`.
    package init(path: String, reason: NotLintedReason) {
        self.path = path
        self.reason = reason
    }
}
