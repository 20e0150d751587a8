import CSQLiteHardening
import GRDB

extension Keychain {
    /// Runs a write like ``write(_:)``, then moves the write-ahead log into the database file and
    /// truncates the log, so that what the write removed (a deleted item's ciphertext) is left in
    /// neither file — with two `fsync`-family calls instead of four.
    ///
    /// A commit followed by a truncating checkpoint, both at `synchronous = FULL`, syncs the log's
    /// header when the log starts afresh, the log at the commit, the log again before the
    /// checkpoint copies it, and the database file after. Here the transaction commits at
    /// `synchronous = OFF` and the checkpoint, at `FULL`, makes it durable: it syncs the log
    /// before copying anything out of it, then the database file, then truncates the log. The
    /// write is durable before this returns, exactly once, as every write is; a crash before the
    /// checkpoint's first sync loses it as a crash before any commit would, the call having not
    /// returned. When a reader keeps the checkpoint from copying the new frames, the log is
    /// synced directly (``PlatformIO/syncData(of:)``) and a later write or the last close
    /// checkpoints, as before.
    ///
    /// Checked by `ScrubbingWriteTests` (the deleted ciphertext is in neither file after a
    /// delete; the delete survives reopening; a reader in the way still leaves it durable) and
    /// `Review39ScrubbingWriteAttackTests` (no automatic checkpoint runs while at `OFF`).
    func writeThenScrub<T>(_ body: (Database) throws -> T) throws(KeychainError) -> T {
        try requireWritable()
        return try Self.perform(path: databasePath) {
            try database.writeWithoutTransaction { db in
                try restoreFullSynchronousIfNeeded(db)
                // SQLite's automatic checkpoint runs inside a commit with the connection's sync
                // flags: at OFF it would copy the log into the file unsynced, and the checkpoint
                // below would find nothing left to copy, sync nothing and empty the log.
                sqlite3_wal_autocheckpoint(db.sqliteConnection, 0)
                let result: T
                do {
                    try db.cachedStatement(sql: "PRAGMA synchronous = OFF").execute()
                    result = try CachedTransaction.run(.immediate, in: db) {
                        try requireExactSchema(db)
                        try keys.refresh(db)
                        return try body(db)
                    }
                } catch {
                    _ = leaveScrubbingMode(db)
                    throw error
                }
                // The commit is made durable here in every case, by the checkpoint or directly.
                let restored = leaveScrubbingMode(db)
                var logFrames: Int32 = -1
                var copiedFrames: Int32 = -1
                let status =
                    restored
                    ? sqlite3_wal_checkpoint_v2(
                        db.sqliteConnection, "main", SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copiedFrames)
                    : SQLITE_MISUSE
                // TRUNCATE reports an empty log once it copied and emptied it; anything else (a
                // reader in the way: SQLITE_BUSY) may have left the commit unsynced.
                if status != SQLITE_OK || logFrames != 0 {
                    try PlatformIO.syncData(of: databasePath + "-wal")
                }
                return result
            }
        }
    }

    /// Puts the writer back at `synchronous = FULL` with automatic checkpoints; when SQLite
    /// refuses (out of memory, an I/O error), every later write tries again first and fails
    /// rather than commit at `OFF` (``restoreFullSynchronousIfNeeded(_:)``).
    private func leaveScrubbingMode(_ db: Database) -> Bool {
        guard (try? ConnectionSettings.setFullSynchronous(in: db)) != nil else {
            synchronousToRestore.withLock { $0 = true }
            return false
        }
        sqlite3_wal_autocheckpoint(db.sqliteConnection, 1000)
        return true
    }

    /// Finishes a ``leaveScrubbingMode(_:)`` SQLite refused, before a write; throws while it
    /// still refuses.
    func restoreFullSynchronousIfNeeded(_ db: Database) throws {
        guard synchronousToRestore.withLock({ $0 }) else { return }
        try ConnectionSettings.setFullSynchronous(in: db)
        sqlite3_wal_autocheckpoint(db.sqliteConnection, 1000)
        synchronousToRestore.withLock { $0 = false }
    }
}
