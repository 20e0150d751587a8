import Foundation
import GRDB

/// The statements over the `items` table and its `item_tags` lookup tags that the engine runs.
/// Each function runs its statement in the caller's transaction; rows come back raw (in
/// ``ItemRow/columns`` order where noted) for the caller to decode and check.
///
/// ``ItemRow`` itself owns the statements that insert and rewrite one row with its tags.
enum ItemTable {}

// MARK: - Reading

extension ItemTable {
    /// A cursor over the decoded rows (``ItemRow/columns``) that `clause` (over ``ItemWhereClause/Source/items``)
    /// selects, in id order, at most `limit` of them.
    static func rows(in db: Database, where clause: ItemWhereClause, limit: Int?) throws -> ItemRowCursor {
        var sql = "SELECT \(ItemRow.columns) FROM items WHERE \(clause.sql) ORDER BY id"
        if let limit { sql += " LIMIT \(limit)" }
        return try ItemRowCursor(statement: try db.cachedStatement(sql: sql), arguments: clause.values)
    }

    /// The (certificate, key) row ids of the identities a certificate clause and a key clause
    /// select, joined on the link index, in id order, at most `limit` pairs.
    static func identityPairs(
        in db: Database, certificates: ItemWhereClause, keys: ItemWhereClause,
        limit: Int?
    ) throws -> [(certificate: Int64, key: Int64)] {
        var sql = """
            SELECT c.id, k.id FROM items c JOIN items k ON k.link_index = c.link_index
            WHERE \(certificates.sql) AND \(keys.sql) ORDER BY c.id, k.id
            """
        if let limit { sql += " LIMIT \(limit)" }
        let arguments = certificates.statementArguments + keys.statementArguments
        let pairs: [(certificate: Int64, key: Int64)] = try Row.fetchAll(
            db.cachedStatement(sql: sql), arguments: arguments
        ).map { ($0[0], $0[1]) }
        return pairs
    }

    /// The row (``ItemRow/columns``) with this row id, if any.
    static func row(in db: Database, id: Int64) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(ItemRow.columns) FROM items WHERE id = ?"), arguments: [id])
    }

    /// The row (columns `id`, `primary_key_index`) SQLite finds for a primary-key index, if any.
    static func row(in db: Database, primaryKeyIndex: Data) throws -> Row? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT id, primary_key_index FROM items WHERE primary_key_index = ?"),
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
        try Row.fetchAll(
            db, sql: "SELECT \(ItemRow.columns) FROM items WHERE accessibility = ?",
            arguments: [accessibility.rawValue])
    }

    /// The rows (``ItemRow/columns``) whose wrapped secret key is `secretKeyLength` bytes long, in id order.
    static func rows(in db: Database, secretKeyLength: Int) throws -> [Row] {
        try Row.fetchAll(
            db, sql: "SELECT \(ItemRow.columns) FROM items WHERE length(secret_key) = ? ORDER BY id",
            arguments: [secretKeyLength])
    }

    /// A cursor over the clear columns `id`, `item_id` and `row_version` of the synchronizable
    /// rows, in id order (no decryption: what synchronization compares before reading a row).
    static func synchronizableStamps(in db: Database) throws -> RowCursor {
        try Row.fetchCursor(
            db,
            sql:
                "SELECT id, item_id, row_version, substr(metadata, -16) || substr(secret, -16) FROM items WHERE synchronizable = 1 ORDER BY id"
        )
    }
}

// MARK: - Counting

extension ItemTable {
    /// How many rows there are.
    static func count(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? 0
    }

    /// The row id after the largest one (1 for an empty table).
    static func nextID(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(MAX(id), 0) + 1 FROM items")) ?? 1
    }

    /// Whether any row's wrapped secret key is `secretKeyLength` bytes long.
    static func containsRow(in db: Database, secretKeyLength: Int) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM items WHERE length(secret_key) = ?)", arguments: [secretKeyLength])
            ?? false
    }

    /// One row per stored (class, accessibility) pair: columns `item_class`, `accessibility` and the count.
    static func countsByClassAndAccessibility(in db: Database) throws -> [Row] {
        try Row.fetchAll(db, sql: "SELECT item_class, accessibility, COUNT(*) FROM items GROUP BY 1, 2")
    }
}

// MARK: - Lookup tags

extension ItemTable {
    /// The lookup tags stored for the row with this id.
    static func tags(in db: Database, ofItem rowID: Int64?) throws -> Set<Data> {
        try Set(
            Data.fetchAll(db.cachedStatement(sql: "SELECT tag FROM item_tags WHERE item_rowid = ?"), arguments: [rowID])
        )
    }

    /// How many lookup tags point to no row.
    static func orphanTagCount(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item_tags WHERE item_rowid NOT IN (SELECT id FROM items)") ?? 0
    }
}

// MARK: - Writing

extension ItemTable {
    /// Deletes the rows with these ids, 500 per statement.
    static func delete(in db: Database, ids: [Int64]) throws {
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ ids[$0..<min($0 + 500, ids.count)] }) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            try db.cachedStatement(sql: "DELETE FROM items WHERE id IN (\(marks))").execute(
                arguments: StatementArguments(Array(chunk)))
        }
    }

    /// Deletes the row with this id.
    static func delete(in db: Database, id: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM items WHERE id = ?").execute(arguments: [id])
    }

    /// Deletes every row whose accessibility column holds `accessibility`.
    static func delete(in db: Database, accessibility: Accessibility) throws {
        try db.execute(sql: "DELETE FROM items WHERE accessibility = ?", arguments: [accessibility.rawValue])
    }

    /// Replaces the wrapped secret key of the row with this id.
    static func setWrappedSecretKey(in db: Database, _ wrappedSecretKey: Data, id: Int64) throws {
        try db.execute(sql: "UPDATE items SET secret_key = ? WHERE id = ?", arguments: [wrappedSecretKey, id])
    }

    /// The two statements of a pass that rewraps every row's keys in chunks, prepared once for the pass.
    struct WrappedKeyRewrite {
        private let select: Statement
        private let update: Statement

        /// Prepares the chunk select, then the wrapped-key update.
        init(_ db: Database) throws {
            select = try db.makeStatement(
                sql: "SELECT \(ItemRow.columns) FROM items WHERE id > ? ORDER BY id LIMIT 1000")
            update = try db.makeStatement(sql: "UPDATE items SET metadata_key = ?, secret_key = ? WHERE id = ?")
        }

        /// The next (up to) 1000 rows (``ItemRow/columns``) after row id `lastID`, in id order.
        func rows(after lastID: Int64) throws -> [Row] {
            try Row.fetchAll(select, arguments: [lastID])
        }

        /// Replaces the wrapped metadata and secret keys of the row with this id.
        func setWrappedKeys(metadata: Data, secret: Data, id: Int64) throws {
            try update.execute(arguments: [metadata, secret, id])
        }
    }
}
