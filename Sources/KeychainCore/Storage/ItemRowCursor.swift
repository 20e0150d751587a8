import CSQLiteHardening
import GRDB

/// Steps a cached `SELECT` of ``ItemRow/columns`` with SQLite's own functions and decodes each
/// row straight from the statement (``SteppedColumns``), checked as ``ItemRow/init(row:)`` checks.
///
/// GRDB's row cursor builds a `Row` with a column-name table per fetch and decodes every value
/// through `DatabaseValue`: more instructions than the rest of a point read's SQL. The
/// statement stays GRDB's (prepared once, cached per connection); only the stepping is direct.
/// The statement is reset when the cursor ends, fails or is dropped, so it never holds a read
/// snapshot past its transaction.
final class ItemRowCursor {
    private let statement: Statement
    private var finished = false

    /// Binds `arguments` to `statement` (reset first: a statement whose last step failed reports
    /// that failure again on its next reset).
    /// - Throws: the `DatabaseError` SQLite reports for a binding it refuses.
    init(statement: Statement, arguments: [DatabaseValue]) throws {
        self.statement = statement
        try statement.bind(arguments)
    }

    deinit { sqlite3_reset(statement.sqliteStatement) }

    /// The next row, or nil after the last.
    /// - Throws: the `DatabaseError` SQLite reports (busy, corrupt, I/O), or `.integrityViolation`
    ///   when a row holds values of the wrong type.
    func next() throws -> ItemRow? {
        guard !finished else { return nil }
        let handle = statement.sqliteStatement
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return try ItemRow(row: SteppedColumns(statement: handle))
        case SQLITE_DONE:
            finish()
            return nil
        case let code:
            let error = statement.failure(code)
            finish()
            throw error
        }
    }

    private func finish() {
        finished = true
        sqlite3_reset(statement.sqliteStatement)
    }
}
