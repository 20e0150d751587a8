import ArgumentParser
import Foundation
import KeychainCore
import Logging

/// Routes library logs to standard error at the level of `KEYCHAIN_LOG_LEVEL` (default: warning),
/// so informational messages do not mix with command output.
let loggingConfigured: Void = {
    let level = ProcessInfo.processInfo.environment["KEYCHAIN_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
}()

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Runs a keychain operation; a ``KeychainError`` is printed to standard error (its message never
/// contains secrets) and becomes the documented exit status.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as KeychainError {
        printError("keychain: \(error)")
        if error.code == .interactionNotAllowed { printError("hint: add --unlock to enter the keychain passphrase") }
        throw ExitCode(exitStatus(for: error.code))
    }
}

/// The exit status of each failure (documented in `keychain --help`); 44 for "not found" matches macOS `security`.
func exitStatus(for code: KeychainError.Code) -> Int32 {
    switch code {
    case .itemNotFound: 44
    case .duplicateItem: 45
    case .authFailed: 50
    case .interactionNotAllowed: 51
    case .integrityViolation: 52
    case .keychainUnavailable, .invalidKeychain, .unsupportedVersion, .diskFull, .busy, .readOnly, .ioError: 53
    case .invalidParameter, .noSuchAttribute, .noSuchClass, .invalidState: 64
    default: 1
    }
}
