/// A column of a ``SealedRecord`` whose values are stored encrypted.
///
/// ```swift
/// static let sealedColumns: [SealedColumn] = [
///     .sealed("body"),
///     .sealed("email", blindIndex: "email_index", normalization: .caseInsensitive),
/// ]
/// ```
public struct SealedColumn: Sendable, Hashable {
    /// How a value is prepared before its blind index is computed, so that values a caller
    /// considers equal find each other.
    public enum Normalization: Sendable, Hashable {
        /// The value as stored: `"Ann@x.org"` and `"ann@x.org"` differ.
        case exact
        /// Text lowercased and trimmed of surrounding white space: for e-mail addresses and user names.
        case caseInsensitive
    }

    /// The column holding the sealed value (a BLOB in the schema).
    public let name: String
    /// The column holding the value's blind index (a BLOB, usually indexed), or `nil` when the
    /// column is never searched.
    public let blindIndex: String?
    /// How values are normalized for the blind index.
    public let normalization: Normalization

    /// A sealed column; with `blindIndex`, also an exact-match index kept in that column.
    public static func sealed(_ name: String, blindIndex: String? = nil, normalization: Normalization = .exact)
        -> SealedColumn
    {
        SealedColumn(name: name, blindIndex: blindIndex, normalization: normalization)
    }
}
