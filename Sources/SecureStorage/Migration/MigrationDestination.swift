import Foundation

/// Where a ``SourceMigration`` puts the values it moves, when not in the keychain: an encrypted
/// database, protected files, a server. The migration keeps its guarantees with any destination:
/// the journal records each step, every value is read back and compared before the source is
/// scrubbed, and a run interrupted at any point resumes.
///
/// ```swift
/// struct NotesDestination: MigrationDestination {
///     let identifier = "notes.sqlite"
///     func store(_ value: StoredValue, for key: String) throws { /* insert or replace the row */ }
///     func storedValue(for key: String) throws -> StoredValue? { /* the row's value, or nil */ }
/// }
/// let migration = SourceMigration(file: preferences, selection: KeySelection(patterns: ["note.*"]),
///                                 destination: NotesDestination())
/// ```
///
/// `store` must replace any value under the key (a resumed run may store again) and be durable
/// when it returns; `storedValue` must read what is durably stored. Errors are reported as
/// ``MigrationError/destination(file:key:reason:)`` with the error's type and, when it is a
/// `LocalizedError`, its `failureReason`, which must never contain a value.
public protocol MigrationDestination: Sendable {
    /// Names the destination in the journal, so that an interrupted migration is resumed only
    /// into the same destination.
    var identifier: String { get }
    /// Stores `value` under `key`, replacing any value there.
    func store(_ value: StoredValue, for key: String) throws
    /// The value under `key`, or `nil`.
    func storedValue(for key: String) throws -> StoredValue?
}

/// The keychain as a destination: the default of ``SourceMigration``.
struct KeychainDestination: MigrationDestination {
    let storage: SecureStorage
    let sensitivity: Sensitivity

    var identifier: String { storage.service }

    func store(_ value: StoredValue, for key: String) throws {
        try storage.set(value, for: key, sensitivity: sensitivity)
    }

    func storedValue(for key: String) throws -> StoredValue? {
        try storage.storedValue(for: key)
    }
}
