import Foundation

/// A statement parameter for the sync server, sent in PostgreSQL's binary format.
enum PostgresValue: Sendable {
    /// `bytea`.
    case bytes(Data)
    /// `int8`.
    case int64(Int64)
    /// `text`.
    case text(String)
    /// `uuid`.
    case uuid(UUID)

    /// The type's OID (pg_type).
    var typeOID: UInt32 {
        switch self {
        case .bytes: 17
        case .int64: 20
        case .text: 25
        case .uuid: 2950
        }
    }

    /// The value in PostgreSQL's binary wire format.
    var binary: [UInt8] {
        switch self {
        case .bytes(let data): Array(data)
        case .int64(let value): withUnsafeBytes(of: value.bigEndian) { Array($0) }
        case .text(let text): Array(text.utf8)
        case .uuid(let uuid): withUnsafeBytes(of: uuid.uuid) { Array($0) }
        }
    }
}

/// The rows a statement returned, every column in binary format.
struct PostgresRows: Sendable {
    /// Each row's columns; `nil` for SQL NULL.
    var rows: [[Data?]]

    /// How many rows.
    var count: Int { rows.count }

    /// Column `column` of row `row` as bytes.
    func bytes(_ row: Int, _ column: Int) throws(SyncError) -> Data {
        guard rows.indices.contains(row), rows[row].indices.contains(column), let value = rows[row][column] else {
            throw Self.malformed
        }
        return value
    }

    /// Column `column` of row `row`, `nil` for SQL NULL.
    func optionalBytes(_ row: Int, _ column: Int) throws(SyncError) -> Data? {
        guard rows.indices.contains(row), rows[row].indices.contains(column) else { throw Self.malformed }
        return rows[row][column]
    }

    /// Column `column` of row `row` as a 64-bit integer (int8).
    func int64(_ row: Int, _ column: Int) throws(SyncError) -> Int64 {
        let value = try bytes(row, column)
        guard value.count == 8 else { throw Self.malformed }
        return Int64(bitPattern: value.reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// Column `column` of row `row` as text.
    func text(_ row: Int, _ column: Int) throws(SyncError) -> String {
        guard let text = String(data: try bytes(row, column), encoding: .utf8) else { throw Self.malformed }
        return text
    }

    private static var malformed: SyncError { .tampered("a value of the wrong type or size") }
}
