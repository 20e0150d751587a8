import Foundation

/// The result of ``Keychain/verify(progress:)``: every item decrypted and checked, and what
/// could not be.
///
/// ```swift
/// let report = try keychain.verify()
/// if !report.isClean {
///     for item in report.damagedItems { print(item) }   // reference, class, problem; never values
/// }
/// ```
public struct IntegrityReport: Sendable, Hashable {
    /// Items whose attributes, secret and lookup indexes all verified.
    public internal(set) var verifiedItems = 0
    /// Items that failed a check: edited, swapped, moved or unreadable rows.
    public internal(set) var damagedItems: [DamagedItem] = []
    /// Items that could not be checked because their protection class is locked, by accessibility.
    public internal(set) var lockedItems: [Accessibility: Int] = [:]
    /// What SQLite's own `PRAGMA integrity_check` reported, when it was not "ok".
    public internal(set) var databaseProblems: [String] = []
    /// Why the rows do not match the keychain's recorded state (rows deleted, added or replayed
    /// outside the library, or the state record edited), or `nil` when they match.
    public internal(set) var stateProblem: String?

    /// Whether nothing is damaged (locked items are not damage, but were not checked).
    public var isClean: Bool { damagedItems.isEmpty && databaseProblems.isEmpty && stateProblem == nil }

    /// How many items could not be checked because the keychain is locked.
    public var lockedItemCount: Int { lockedItems.values.reduce(0, +) }
}

/// One item that failed ``Keychain/verify(progress:)``. Holds no attribute values.
public struct DamagedItem: Sendable, Hashable, CustomStringConvertible {
    /// The row's number in the database.
    public let rowID: Int64
    /// The item's persistent reference, when the row still names a valid item and class.
    public let persistentReference: PersistentReference?
    /// The class recorded in the row (as stored, possibly garbage).
    public let itemClass: String
    /// What failed.
    public let problem: String

    /// `"row <n> (<class>): <problem>"`, with control and bidirectional formatting characters
    /// (which the file's own columns may hold) shown as `?` (``PrintableText``).
    public var description: String { PrintableText.sanitized("row \(rowID) (\(itemClass)): \(problem)") }
}
