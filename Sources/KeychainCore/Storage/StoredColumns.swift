import CSQLiteHardening
import Foundation
import GRDB

/// The columns of one selected row, read by position with their storage type checked.
///
/// SQLite columns accept any value, so an edited file can hold anything. Every accessor returns
/// `nil` when the stored value is not of the type our code writes there (a NULL included), and
/// the caller turns that into an integrity error: never a crash, never a silent conversion (an
/// INTEGER read as a blob would otherwise become its decimal text).
protocol StoredColumns {
    var columnCount: Int { get }
    /// The INTEGER at `index`.
    func integer(_ index: Int) -> Int64?
    /// The TEXT at `index`.
    func text(_ index: Int) -> String?
    /// The BLOB at `index` (an empty blob is empty data).
    func blob(_ index: Int) -> Data?
    /// Whether the value at `index` is NULL.
    func isNull(_ index: Int) -> Bool
}

/// A GRDB row: for the paths that fetch rows in bulk (verify, backup, key rotation).
extension Row: StoredColumns {
    var columnCount: Int { count }

    func integer(_ index: Int) -> Int64? {
        if case .int64(let value) = (self[index as Int] as DatabaseValue).storage { return value }
        return nil
    }

    func text(_ index: Int) -> String? {
        if case .string(let value) = (self[index as Int] as DatabaseValue).storage { return value }
        return nil
    }

    func blob(_ index: Int) -> Data? {
        if case .blob(let value) = (self[index as Int] as DatabaseValue).storage { return value }
        return nil
    }

    func isNull(_ index: Int) -> Bool { (self[index as Int] as DatabaseValue).isNull }
}

/// The current row of a statement SQLite is stepping, read with SQLite's column functions: no
/// intermediate `Row`, no column-name table, one copy per blob. For the point lookups every
/// find, update and delete makes.
struct SteppedColumns: StoredColumns {
    let statement: OpaquePointer

    var columnCount: Int { Int(sqlite3_column_count(statement)) }

    func integer(_ index: Int) -> Int64? {
        sqlite3_column_type(statement, Int32(index)) == SQLITE_INTEGER
            ? sqlite3_column_int64(statement, Int32(index)) : nil
    }

    func text(_ index: Int) -> String? {
        guard sqlite3_column_type(statement, Int32(index)) == SQLITE_TEXT,
            let bytes = sqlite3_column_text(statement, Int32(index))
        else { return nil }
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func blob(_ index: Int) -> Data? {
        guard sqlite3_column_type(statement, Int32(index)) == SQLITE_BLOB else { return nil }
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        guard count > 0, let bytes = sqlite3_column_blob(statement, Int32(index)) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    func isNull(_ index: Int) -> Bool { sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL }
}
