import GRDB

/// Triggers that make SQLite refuse a value that is not sealed in a sealed column, whoever
/// writes it: GRDB's batch `updateAll`, a `Record` subclass's own `insert`/`update` (whose
/// `willSave` is `Record`'s, not ``SealedRecord``'s), raw SQL. A sealed cell is a BLOB of at
/// least 30 bytes starting with the format byte; anything else (text, a number, NULL, a short
/// or foreign blob) aborts the statement with a message naming `unsealedWrite`, and nothing is
/// written.
///
/// The sealer installs them on a table the first time it writes there, and for the record
/// types given to ``DatabaseSealer/prepare(_:records:)``. They name no function, so they run on
/// every connection, with or without a sealer.
enum UnsealedWriteGuard {
    /// The text SQLite's error carries when a trigger refuses a write.
    static let message = "SecureStorageGRDB unsealedWrite: a sealed column was written without the sealer (it would have stored plaintext); write the record with DatabaseSealer.insert(_:_:) or update(_:_:)"

    /// The smallest sealed cell: format byte, nonce, the encoded value's type byte, tag.
    static let minimumSealedLength = 1 + 12 + 1 + 16

    /// Installs the triggers of `table`'s sealed columns that do not exist yet.
    static func install(for table: SealedTable, _ db: Database) throws {
        for column in table.sealedColumns {
            for event in ["INSERT", "UPDATE"] {
                let name = "secure_storage_sealed_\(table.name)_\(column.name)_\(event.lowercased())"
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ? COLLATE NOCASE", arguments: [name]) == true {
                    continue
                }
                let value = "NEW.\(column.name.quotedDatabaseIdentifier)"
                let on = event == "UPDATE" ? "UPDATE OF \(column.name.quotedDatabaseIdentifier)" : event
                try db.execute(sql: """
                    CREATE TRIGGER \(name.quotedDatabaseIdentifier) BEFORE \(on) ON \(table.name.quotedDatabaseIdentifier)
                    WHEN typeof(\(value)) <> 'blob' OR length(\(value)) < \(minimumSealedLength)
                      OR substr(\(value), 1, 1) <> x'\(String(format: "%02x", SealedValueCodec.formatByte))'
                    BEGIN SELECT RAISE(ABORT, '\(message)'); END
                    """)
            }
        }
    }

    /// Whether `error` is a guard's refusal.
    static func refused(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.message?.contains("SecureStorageGRDB unsealedWrite") == true
    }
}
