import CSQLiteHardening
import GRDB

extension Statement {
    /// The INTEGER in the first column of the first row of this argument-less statement, stepped
    /// with SQLite's own functions (a tenth of GRDB's `fetchOne` for the checks every transaction
    /// makes); nil when there is no row or the value is not an INTEGER.
    /// - Throws: the `DatabaseError` SQLite reports (busy, corrupt, I/O).
    func steppedInteger() throws -> Int64? {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return sqlite3_column_type(handle, 0) == SQLITE_INTEGER ? sqlite3_column_int64(handle, 0) : nil
        case SQLITE_DONE:
            return nil
        case let code:
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))), sql: sql)
        }
    }
}
