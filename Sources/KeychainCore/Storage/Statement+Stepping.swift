import CSQLiteHardening
import GRDB

/// The hot statements stepped with SQLite's own functions on GRDB's cached statements: GRDB's
/// generic argument binding and row decoding cost several times SQLite's own work for the
/// statements every read and write runs. Errors are GRDB's `DatabaseError` with SQLite's
/// (extended) result code, as GRDB would report them.
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
            throw failure(code)
        }
    }

    /// Binds `values` to this statement's parameters in order, runs it to completion and resets it.
    /// - Throws: the `DatabaseError` SQLite reports (a constraint, busy, full disk, I/O).
    func execute(binding values: [DatabaseValue]) throws {
        let handle = sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        try bind(values)
        let status = sqlite3_step(handle)
        guard status == SQLITE_DONE else { throw failure(status) }
    }

    /// Resets this statement and binds `values` to its parameters in order (blobs and text
    /// copied by SQLite), without GRDB's generic argument conversion.
    /// - Throws: the `DatabaseError` SQLite reports for a binding it refuses.
    func bind(_ values: [DatabaseValue]) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value.storage {
            case .null: status = sqlite3_bind_null(handle, index)
            case .int64(let number): status = sqlite3_bind_int64(handle, index, number)
            case .double(let number): status = sqlite3_bind_double(handle, index, number)
            case .string(let text):
                status = text.withCString {
                    sqlite3_bind_text(handle, index, $0, Int32(text.utf8.count), Self.transient)
                }
            case .blob(let bytes):
                // An empty blob stays a blob (a NULL pointer would bind NULL).
                status =
                    bytes.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes {
                        sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient)
                    }
            }
            guard status == SQLITE_OK else { throw failure(status) }
        }
    }

    /// The error SQLite reports for `status` on this statement, as GRDB would report it.
    func failure(_ status: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: status),
            message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
    }

    /// `SQLITE_TRANSIENT` (SQLite copies the bytes), which the C macro spells as the destructor `(void *)-1`.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
