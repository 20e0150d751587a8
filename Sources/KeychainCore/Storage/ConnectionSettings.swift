import CSQLiteHardening
import GRDB

/// The PRAGMA statements the keychain sets and reads on its SQLite connections, and SQLite's
/// own checks of the file.
enum ConnectionSettings {
    /// The durability and safety settings as SQLite reports them (`nil` when a pragma gives no row).
    struct Reported {
        var synchronous: Int?
        var secureDelete: Int?
        var journalMode: String?
        var trustedSchema: Int?
    }

    /// Sets what every new connection needs: SQLite's defensive mode (the schema is checked to be
    /// exactly ours, and nothing in it is trusted anyway: no function runs from a trigger, view or
    /// index, and SQL cannot corrupt the file), no trust in the schema (`trusted_schema = OFF`),
    /// freed pages zeroed (`secure_delete = ON`), a write-ahead log that outlives the last
    /// connection but is emptied when it closes, and, on Darwin, full fsyncs for commits and
    /// checkpoints.
    ///
    /// The log: by default the last connection to close checkpoints the log and deletes it, and
    /// the next one to open creates it again (and GRDB then writes a table into it), so every
    /// process that only reads would write. With `SQLITE_FCNTL_PERSIST_WAL` the log and its index
    /// stay; with `journal_size_limit = 0` the last close, and every restart of the log, truncate
    /// it to zero bytes, so no frame of an older keybag or item outlives the connections that
    /// wrote it, as before.
    ///
    /// For GRDB's connections (`prepareDatabase`) and the short-lived one of ``LogCheckpoint``.
    static func harden(connection: OpaquePointer) throws(KeychainError) {
        guard sqlite_hardening_enable_defensive(connection) == 1 else {
            throw KeychainError.sqliteRefusedDefensiveMode()
        }
        guard sqlite3_exec(connection, pragmas, nil, nil, nil) == SQLITE_OK else {
            throw KeychainError.sqliteRefusedConnectionSettings(reason: String(cString: sqlite3_errmsg(connection)))
        }
        var persist: Int32 = 1
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist) == SQLITE_OK else {
            throw KeychainError.sqliteRefusedPersistentWAL()
        }
    }

    /// The settings ``harden(connection:)`` applies with SQL.
    private static let pragmas: String = {
        var pragmas = "PRAGMA trusted_schema = OFF; PRAGMA secure_delete = ON; PRAGMA journal_size_limit = 0;"
        #if canImport(Darwin)
        pragmas += " PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON;"
        #endif
        return pragmas
    }()

    /// Sets `synchronous = FULL` (one fsync per commit).
    static func setFullSynchronous(in db: Database) throws {
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }

    /// Reads `synchronous`, `secure_delete`, `journal_mode` and `trusted_schema`, in that order.
    static func reported(in db: Database) throws -> Reported {
        let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous")
        let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete")
        let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode")
        let trustedSchema = try Int.fetchOne(db, sql: "PRAGMA trusted_schema")
        return Reported(
            synchronous: synchronous, secureDelete: secureDelete, journalMode: journalMode, trustedSchema: trustedSchema
        )
    }

    /// The schema's version counter, which SQLite bumps on every schema change.
    static func schemaVersion(in db: Database) throws -> Int64? {
        try db.cachedStatement(sql: "PRAGMA schema_version").steppedInteger()
    }

    /// SQLite's structural check of the whole file: `["ok"]` when it finds nothing.
    static func integrityCheck(in db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
    }
}
