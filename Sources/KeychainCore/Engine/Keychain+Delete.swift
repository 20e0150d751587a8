import Foundation
import GRDB

extension Keychain {
    /// Deletes every item the query matches (the query's limit is ignored), in one transaction.
    ///
    /// Deleting needs no class key, so it works while the keychain is locked, as on iOS: each
    /// selected row is checked against its row seal instead of its decrypted attributes, so an
    /// edited lookup column stops the delete with `.integrityViolation` rather than removing
    /// another item.
    /// Freed pages are zeroed (`secure_delete`) and the write-ahead log is checkpointed afterwards,
    /// so deleted ciphertext does not linger in the log.
    ///
    /// - Returns: how many items were deleted (at least 1).
    /// - Throws: `.itemNotFound` when nothing matches.
    @discardableResult
    public func delete(_ query: Query) throws(KeychainError) -> Int {
        var resolved = try ResolvedQuery(query)
        resolved.limit = .all
        try adoptItemsWrittenBeforeOwnership(resolved)
        let count = try writeThenScrub { db -> Int in
            let ids = try self.rowsToChange(resolved, proof: .seal, db).compactMap(\.row.rowID)
            if ids.isEmpty { throw KeychainError.itemNotFound() }
            try self.recordRemoval(of: ids, db)
            try ItemTable.delete(in: db, ids: ids)
            return ids.count
        }
        logger.debug("deleted items", metadata: ["class": "\(resolved.itemClass.rawValue)", "count": "\(count)"])
        return count
    }

    /// Folds the rows about to be deleted out of the state digest (same transaction as the delete).
    func recordRemoval(of ids: [Int64], _ db: Database) throws {
        try keys.stateDigest.record(removing: ids.map { id in try keys.stateDigest.fingerprint(rowID: id, db) }, db)
    }

    /// Moves the write-ahead log into the database and truncates it, when no reader is in the way.
    /// Best effort: a busy log is checkpointed by a later write.
    func checkpoint() {
        try? checkpointNow()
    }

    /// Moves the write-ahead log into the database and truncates it, waiting for readers up to
    /// the busy timeout; throws when they stay in the way.
    func checkpointNow() throws(KeychainError) {
        guard !options.readOnly else { return }  // it never wrote to the log
        _ = try Self.perform(path: databasePath) {
            try database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
    }
}
