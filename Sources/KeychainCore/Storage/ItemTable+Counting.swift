import GRDB

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
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM items WHERE length(secret_key) = ?)", arguments: [secretKeyLength]) ?? false
    }

    /// One row per stored (class, accessibility) pair: columns `item_class`, `accessibility` and the count.
    static func countsByClassAndAccessibility(in db: Database) throws -> [Row] {
        try Row.fetchAll(db, sql: "SELECT item_class, accessibility, COUNT(*) FROM items GROUP BY 1, 2")
    }
}
