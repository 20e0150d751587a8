import CSQLiteHardening
import SecureStorageFoundation

/// Moves what the write-ahead log still holds into the database file and empties the log, for a
/// read-only instance that goes while the log holds frames.
///
/// Only a connection that can write can checkpoint, and SQLite checkpoints when the last
/// connection closes. A writer whose scrubbing checkpoint (after a passphrase change, a delete,
/// a lock) was blocked by a reader leaves that work to whoever closes last; when that is a
/// read-only instance, the log would keep the new pages and the database file the old ones — an
/// old keybag, a deleted item's ciphertext — until some writer closes last. So a read-only
/// instance that finds frames in the log when it goes finishes the checkpoint through a
/// short-lived connection of its own. A log that is empty (the usual case) means nothing is
/// opened and nothing written.
enum LogCheckpoint {
    /// Best effort, and never a wait: nothing happens when the log is empty or missing, the file
    /// cannot be opened for writing (a read-only mount), or a reader still holds an older
    /// snapshot (it would stay in the way for as long as it likes; the next writer or last
    /// closer checkpoints).
    static func finishIfTheLogHoldsFrames(databasePath path: String) {
        var info = stat()
        guard stat(path + "-wal", &info) == 0, info.st_size > 0 else { return }
        var connection: OpaquePointer?
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
            let connection
        else {
            sqlite3_close(connection)
            return
        }
        defer { sqlite3_close(connection) }
        sqlite3_busy_timeout(connection, 0)
        guard (try? ConnectionSettings.harden(connection: connection)) != nil,
            sqlite3_exec(connection, "PRAGMA synchronous = FULL", nil, nil, nil) == SQLITE_OK,
            // The log is opened by the first read; a checkpoint before it does nothing.
            sqlite3_exec(connection, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK
        else { return }
        sqlite3_wal_checkpoint_v2(connection, "main", SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    }
}
