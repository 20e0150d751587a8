import Foundation
import GRDB

extension ItemTable {
    /// The lookup tags stored for the row with this id.
    static func tags(in db: Database, ofItem rowID: Int64?) throws -> Set<Data> {
        try Set(Data.fetchAll(db.cachedStatement(sql: "SELECT tag FROM item_tags WHERE item_rowid = ?"), arguments: [rowID]))
    }

    /// How many lookup tags point to no row.
    static func orphanTagCount(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item_tags WHERE item_rowid NOT IN (SELECT id FROM items)") ?? 0
    }
}
