import GRDB

/// Runs a body inside one SQLite transaction whose `BEGIN` and `COMMIT` statements are prepared
/// once per connection and reused.
///
/// GRDB's `inTransaction` and `DatabasePool.read` prepare `BEGIN …` and `COMMIT TRANSACTION`
/// afresh on every call, and `read` wraps them in a savepoint check: about a fifth of a point
/// read's instructions. The transaction itself is the same: a deferred read transaction holds one
/// snapshot from its first statement to the commit; an immediate one takes the write lock first.
enum CachedTransaction {
    /// How the transaction starts.
    enum Kind: String {
        /// `BEGIN DEFERRED`: a read snapshot from the first statement on.
        case deferred = "BEGIN DEFERRED TRANSACTION"
        /// `BEGIN IMMEDIATE`: the write lock before the body runs.
        case immediate = "BEGIN IMMEDIATE TRANSACTION"
    }

    /// Begins, runs `body`, commits. When the body or the commit throws, the transaction is
    /// rolled back (if SQLite still has one open) and the error rethrown, so the connection
    /// always goes back to the pool in autocommit mode.
    static func run<T>(_ kind: Kind, in db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: kind.rawValue).execute()
        do {
            let result = try body()
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            if db.isInsideTransaction { try? db.rollback() }
            throw error
        }
    }
}
