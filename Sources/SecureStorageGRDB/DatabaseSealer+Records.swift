import Foundation
import GRDB

extension DatabaseSealer {
    /// Inserts `record` with its sealed columns sealed, and blind indexes computed.
    ///
    /// The record's `willInsert` and `didInsert` run as with `record.insert(db)`. A record with
    /// a nil `INTEGER PRIMARY KEY` gets the next rowid in the same write (sealed values are bound
    /// to it), and learns it through `didInsert`.
    public func insert<Record: SealedRecord>(_ record: inout Record, _ db: Database) throws {
        try record.willInsert(db)
        var values = try record.databaseDictionary
        let primaryKey = try Self.primaryKey(of: Record.self, db)
        if let rowIDColumn = primaryKey.rowIDColumn, values[rowIDColumn]?.isNull ?? true {
            let next = try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) + 1 FROM \(Record.databaseTableName.quotedDatabaseIdentifier)") ?? 1
            values[rowIDColumn] = next.databaseValue
        }
        var row = SealedRow<Record>(values: try sealed(values, Record.self, primaryKey: primaryKey))
        try row.insert(db)
        if let insertion = row.insertion { record.didInsert(insertion) }
    }

    /// Updates every column of `record` (sealed ones resealed with new nonces).
    /// - Throws: GRDB's `RecordError.recordNotFound` when no row has its primary key.
    public func update<Record: SealedRecord>(_ record: Record, _ db: Database) throws {
        let primaryKey = try Self.primaryKey(of: Record.self, db)
        try SealedRow<Record>(values: try sealed(record.databaseDictionary, Record.self, primaryKey: primaryKey)).update(db)
    }

    /// Every record `request` selects, with sealed columns opened.
    /// - Throws: ``SealedDatabaseError/Code/tamperedValue`` when a sealed value does not open in its row.
    public func fetchAll<Record: SealedRecord>(_ db: Database, _ request: QueryInterfaceRequest<Record>) throws -> [Record] {
        let primaryKey = try Self.primaryKey(of: Record.self, db)
        return try Row.fetchAll(db, request).map { row in try Record(row: opened(row, Record.self, primaryKey: primaryKey)) }
    }

    /// The first record `request` selects, with sealed columns opened.
    public func fetchOne<Record: SealedRecord>(_ db: Database, _ request: QueryInterfaceRequest<Record>) throws -> Record? {
        try fetchAll(db, request.limit(1)).first
    }

    /// The records whose sealed `column` equals `value`, through its blind index.
    ///
    /// ```swift
    /// let ann = try sealer.fetchAll(db, sealer.filter(Contact.self, "email", equals: "Ann@Example.org"))
    /// ```
    /// - Throws: ``SealedDatabaseError/Code/missingValue`` when the column has no blind index.
    public func filter<Record: SealedRecord>(_ type: Record.Type, _ column: String,
                                             equals value: some DatabaseValueConvertible) throws -> QueryInterfaceRequest<Record> {
        guard let sealedColumn = Record.sealedColumns.first(where: { $0.name == column }), let index = sealedColumn.blindIndex else {
            throw SealedDatabaseError(.missingValue, table: Record.databaseTableName, column: column)
        }
        let digest = blindIndex(value.databaseValue, table: Record.databaseTableName, column: column,
                                normalization: sealedColumn.normalization)
        return Record.filter(Column(index) == digest)
    }

    // MARK: - Rows

    private func sealed<Record: SealedRecord>(_ plain: [String: DatabaseValue], _: Record.Type,
                                              primaryKey: PrimaryKeyInfo) throws -> [String: DatabaseValue] {
        var values = plain
        let identity = try Self.identity(values, Record.self, primaryKey: primaryKey)
        for column in Record.sealedColumns {
            let value = values[column.name] ?? .null
            if let index = column.blindIndex {
                values[index] = blindIndex(value, table: Record.databaseTableName, column: column.name, normalization: column.normalization)
            }
            values[column.name] = try seal(value, table: Record.databaseTableName, column: column.name, identity: identity)
        }
        return values
    }

    private func opened<Record: SealedRecord>(_ row: Row, _: Record.Type, primaryKey: PrimaryKeyInfo) throws -> Row {
        var values: [String: DatabaseValue] = [:]
        for (column, value) in row { values[column] = value }
        let identity = try Self.identity(values, Record.self, primaryKey: primaryKey)
        for column in Record.sealedColumns {
            guard let sealed = values[column.name] else { continue }   // not selected
            values[column.name] = try open(sealed, table: Record.databaseTableName, column: column.name, identity: identity)
        }
        return Row(values)
    }

    private static func identity<Record: SealedRecord>(_ values: [String: DatabaseValue], _: Record.Type,
                                                       primaryKey: PrimaryKeyInfo) throws -> [DatabaseValue] {
        try primaryKey.columns.map { column in
            guard let value = values[column], !value.isNull else {
                throw SealedDatabaseError(.missingValue, table: Record.databaseTableName, column: column)
            }
            return value
        }
    }

    /// The table's declared primary key; refuses tables whose rows have no stable identity.
    private static func primaryKey<Record: SealedRecord>(of _: Record.Type, _ db: Database) throws -> PrimaryKeyInfo {
        let table = Record.databaseTableName
        let primaryKey = try db.primaryKey(table)
        let declaration = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]) ?? ""
        guard !(primaryKey.isRowID && primaryKey.rowIDColumn == nil), !declaration.uppercased().contains("AUTOINCREMENT") else {
            throw SealedDatabaseError(.unsupportedTable, table: table)
        }
        return primaryKey
    }
}
