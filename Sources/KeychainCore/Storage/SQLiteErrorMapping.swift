import Foundation
import GRDB

/// Maps SQLite failures to keychain errors the way Apple's keychain maps them.
enum SQLiteErrorMapping {
    static func map(_ error: any Error, path: String) -> KeychainError {
        if let error = error as? KeychainError { return error }
        if let unrecorded = error as? UnrecordedHeader { return unrecorded.error }
        guard let error = error as? DatabaseError else {
            return KeychainError.keychainAccessFailed(error: error)
        }
        // The SQL text and arguments never appear: arguments could contain blind indexes or ciphertext.
        let reason = "SQLite error \(error.extendedResultCode.rawValue) (\(error.message ?? "no message"))"
        switch error.resultCode {
        case .SQLITE_CONSTRAINT:
            return KeychainError.duplicatePrimaryKey()
        case .SQLITE_FULL:
            return KeychainError.keychainDiskFull(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return KeychainError.keychainBusy(path: path)
        case .SQLITE_READONLY:
            return KeychainError.keychainFileReadOnly(path: path, reason: reason)
        case .SQLITE_IOERR:
            return KeychainError.keychainIOError(path: path, reason: reason)
        case .SQLITE_NOMEM:
            return KeychainError.keychainOutOfMemory(path: path)
        case .SQLITE_NOTADB:
            return KeychainError.notAKeychainDatabase(path: path)
        case .SQLITE_CORRUPT:
            return KeychainError.keychainDatabaseCorrupted(path: path, reason: reason)
        default:
            return KeychainError.keychainUnusable(path: path, reason: reason)
        }
    }
}
