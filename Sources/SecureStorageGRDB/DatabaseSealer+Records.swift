import Foundation
import GRDB

extension DatabaseSealer {
    /// Inserts `record` with its sealed columns sealed, and blind indexes computed.
    ///
    /// The record's `willInsert` and `didInsert` run as with `record.insert(db)`. A record with
    /// a nil `INTEGER PRIMARY KEY` gets the next rowid in the same write (sealed values are bound
    /// to it), and learns it through `didInsert`: one more than the largest rowid, or than the
    /// largest ever used in an `AUTOINCREMENT` table, which so never reuses the rowid of a
    /// deleted row.
    public func insert<Record: SealedRecord>(_ record: inout Record, _ db: Database) throws {
        try record.willInsert(db)
        var values = try record.databaseDictionary
        let table = try SealedTable(Record.self, db)
        try UnsealedWriteGuard.install(for: table, db)
        if let rowIDColumn = table.primaryKey.rowIDColumn,
            let key = try table.column(rowIDColumn, in: values, required: false),
            values[key]?.isNull ?? true
        {
            values[key] = try table.nextRowID(db).databaseValue
        }
        var row = SealedRow<Record>(values: try sealed(values, table))
        try row.insert(db)
        // A trigger's RAISE(IGNORE) writes nothing and leaves the previous insert's rowid.
        try table.requireStoredIdentity(
            try table.identity(values), writtenRowID: db.changesCount > 0 ? row.insertion?.rowID : nil, db)
        if let insertion = row.insertion { record.didInsert(insertion) }
    }

    /// Updates every column of `record` (sealed ones resealed with new nonces).
    /// - Throws: GRDB's `RecordError.recordNotFound` when no row has its primary key.
    public func update<Record: SealedRecord>(_ record: Record, _ db: Database) throws {
        let table = try SealedTable(Record.self, db)
        try UnsealedWriteGuard.install(for: table, db)
        let values = try record.databaseDictionary
        try SealedRow<Record>(values: try sealed(values, table)).update(db)
        let identity = try table.identity(values)
        try table.requireStoredIdentity(identity, writtenRowID: identity.first.flatMap(Int64.fromDatabaseValue), db)
    }

    /// Every record `request` selects, with sealed columns opened and blind indexes checked.
    /// - Throws: ``SealedDatabaseError/Code/tamperedValue`` when a sealed value does not open in
    ///   its row, or its blind index is not its value's.
    public func fetchAll<Record: SealedRecord>(_ db: Database, _ request: QueryInterfaceRequest<Record>) throws
        -> [Record]
    {
        let table = try SealedTable(Record.self, db)
        let cursor = try Row.fetchCursor(db, request)
        var layout: SealedRowLayout?
        var rows: [[DatabaseValue]] = []
        // A failure of SQLite after some rows comes after those rows' own errors, as when each
        // row was opened as it came.
        var fetchError: (any Error)?
        do {
            while let row = try cursor.next() {
                if layout == nil {
                    layout = SealedRowLayout(columnNames: Array(row.columnNames), table: table, sealer: self)
                }
                rows.append(Array(row.databaseValues))
            }
        } catch {
            fetchError = error
        }
        var records: [Record] = []
        if let layout {
            records.reserveCapacity(rows.count)
            for opened in SealedRowOpening.open(rows, with: layout) {
                let row = layout.row(try opened.get())
                do {
                    records.append(try Record(row: row))
                } catch {
                    // GRDB's decoding errors print the row: never the opened values.
                    throw SealedDatabaseError.undecodableRecord(table: table.name)
                }
            }
        }
        if let fetchError { throw fetchError }
        return records
    }

    /// The first record `request` selects, with sealed columns opened.
    public func fetchOne<Record: SealedRecord>(_ db: Database, _ request: QueryInterfaceRequest<Record>) throws
        -> Record?
    {
        try fetchAll(db, request.limit(1)).first
    }

    /// The records whose sealed `column` equals `value`, through its blind index. The rows
    /// fetched are checked: a row whose index was copied from another row fails as
    /// ``SealedDatabaseError/Code/tamperedValue``.
    ///
    /// ```swift
    /// let ann = try sealer.fetchAll(db, sealer.filter(Contact.self, "email", equals: "Ann@Example.org"))
    /// ```
    /// - Throws: ``SealedDatabaseError/Code/missingValue`` when the column has no blind index.
    public func filter<Record: SealedRecord>(
        _ type: Record.Type, _ column: String,
        equals value: some DatabaseValueConvertible
    ) throws -> QueryInterfaceRequest<Record> {
        guard let sealedColumn = Record.sealedColumns.first(where: { $0.name.lowercased() == column.lowercased() }),
            let index = sealedColumn.blindIndex
        else {
            throw SealedDatabaseError.missingValue(table: Record.databaseTableName, column: column)
        }
        let digest = blindIndex(
            value.databaseValue, table: Record.databaseTableName, column: sealedColumn.name,
            normalization: sealedColumn.normalization)
        return Record.filter(Column(index) == digest)
    }

    // MARK: - Rows

