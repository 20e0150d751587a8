import CSQLiteHardening
import Foundation

/// The physical floor of a keychain operation: SQLite's C API alone, with every statement
/// prepared once (`SQLITE_PREPARE_PERSISTENT`) and reused as bind, step, reset — no GRDB read or
/// write block, no encryption, no blind indexes.
///
/// The table holds the benchmark's generic passwords as plaintext `(service, account, data)` rows
/// with a unique index on `(service, account)`, in WAL mode with `synchronous = FULL` and
/// `secure_delete = ON`: the keychain's durability settings. A point read is one indexed lookup
/// and one copy of the data blob; a durable insert is `BEGIN IMMEDIATE`, `INSERT`, `COMMIT` with
/// one `fdatasync` of the write-ahead log.
final class RawSQLiteFloor {
    private var connection: OpaquePointer?
    private let selectStatement: OpaquePointer
    private let listStatement: OpaquePointer
    private let insertStatement: OpaquePointer
    private let beginStatement: OpaquePointer
    private let commitStatement: OpaquePointer
    private let updateStatement: OpaquePointer
    private let deleteStatement: OpaquePointer

    /// Creates (or replaces) the floor database at `path` holding `size` rows.
    init(path: String, size: Int) throws {
        unlink(path)
        unlink(path + "-wal")
        unlink(path + "-shm")
        var handle: OpaquePointer?
        guard
            sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK,
            let handle
        else {
            sqlite3_close(handle)
            throw BenchmarkFailure("cannot open the SQLite floor at \(path)")
        }
        connection = handle
        for sql in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA secure_delete = ON",
            "CREATE TABLE items (id INTEGER PRIMARY KEY, service BLOB NOT NULL, account BLOB NOT NULL, data BLOB NOT NULL, UNIQUE (service, account))"
        ] {
            try Self.execute(sql, on: handle)
        }
        beginStatement = try Self.prepare("BEGIN IMMEDIATE", on: handle)
        commitStatement = try Self.prepare("COMMIT", on: handle)
        insertStatement = try Self.prepare("INSERT INTO items (service, account, data) VALUES (?, ?, ?)", on: handle)
        selectStatement = try Self.prepare("SELECT data FROM items WHERE service = ? AND account = ?", on: handle)
        updateStatement = try Self.prepare("UPDATE items SET data = ? WHERE service = ? AND account = ?", on: handle)
        deleteStatement = try Self.prepare("DELETE FROM items WHERE service = ? AND account = ?", on: handle)
        listStatement = try Self.prepare("SELECT id, service, account FROM items ORDER BY id", on: handle)
        let payload = Data(repeating: 0x5A, count: 64)
        for start in stride(from: 0, to: size, by: 10_000) {
            try step(beginStatement)
            for index in start..<min(size, start + 10_000) {
                try insertRow(
                    service: Data(SampleKeys.service(index).utf8), account: Data(SampleKeys.account(index).utf8),
                    data: payload)
            }
            try step(commitStatement)
        }
    }

    deinit {
        for statement in [
            selectStatement, listStatement, insertStatement, beginStatement, commitStatement, updateStatement,
            deleteStatement
        ] {
            sqlite3_finalize(statement)
        }
        sqlite3_close(connection)
    }

    /// The data of the row `(service, account)`, copied out of SQLite; nil when there is none.
    func read(service: Data, account: Data) throws -> Data? {
        defer {
            sqlite3_reset(selectStatement)
            sqlite3_clear_bindings(selectStatement)
        }
        try bind(service, at: 1, to: selectStatement)
        try bind(account, at: 2, to: selectStatement)
        switch sqlite3_step(selectStatement) {
        case SQLITE_ROW:
            let count = Int(sqlite3_column_bytes(selectStatement, 0))
            guard let bytes = sqlite3_column_blob(selectStatement, 0) else { return Data() }
            return Data(bytes: bytes, count: count)
        case SQLITE_DONE:
            return nil
        default:
            throw BenchmarkFailure("SQLite floor read failed: \(String(cString: sqlite3_errmsg(connection)))")
        }
    }

    /// Every row's id, service and account, service and account copied out of SQLite, in id
    /// order in one read transaction: the floor of listing every item with its attributes.
    func listAll() throws -> [(id: Int64, service: Data, account: Data)] {
        defer { sqlite3_reset(listStatement) }
        var rows: [(id: Int64, service: Data, account: Data)] = []
        func blob(_ column: Int32) -> Data {
            guard let bytes = sqlite3_column_blob(listStatement, column) else { return Data() }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(listStatement, column)))
        }
        while true {
            switch sqlite3_step(listStatement) {
            case SQLITE_ROW: rows.append((sqlite3_column_int64(listStatement, 0), blob(1), blob(2)))
            case SQLITE_DONE: return rows
            default:
                throw BenchmarkFailure("SQLite floor listing failed: \(String(cString: sqlite3_errmsg(connection)))")
            }
        }
    }

    /// One durable insert: its own `BEGIN IMMEDIATE` … `COMMIT` transaction.
    func insert(service: Data, account: Data, data: Data) throws {
        try step(beginStatement)
        do {
            try insertRow(service: service, account: account, data: data)
        } catch {
            sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
            throw error
        }
        try step(commitStatement)
    }

    /// Inserts rows `(service, accounts[i], data)` in one transaction (set-up, not measured).
    func insertAll(service: Data, accounts: [Data], data: Data) throws {
        try step(beginStatement)
        for account in accounts { try insertRow(service: service, account: account, data: data) }
        try step(commitStatement)
    }

    /// One durable update of the row `(service, account)`'s data: its own transaction.
    func update(service: Data, account: Data, data: Data) throws {
        try changeOneRow(updateStatement, binding: [data, service, account])
    }

    /// One durable delete of the row `(service, account)`: its own transaction (freed space
    /// zeroed, `secure_delete`, as the keychain's; no checkpoint).
    func delete(service: Data, account: Data) throws {
        try changeOneRow(deleteStatement, binding: [service, account])
    }

    /// `BEGIN IMMEDIATE`, `statement` with `values` bound, `COMMIT`; fails unless one row changed.
    private func changeOneRow(_ statement: OpaquePointer, binding values: [Data]) throws {
        try step(beginStatement)
        do {
            defer { sqlite3_clear_bindings(statement) }
            for (index, value) in values.enumerated() { try bind(value, at: Int32(index + 1), to: statement) }
            try step(statement)
            guard sqlite3_changes(connection) == 1 else { throw BenchmarkFailure("the SQLite floor lost a row") }
        } catch {
            sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
            throw error
        }
        try step(commitStatement)
    }

    private func insertRow(service: Data, account: Data, data: Data) throws {
        defer { sqlite3_clear_bindings(insertStatement) }
        try bind(service, at: 1, to: insertStatement)
        try bind(account, at: 2, to: insertStatement)
        try bind(data, at: 3, to: insertStatement)
        try step(insertStatement)
    }

    private func step(_ statement: OpaquePointer) throws {
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw BenchmarkFailure("SQLite floor statement failed: \(String(cString: sqlite3_errmsg(connection)))")
        }
    }

    /// Binds `value` as a blob SQLite copies (the statement outlives the caller's buffer).
    private func bind(_ value: Data, at index: Int32, to statement: OpaquePointer) throws {
        let status = value.withUnsafeBytes { buffer in
            sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), Self.transient)
        }
        guard status == SQLITE_OK else { throw BenchmarkFailure("SQLite floor bind failed: \(status)") }
    }

    /// `SQLITE_TRANSIENT`, which the C macro spells as the destructor `(void *)-1`.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func execute(_ sql: String, on connection: OpaquePointer) throws {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkFailure("SQLite floor: \(sql) failed: \(String(cString: sqlite3_errmsg(connection)))")
        }
    }

    private static func prepare(_ sql: String, on connection: OpaquePointer) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw BenchmarkFailure(
                "SQLite floor: cannot prepare \(sql): \(String(cString: sqlite3_errmsg(connection)))")
        }
        return statement
    }
}
