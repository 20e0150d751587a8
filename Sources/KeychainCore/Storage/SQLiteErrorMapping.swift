import Foundation
import GRDB

/// Maps SQLite failures to keychain errors the way Apple's keychain maps them.
enum SQLiteErrorMapping {
    static func map(_ error: any Error, path: String) -> KeychainError {
        if let error = error as? KeychainError { return error }
        if let unrecorded = error as? UnrecordedHeader { return unrecorded.error }
        guard let error = error as? DatabaseError else {
            return KeychainError(.keychainUnavailable, "Keychain access failed: \(error).")
        }
        // The SQL text and arguments never appear: arguments could contain blind indexes or ciphertext.
        let reason = "SQLite error \(error.extendedResultCode.rawValue) (\(error.message ?? "no message"))"
        switch error.resultCode {
        case .SQLITE_CONSTRAINT:
            return KeychainError(.duplicateItem, "An item with the same primary key already exists in the keychain; update it instead, or delete it first.")
        case .SQLITE_FULL:
            return KeychainError(.diskFull, "The disk holding \(path) is full; nothing was written. Free some space and retry.")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return KeychainError(.busy, "Another process kept the keychain at \(path) busy longer than the busy timeout; nothing was written. Retry.")
        case .SQLITE_READONLY:
            return KeychainError(.readOnly, "The keychain at \(path) is read-only: \(reason).")
        case .SQLITE_IOERR:
            return KeychainError(.ioError, "I/O error on the keychain at \(path): \(reason). The disk may be full, over a size limit or failing; the operation did not complete and stored items are unchanged. Free some space or check the disk, then retry.")
        case .SQLITE_NOMEM:
            return KeychainError(.outOfMemory, "Out of memory while using the keychain at \(path).")
        case .SQLITE_NOTADB:
            return KeychainError(.invalidKeychain, "\(path) is not a keychain database. Move it aside or choose another location.")
        case .SQLITE_CORRUPT:
            return KeychainError(.keychainUnavailable, "The keychain database at \(path) is corrupted: \(reason). Restore it from a backup.")
        default:
            return KeychainError(.keychainUnavailable, "The keychain at \(path) cannot be used: \(reason).")
        }
    }
}
