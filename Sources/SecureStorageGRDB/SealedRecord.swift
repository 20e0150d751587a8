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
/// record only through the sealer: GRDB's own `insert`, `save` and `update` would store the
/// plaintext.
public protocol SealedRecord: FetchableRecord, MutablePersistableRecord {
    /// The columns stored sealed.
    static var sealedColumns: [SealedColumn] { get }
}