    private func sealed(_ plain: [String: DatabaseValue], _ table: SealedTable) throws -> [String: DatabaseValue] {
        var values = plain
        let identity = try table.identity(values)
        for column in table.sealedColumns {
            // A sealed column the record does not encode would be written as plaintext or lost.
            guard let key = try table.column(column.name, in: values, required: true) else { continue }
            let value = values[key] ?? .null
            if let index = column.blindIndex {
                let indexKey = try table.column(index, in: values, required: false) ?? index
                values[indexKey] = blindIndex(
                    value, table: table.name, column: column.name, normalization: column.normalization)
            }
            values[key] = try seal(value, table: table.name, column: column.name, identity: identity)
        }
        return values
    }
}

/// What sealing needs to know about a record's table: its name as declared, its primary key,
/// its sealed columns. Column names are matched without regard to case, as SQLite does.
struct SealedTable {
    let name: String
    let primaryKey: PrimaryKeyInfo
    let sealedColumns: [SealedColumn]

    /// The table of `Record`: its primary key comes from GRDB's schema cache, so this runs no
    /// query once GRDB knows the table.
    init<Record: SealedRecord>(_: Record.Type, _ db: Database) throws {
        name = Record.databaseTableName
        sealedColumns = Record.sealedColumns
        primaryKey = try db.primaryKey(name)
        guard !(primaryKey.isRowID && primaryKey.rowIDColumn == nil) else {
            throw SealedDatabaseError.unsupportedTable(name)
        }
    }

    /// Whether the table was declared with `AUTOINCREMENT` (SQLite then keeps its largest rowid
    /// ever used in `sqlite_sequence`).
    func usesAutoincrement(_ db: Database) throws -> Bool {
        try db.tableExists("sqlite_sequence")
            && (try Bool.fetchOne(
                db,
                sql:
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE AND sql LIKE '%AUTOINCREMENT%'",
                arguments: [name]) ?? false)
    }

    /// The key of `values` that names `column` (whatever its case); `nil` when there is none,
    /// which is an error when `required`.
    func column(_ column: String, in values: [String: DatabaseValue], required: Bool) throws -> String? {
        let matches = values.keys.filter { Self.sameName($0, column) }
        guard matches.count <= 1 else { throw SealedDatabaseError.tamperedValue(table: name, column: column) }
        if matches.isEmpty && required { throw SealedDatabaseError.missingValue(table: name, column: column) }
        return matches.first
    }

    /// Whether two column names are the same without regard to case, as Foundation's
    /// `caseInsensitiveCompare` says; ASCII names (the usual ones) are compared byte by byte
    /// without Foundation, with the same result.
    static func sameName(_ name: String, _ other: String) -> Bool {
        let (bytes, otherBytes) = (name.utf8, other.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }), otherBytes.allSatisfy({ $0 < 0x80 }) else {
            return name.caseInsensitiveCompare(other) == .orderedSame
        }
        return bytes.count == otherBytes.count
            && zip(bytes, otherBytes).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// The primary key values of a row's `values`, in the key's column order.
    func identity(_ values: [String: DatabaseValue]) throws -> [DatabaseValue] {
        try primaryKey.columns.map { column in
            guard let key = try self.column(column, in: values, required: false), let value = values[key], !value.isNull
            else {
                throw SealedDatabaseError.missingValue(table: name, column: column)
            }
            return value
        }
    }

    /// The rowid for a record without one: never one in use, nor, in an `AUTOINCREMENT` table,
    /// one used before.
    func nextRowID(_ db: Database) throws -> Int64 {
        let largest =
            try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM \(name.quotedDatabaseIdentifier)") ?? 0
        let used =
            try usesAutoincrement(db)
            ? try Int64.fetchOne(
                db, sql: "SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = ? COLLATE NOCASE",
                arguments: [name]) ?? 0
            : 0
        return max(largest, used) + 1
    }

    /// Checks that the primary key is stored with the types it was sealed with: SQLite converts
    /// values to a column's affinity (an integer into a TEXT key becomes text), and the sealed
    /// values would then never open.
    ///
    /// An integer written to an `INTEGER PRIMARY KEY` (the rowid) is stored as that integer: no
    /// query then, when `writtenRowID` (the rowid SQLite reports for an insert; for an update,
    /// which GRDB confirmed changed the row of that key, the key itself) is that integer.
    func requireStoredIdentity(_ identity: [DatabaseValue], writtenRowID: Int64?, _ db: Database) throws {
        if primaryKey.rowIDColumn != nil, identity.count == 1, case .int64(let key) = identity[0].storage,
            writtenRowID == key
        {
            return
        }
        let condition = primaryKey.columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        let selection = primaryKey.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        guard
            let stored = try Row.fetchOne(
                db, sql: "SELECT \(selection) FROM \(name.quotedDatabaseIdentifier) WHERE \(condition)",
                arguments: StatementArguments(identity))
        else {
            throw SealedDatabaseError.primaryKeyType(table: name)
        }
        for (index, value) in identity.enumerated()
        where stored.databaseValues[stored.databaseValues.index(stored.databaseValues.startIndex, offsetBy: index)]
            .storage != value.storage
        {
            throw SealedDatabaseError.primaryKeyType(table: name, column: primaryKey.columns[index])
        }
    }
}
