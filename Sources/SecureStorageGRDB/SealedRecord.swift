import GRDB

/// A GRDB record with columns stored sealed: write it with ``DatabaseSealer/insert(_:_:)`` and
/// ``DatabaseSealer/update(_:_:)``, read it with ``DatabaseSealer/fetchAll(_:_:)``. The record
/// itself stays a plain `Codable` type with plaintext properties.
///
/// ```swift
/// struct Note: Codable, SealedRecord {
///     static let sealedColumns: [SealedColumn] = [.sealed("body")]
///     var id: Int64?
///     var title: String
///     var body: String
///     mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
/// }
/// ```
///
/// The table must declare a primary key (each value is bound to it); with `AUTOINCREMENT`, no
/// rowid is ever given twice. Sealed and blind-index columns are BLOBs in the schema. Write the
/// record only through the sealer: GRDB's own `insert`, `save`, `update` and `upsert` would store
/// the plaintext, so they fail with ``SealedDatabaseError/Code/unsealedWrite`` and write nothing
/// (through ``willSave(_:)``; a record type that implements `willSave` itself must call
/// `try refuseUnsealedWrite()` in it to keep that guard).
public protocol SealedRecord: FetchableRecord, MutablePersistableRecord {
    /// The columns stored sealed.
    static var sealedColumns: [SealedColumn] { get }
}

extension SealedRecord {
    /// Refuses GRDB's own persistence methods, which would store the sealed columns in
    /// plaintext (the sealer writes through its own record type and never calls this).
    /// - Throws: ``SealedDatabaseError/Code/unsealedWrite``, always.
    public func willSave(_ db: Database) throws {
        try refuseUnsealedWrite()
    }

    /// Throws ``SealedDatabaseError/Code/unsealedWrite``: call it first in a `willSave` of your own.
    public func refuseUnsealedWrite() throws {
        throw SealedDatabaseError.unsealedWrite(table: Self.databaseTableName)
    }
}
