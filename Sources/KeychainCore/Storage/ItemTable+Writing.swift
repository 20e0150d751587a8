import Foundation
import GRDB

extension ItemTable {
    /// Deletes the rows with these ids, 500 per statement.
    static func delete(in db: Database, ids: [Int64]) throws {
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ ids[$0..<min($0 + 500, ids.count)] }) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            try db.cachedStatement(sql: "DELETE FROM items WHERE id IN (\(marks))").execute(arguments: StatementArguments(Array(chunk)))
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
            select = try db.makeStatement(sql: "SELECT \(ItemRow.columns) FROM items WHERE id > ? ORDER BY id LIMIT 1000")
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
