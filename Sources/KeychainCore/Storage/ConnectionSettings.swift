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

    /// Sets what every new connection needs: no trust in the schema (`trusted_schema = OFF`),
    /// freed pages zeroed (`secure_delete = ON`) and, on Darwin, full fsyncs for commits and checkpoints.
    static func harden(in db: Database) throws {
        try db.execute(sql: "PRAGMA trusted_schema = OFF")
        try db.execute(sql: "PRAGMA secure_delete = ON")
        #if canImport(Darwin)
        try db.execute(sql: "PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON")
        #endif
    }

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
        return Reported(synchronous: synchronous, secureDelete: secureDelete, journalMode: journalMode, trustedSchema: trustedSchema)
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
