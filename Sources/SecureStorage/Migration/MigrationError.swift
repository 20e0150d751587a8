import Foundation

/// Why a migration could not go on. Messages name the file and position, never a value.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source cannot be parsed; nothing was changed.
    case malformedSource(file: String, position: String, reason: String)
    /// The source's format is not one we read.
    case unsupportedSource(file: String, reason: String)
    /// A key named in the selection is not in the source, or has a type that cannot be migrated.
    case unknownKey(file: String, key: String, reason: String)
    /// The source file cannot be read or rewritten.
    case fileError(file: String, reason: String)
    /// A value read back from the keychain differs from the source; the source was left untouched.
    case verificationFailed(file: String, key: String)
    /// The keychain already holds a different value where a source value would go.
    case conflict(file: String, key: String, account: String)
    /// An interrupted migration of this file to another service or access group must be finished first.
    case interruptedMigrationPending(file: String, service: String)
    /// The target service is the one migrations keep their journal in.
    case reservedService(String)
    /// The keychain refused a write or read; the source was left untouched.
    case keychain(SecureStorageError)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .malformedSource(let file, let position, let reason):
            "\(file):\(position): \(reason). Nothing was changed; fix the file or choose the right --format."
        case .unsupportedSource(let file, let reason):
            "\(file): \(reason). Nothing was changed."
        case .unknownKey(let file, let key, let reason):
            "\(file): \(key): \(reason). Nothing was changed; check the key names."
        case .fileError(let file, let reason):
            "\(file): \(reason)."
        case .verificationFailed(let file, let key):
            "\(file): the value of \(key) read back from the keychain differs from the source. The source was left untouched; run the migration again."
        case .conflict(let file, let key, let account):
            "\(file): \(key) would go to the keychain account \(account), which already holds a different value. Nothing was changed; choose another --service, or remove that item first."
        case .interruptedMigrationPending(let file, let service):
            "\(file): an interrupted migration of this file to service \(service) is pending. Run it again with that service (and the same access group) to finish it."
        case .reservedService(let service):
            "The service \(service) holds the journal of migrations, so values cannot go there. Nothing was changed; choose another --service."
        case .keychain(let error):
            "The keychain refused the migration: \(error) The source was left untouched; fix the cause and run the migration again (it resumes)."
        }
    }
}
