import ArgumentParser
import Foundation
import KeychainCore
import SecureStorage
import Logging
import SecureStorageFoundation

/// Routes library logs to standard error at the level of `KEYCHAIN_LOG_LEVEL` (default: warning),
/// so informational messages do not mix with command output. The libraries log only to the
/// logger an application gives them (``LibraryLogging``), so the tool gives them one.
let loggingConfigured: Void = {
    let level =
        ProcessInfo.processInfo.environment["KEYCHAIN_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
    LibraryLogging.logger = Logger(label: "SecureStorage")
}()

/// Writes a line to standard error, every line of it made safe for a terminal
/// (``PrintableText``): messages quote what files, backups, servers and circle members said.
func printError(_ message: String) {
    let safe = message.split(separator: "\n", omittingEmptySubsequences: false)
        .map { line in PrintableText.sanitized(line.replacingOccurrences(of: "\t", with: "    ")) }
        .joined(separator: "\n")
    FileHandle.standardError.write(Data((safe + "\n").utf8))
}

/// Prints a failure as `keychain: <what happened>`, once: an error whose own text already starts
/// with `keychain: ` (a ``SyncError`` of code `keychain`) is not prefixed again. Accessibility
/// constants are followed by the tool's name for them (``ToolWording``).
func printFailure(_ error: any Error) {
    var text = ToolWording.translated("\(error)")
    while text.hasPrefix("keychain: ") { text.removeFirst("keychain: ".count) }
    printError("keychain: \(text)")
}

/// Prints a usage problem found while running (not while parsing) and returns the exit to throw:
/// status 64 without the usage text, which would bury the message.
func usageFailure(_ message: String) -> ExitCode {
    printError("keychain: \(message)")
    return ExitCode(ExitStatus.usage)
}

/// The documented exit statuses (`keychain --help`).
enum ExitStatus {
    static let notFound: Int32 = 44
    static let duplicate: Int32 = 45
    static let authFailed: Int32 = 50
    static let locked: Int32 = 51
    static let integrity: Int32 = 52
    static let unavailable: Int32 = 53
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let fileError: Int32 = 74

    /// The help text that lists them.
    static let help = """
        Exit status: 0 success; 44 item not found (as macOS security); 45 duplicate item or \
        keychain already exists; 50 wrong passphrase, or a passcode-set item without one; \
        51 keychain locked (run `keychain unlock` or add --unlock); 52 integrity violation \
        (tampered keychain or backup, or verify found damage); 53 no keychain, or it cannot be \
        used (device key, permissions, disk); 64 usage error; 65 malformed or unsupported \
        migration source, or a sync code with a typo; 69 the sync server cannot be reached; \
        74 a source file cannot be read or rewritten; 75 `sync join`: not approved yet; \
        1 any other error.
        """

    static func of(_ error: MigrationError) -> Int32 {
        switch error.code {
        case .malformedSource, .unsupportedSource, .unknownKey: dataError
        case .interruptedMigrationPending, .reservedService: usage
        case .fileError: fileError
        case .verificationFailed: integrity
        case .conflict: duplicate
        case .keychain:
            switch error.keychainError?.code {
            case .locked: locked
            case .authenticationFailed, .passcodeRequired: authFailed
            case .integrityViolation: integrity
            case .duplicate: duplicate
            default: 1
            }
        default: 1
        }
    }

    static func of(_ code: KeychainError.Code) -> Int32 {
        switch code {
        case .itemNotFound: notFound
        case .duplicateItem, .duplicateKeychain: duplicate
        case .authFailed, .userCanceled: authFailed
        case .interactionNotAllowed: locked
        case .integrityViolation: integrity
        case .keychainUnavailable, .invalidKeychain, .unsupportedVersion, .diskFull, .busy, .readOnly, .ioError,
            .noSuchKeychain:
            unavailable
        case .invalidParameter, .noSuchAttribute, .noSuchClass, .invalidState: usage
        case .missingEntitlement, .unimplemented, .outOfMemory: 1
        default: 1  // a code added by a later version of KeychainCore
        }
    }
}

/// Runs a keychain operation; a ``KeychainError`` is printed to standard error (its message never
/// contains secrets), with a hint for the next step, and becomes the documented exit status.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as KeychainError {
        printFailure(error)
        if let hint = hint(for: error.code) { printError("hint: \(hint)") }
        throw ExitCode(ExitStatus.of(error.code))
    }
}

/// The next step after a failure of `code` in the command being run (its name, from the command line).
private func hint(for code: KeychainError.Code, command: String = CommandLine.arguments.dropFirst().first ?? "")
    -> String?
{
    switch code {
    case .interactionNotAllowed:
        "run `keychain unlock` (or add --unlock, or --passphrase-file FILE, to this command) and retry."
    case .duplicateItem where command.hasPrefix("add-"): "add -U to update the existing item instead."
    case .duplicateItem where command == "import":
        "--on-duplicate keep (the default) or replace decides what happens to items that exist."
    case .duplicateKeychain where command.hasPrefix("create"):
        "to protect the existing keychain with a passphrase, run `keychain set-passphrase` (or `keychain set-passphrase --passphrase-file FILE`)."
    default: nil
    }
}
