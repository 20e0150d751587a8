/// What went wrong with a sealed database. Messages never contain a value.
public struct SealedDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// The database was sealed with another key.
        case wrongKey
        /// A sealed value does not open in its place: it was changed, or moved from another row,
        /// column, table or database.
        case tamperedValue
        /// The table cannot hold sealed records: it declares no primary key.
        case unsupportedTable
        /// A record lacks a value its sealing needs (a primary key value, a column named in
        /// ``SealedRecord/sealedColumns``, a blind index).
        case missingValue
        /// A record's primary key has another type than the column stores (an integer in a TEXT
        /// column, for example): its sealed values would not open once read back.
        case primaryKeyType
        /// A row was read and opened, but the record type could not be decoded from it.
        case undecodableRecord
        /// A sealing key that is not 256 bits.
        case invalidKey
        /// GRDB's own `insert`, `save`, `update` or `upsert` was called on a ``SealedRecord``:
        /// it would have stored the sealed columns in plaintext.
        case unsealedWrite
    }

    /// The kind of failure.
    public let code: Code
    /// The table concerned.
    public let table: String
    /// The column concerned, when there is one.
    public let column: String?

    init(_ code: Code, table: String, column: String? = nil) {
        self.code = code
        self.table = table
        self.column = column
    }

    /// What happened and what to do.
    public var description: String {
        let place = column.map { "\(table).\($0)" } ?? table
        switch code {
        case .wrongKey:
            return "The database \(table) was sealed with another key. Load the key it was created with (its key ID is stored in secure_storage_sealing); nothing was read or written."
        case .tamperedValue:
            return "A sealed value in \(place) does not open in its row: it was modified, or copied from another row, column or database. It was not returned; restore the row from a backup or write it again."
        case .unsupportedTable:
            return "The table \(table) cannot hold sealed records: it needs a declared primary key (INTEGER PRIMARY KEY, with AUTOINCREMENT to never reuse a rowid)."
        case .missingValue:
            return "A record of \(place) has no value where sealing needs one (a primary key, a column named in sealedColumns, or a blind index column to search). Nothing was written."
        case .primaryKeyType:
            return "The primary key of a record of \(place) has another type than the column stores it as. Give the property the column's type (for example String for a TEXT key). Nothing was written."
        case .undecodableRecord:
            return "A row of \(place) opened, but the record type cannot be decoded from it (a column of an unexpected type). Its values are not shown here; check the schema against the record type."
        case .invalidKey:
            return "A database sealing key must have 256 bits."
        case .unsealedWrite:
            return "A sealed record of \(table) was written with GRDB's own insert, save, update or upsert, which would store its sealed columns in plaintext. Nothing was written; write it with DatabaseSealer.insert(_:_:) or update(_:_:)."
        }
    }
}
