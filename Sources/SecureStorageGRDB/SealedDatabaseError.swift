/// What went wrong with a sealed database. Messages never contain a value.
///
/// Match an error with `catch` on its code (`catch SealedDatabaseError.Code.wrongKey`) or
/// `switch` on ``code``; a later version may add codes, so a `switch` keeps a `default`.
public struct SealedDatabaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure a ``SealedDatabaseError`` is. Later versions may add codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for example `"wrongKey"`.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name.
        public var description: String { rawValue }

        /// The database was sealed with another key.
        public static let wrongKey = Code(rawValue: "wrongKey")
        /// A sealed value does not open in its place: it was changed, or moved from another row,
        /// column, table or database.
        public static let tamperedValue = Code(rawValue: "tamperedValue")
        /// The table cannot hold sealed records: it declares no primary key.
        public static let unsupportedTable = Code(rawValue: "unsupportedTable")
        /// A record lacks a value its sealing needs (a primary key value, a column named in
        /// ``SealedRecord/sealedColumns``, a blind index).
        public static let missingValue = Code(rawValue: "missingValue")
        /// A record's primary key has another type than the column stores (an integer in a TEXT
        /// column, for example): its sealed values would not open once read back.
        public static let primaryKeyType = Code(rawValue: "primaryKeyType")
        /// A row was read and opened, but the record type could not be decoded from it.
        public static let undecodableRecord = Code(rawValue: "undecodableRecord")
        /// A sealing key that is not 256 bits.
        public static let invalidKey = Code(rawValue: "invalidKey")
        /// GRDB's own `insert`, `save`, `update` or `upsert` was called on a ``SealedRecord``:
        /// it would have stored the sealed columns in plaintext.
        public static let unsealedWrite = Code(rawValue: "unsealedWrite")

        /// Matches any error against a code, so that `catch SealedDatabaseError.Code.wrongKey`
        /// works: an error matches when it is a `SealedDatabaseError` with that code, whatever
        /// its table and column.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? SealedDatabaseError)?.code == pattern
        }
    }

    /// The kind of failure.
    public let code: Code
    /// The table concerned.
    public let table: String
    /// The column concerned, when there is one.
    public let column: String?

    /// Creates an error; the factories in `SealedDatabaseError+Messages.swift` name the situations.
    init(_ code: Code, table: String, column: String? = nil) {
        self.code = code
        self.table = table
        self.column = column
    }

    /// What happened and what to do.
    public var description: String { message }
}
