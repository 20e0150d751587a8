import Crypto
import Foundation
import GRDB
import SecureStorageFoundation

/// Triggers that make SQLite refuse a value that is not sealed in a sealed column, whoever
/// writes it: GRDB's batch `updateAll`, a `Record` subclass's own `insert`/`update` (whose
/// `willSave` is `Record`'s, not ``SealedRecord``'s), raw SQL. A sealed cell is a BLOB of at
/// least 30 bytes starting with the format byte; anything else (text, a number, NULL, a short
/// or foreign blob) aborts the statement with a message naming `unsealedWrite`, and nothing is
/// written. (A plaintext BLOB that happens to look like a sealed cell passes; the sealer then
/// refuses it when it reads it.)
///
/// The sealer installs them on a table the first time it writes there, and for the record
/// types given to ``DatabaseSealer/prepare(_:records:)``; a table recreated since (a migration)
/// gets them again at the sealer's next write. One trigger per table and statement kind guards
/// every sealed column; it is recognised by the table it is on and a name derived from the
/// table, the kind and the columns, so a renamed table keeps its own and a new table of the old
/// name gets new ones. They name no function, so they run on every connection, with or without
/// a sealer. Tables in the TEMP schema are guarded in it; tables of attached databases are not
/// guarded.
enum UnsealedWriteGuard {
    /// The text SQLite's error carries when a trigger refuses a write.
    static let message =
        "SecureStorageGRDB unsealedWrite: a sealed column was written without the sealer (it would have stored plaintext); write the record with DatabaseSealer.insert(_:_:) or update(_:_:)"

    /// The smallest sealed cell: format byte, nonce, the encoded value's type byte, tag.
    static let minimumSealedLength = 1 + 12 + 1 + 16

    /// The prefix of every guard trigger's name.
    static let namePrefix = "secure_storage_sealed_"

    /// Installs the triggers of `table` that it does not have yet: one query when it has them.
    static func install(for table: SealedTable, _ db: Database) throws {
        guard !table.sealedColumns.isEmpty else { return }
        let columns = table.sealedColumns.map { $0.name.lowercased() }.sorted()
        let isTemporary =
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND name = ? COLLATE NOCASE"),
                arguments: [table.name]) ?? false
        let schema = isTemporary ? "sqlite_temp_master" : "sqlite_master"
        let existing = try Set(
            String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT name FROM \(schema) WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE AND substr(name, 1, \(namePrefix.count)) = ?
                        """), arguments: [table.name, namePrefix]))
        for event in ["insert", "update"] {
            let base = cachedName(table: table.name, event: event, columns: columns)
            guard !existing.contains(where: { $0 == base || $0.hasPrefix(base + "_") }) else { continue }
            // A trigger of this name on another table: the one this table had before it was
            // renamed. It keeps guarding that table; this one gets a name of its own.
            let taken =
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM \(schema) WHERE type = 'trigger' AND name = ? COLLATE NOCASE",
                    arguments: [base]) ?? false
            let triggerName = taken ? base + "_" + String(UInt32.random(in: .min ... .max), radix: 16) : base
            let refused: String = table.sealedColumns.map { (column) -> String in
                let value: String = "NEW.\(column.name.quotedDatabaseIdentifier)"
                return
                    "typeof(\(value)) <> 'blob' OR length(\(value)) < \(minimumSealedLength) OR substr(\(value), 1, 1) <> x'\(String(format: "%02x", SealedValueCodec.formatByte))'"
            }.joined(separator: " OR ")
            let on: String =
                event == "update"
                ? "UPDATE OF \(table.sealedColumns.map(\.name.quotedDatabaseIdentifier).joined(separator: ", "))"
                : "INSERT"
            try db.execute(
                sql: """
                    CREATE \(isTemporary ? "TEMP " : "")TRIGGER \(triggerName.quotedDatabaseIdentifier) BEFORE \(on) ON \(table.name.quotedDatabaseIdentifier)
                    WHEN \(refused)
                    BEGIN SELECT RAISE(ABORT, '\(message)'); END
                    """)
        }
    }

    /// The names ``name(table:event:columns:)`` made so far, by their table, event and columns
    /// (names of the schema, nothing secret).
    private static let names = Locked<[[String]: String]>([:])

    /// ``name(table:event:columns:)``, computed once per table, event and columns.
    private static func cachedName(table: String, event: String, columns: [String]) -> String {
        let parts = [table, event] + columns
        return names.withLock { names in
            if let known = names[parts] { return known }
            let made = name(table: table, event: event, columns: columns)
            names[parts] = made
            return made
        }
    }

    /// The name of the trigger guarding `columns` of `table` for `event`.
    private static func name(table: String, event: String, columns: [String]) -> String {
        let digest = SHA256.hash(data: Data(([table.lowercased(), event] + columns).joined(separator: "\u{0}").utf8))
        return namePrefix + event + "_" + digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
