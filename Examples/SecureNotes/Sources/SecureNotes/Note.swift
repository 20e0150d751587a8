import GRDB
import SecureStorageGRDB

/// A note in version 2's database: the title is plain (it is listed without a PIN), the body
/// is sealed with a key that needs the user. Both are optional while a migration fills them in.
struct Note: Codable, SealedRecord {
    static let databaseTableName = "note"
    static let sealedColumns: [SealedColumn] = [.sealed("body")]

    var id: Int64
    var title: String?
    var body: String?
}
