import Foundation
import GRDB

extension ItemTable {
    /// A cursor over the decoded rows (``ItemRow/columns``) that `clause` (over ``ItemWhereClause/Source/items``)
    /// selects, in id order, at most `limit` of them.
    static func rows(in db: Database, where clause: ItemWhereClause, limit: Int?) throws -> ItemRowCursor {
        var sql = "SELECT \(ItemRow.columns) FROM items WHERE \(clause.sql) ORDER BY id"
        if let limit { sql += " LIMIT \(limit)" }
        return ItemRowCursor(statement: try db.cachedStatement(sql: sql), arguments: clause.statementArguments)
    }

    /// The (certificate, key) row ids of the identities a certificate clause and a key clause
    /// select, joined on the link index, in id order, at most `limit` pairs.
    static func identityPairs(in db: Database, certificates: ItemWhereClause, keys: ItemWhereClause,
                              limit: Int?) throws -> [(certificate: Int64, key: Int64)] {
        var sql = """
            SELECT c.id, k.id FROM items c JOIN items k ON k.link_index = c.link_index
            WHERE \(certificates.sql) AND \(keys.sql) ORDER BY c.id, k.id
            """
        if let limit { sql += " LIMIT \(limit)" }
        let arguments = certificates.statementArguments + keys.statementArguments
        let pairs: [(certificate: Int64, key: Int64)] = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { ($0[0], $0[1]) }
        return pairs
    }

    /// The row (``ItemRow/columns``) with this row id, if any.
    static func row(in db: Database, id: Int64) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(ItemRow.columns) FROM items WHERE id = ?"), arguments: [id])
    }

    /// The row (columns `id`, `primary_key_index`) SQLite finds for a primary-key index, if any.
    static func row(in db: Database, primaryKeyIndex: Data) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, primary_key_index FROM items WHERE primary_key_index = ?"),
                         arguments: [primaryKeyIndex])
    }

    /// Every row (``ItemRow/columns``), in id order.
    static func allRows(in db: Database) throws -> [Row] {
        try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id")
    }

    /// A cursor over every row (``ItemRow/columns``), in id order.
    static func cursorOverAllRows(in db: Database) throws -> RowCursor {
        try Row.fetchCursor(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id")
    }

    /// The rows (``ItemRow/columns``) whose accessibility column holds `accessibility`.
    static func rows(in db: Database, accessibility: Accessibility) throws -> [Row] {
        try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items WHERE accessibility = ?",
                         arguments: [accessibility.rawValue])
    }

    /// The rows (``ItemRow/columns``) whose wrapped secret key is `secretKeyLength` bytes long, in id order.
    static func rows(in db: Database, secretKeyLength: Int) throws -> [Row] {
        try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items WHERE length(secret_key) = ? ORDER BY id",
                         arguments: [secretKeyLength])
    }
}
