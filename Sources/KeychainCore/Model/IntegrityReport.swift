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

/// One item that failed ``Keychain/verify(progress:)``. Holds no secret and no attribute values
/// but the names users know an item by (its service or server, and account), when its
/// attributes still decrypt.
public struct DamagedItem: Sendable, Hashable, CustomStringConvertible {
    /// The row's number in the database.
    public let rowID: Int64
    /// The item's persistent reference, when the row still names a valid item and class.
    public let persistentReference: PersistentReference?
    /// The class recorded in the row (as stored, possibly garbage).
    public let itemClass: String
    /// What failed.
    public let problem: String
    /// The item's service (`kSecAttrService`), or server for internet passwords, when its
    /// attributes still decrypt and hold one. Quoted from the file: print it through
    /// ``PrintableText`` (``description`` does).
    public let service: String?
    /// The item's account (`kSecAttrAccount`), when its attributes still decrypt and hold one.
    public let account: String?

    init(
        rowID: Int64, persistentReference: PersistentReference?, itemClass: String, problem: String,
        service: String? = nil, account: String? = nil
    ) {
        self.rowID = rowID
        self.persistentReference = persistentReference
        self.itemClass = itemClass
        self.problem = problem
        self.service = service
        self.account = account
    }

    /// How users know the item: `service "<service>", account "<account>"` when its attributes
    /// still decrypt, else `row <n>`; control and bidirectional formatting characters shown as
    /// `?` (``PrintableText``).
    public var name: String {
        var parts: [String] = []
        if let service { parts.append("service \"\(service)\"") }
        if let account { parts.append("account \"\(account)\"") }
        return PrintableText.sanitized(parts.isEmpty ? "row \(rowID)" : parts.joined(separator: ", "))
    }

    /// `"service "<s>", account "<a>" (<class>, row <n>): <problem>"`, or `"row <n> (<class>):
    /// <problem>"` for an item whose attributes do not decrypt, with control and bidirectional
    /// formatting characters (which the file's own columns may hold) shown as `?`
    /// (``PrintableText``).
    public var description: String {
        let named = service != nil || account != nil
        return PrintableText.sanitized(
            named ? "\(name) (\(itemClass), row \(rowID)): \(problem)" : "row \(rowID) (\(itemClass)): \(problem)")
    }
}
