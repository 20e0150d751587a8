// Every situation a SealedDatabaseError reports, and its wording, in one place. Messages name
// tables and columns, never a value.

extension SealedDatabaseError {
    // MARK: - Keys

    /// The database was sealed with another key than the one loaded; `table` is the metadata
    /// table that records the key ID.
    package static func wrongKey(table: String) -> SealedDatabaseError {
        SealedDatabaseError(.wrongKey, table: table)
    }

    /// A sealing key that is not 256 bits; `table` is the metadata table.
    package static func invalidKey(table: String) -> SealedDatabaseError {
        SealedDatabaseError(.invalidKey, table: table)
    }

    // MARK: - Values

    /// A sealed value in `table` (`column`) does not open in its row, or appears where it must not.
    package static func tamperedValue(table: String, column: String) -> SealedDatabaseError {
        SealedDatabaseError(.tamperedValue, table: table, column: column)
    }

    /// A record of `table` lacks a value its sealing needs (in `column`).
    package static func missingValue(table: String, column: String) -> SealedDatabaseError {
        SealedDatabaseError(.missingValue, table: table, column: column)
    }

    /// A row of `table` opened, but the record type cannot be decoded from it.
    package static func undecodableRecord(table: String) -> SealedDatabaseError {
        SealedDatabaseError(.undecodableRecord, table: table)
    }

    // MARK: - Tables and records

    /// `table` declares no primary key, so it cannot hold sealed records.
    package static func unsupportedTable(_ table: String) -> SealedDatabaseError {
        SealedDatabaseError(.unsupportedTable, table: table)
    }

    /// A record's primary key (in `column`, when known) has another type than `table` stores.
    package static func primaryKeyType(table: String, column: String? = nil) -> SealedDatabaseError {
        SealedDatabaseError(.primaryKeyType, table: table, column: column)
    }

    /// A sealed record of `table` was written with GRDB's own persistence methods.
    package static func unsealedWrite(table: String) -> SealedDatabaseError {
        SealedDatabaseError(.unsealedWrite, table: table)
    }

    // MARK: - Wording

    /// What happened and what to do, for ``description``. A code this version does not know
    /// (made with ``Code/init(rawValue:)``) gets a general account naming the code and place.
    var message: String {
        let place = column.map { "\(table).\($0)" } ?? table
        switch code {
        case .wrongKey:
            return
                "The database \(table) was sealed with another key. Load the key it was created with (its key ID is stored in secure_storage_sealing); nothing was read or written."
        case .tamperedValue:
            return
                "A sealed value in \(place) does not open in its row: it was modified, or copied from another row, column or database. It was not returned; restore the row from a backup or write it again."
        case .unsupportedTable:
            return
                "The table \(table) cannot hold sealed records: it needs a declared primary key (INTEGER PRIMARY KEY, with AUTOINCREMENT to never reuse a rowid)."
        case .missingValue:
            return
                "A record of \(place) has no value where sealing needs one (a primary key, a column named in sealedColumns, or a blind index column to search). Nothing was written."
        case .primaryKeyType:
            return
                "The primary key of a record of \(place) has another type than the column stores it as. Give the property the column's type (for example String for a TEXT key). Nothing was written."
        case .undecodableRecord:
            return
                "A row of \(place) opened, but the record type cannot be decoded from it (a column of an unexpected type). Its values are not shown here; check the schema against the record type."
        case .invalidKey:
            return "A database sealing key must have 256 bits."
        case .unsealedWrite:
            return
                "A sealed record of \(table) was written with GRDB's own insert, save, update or upsert, which would store its sealed columns in plaintext. Nothing was written; write it with DatabaseSealer.insert(_:_:) or update(_:_:)."
        default:
            return
                "The sealed database failed at \(place) (\(code)). Update SecureStorage to get this error's full account."
        }
    }
}
