import GRDB

/// The database form of a sealed record: its columns with the sealed ones replaced, written
/// through GRDB's own insert and update so that conflict handling and statements are GRDB's.
struct SealedRow<Record: SealedRecord>: MutablePersistableRecord {
    static var databaseTableName: String { Record.databaseTableName }

    var values: [String: DatabaseValue]
    /// What the insert reported, handed on to the record's `didInsert`.
    var insertion: InsertionSuccess?

    init(values: [String: DatabaseValue]) { self.values = values }

    func encode(to container: inout PersistenceContainer) {
        for (column, value) in values { container[column] = value }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { insertion = inserted }
}
