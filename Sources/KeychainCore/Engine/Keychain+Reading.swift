import Foundation
import GRDB

/// Shared by find, update and delete: selecting matching rows and decrypting them.
extension Keychain {
    /// One stored item, decrypted.
    struct OpenedItem {
        var row: ItemRow
        var attributes: [AttributeKey: AttributeValue]
        var data: Data?

        /// The item's access-control policy, if it has one.
        var accessPolicy: AccessPolicy? { attributes[.accessControl]?.dataValue.flatMap(AccessPolicy.init(encoded:)) }

        /// Whether the item is a private key generated inside the keychain, whose data never leaves it.
        var isTokenKey: Bool { TokenKeys.isTokenKey(row.itemClass, attributes) }
    }

    /// The rows of stored items a query matches, in insertion order.
    func matchingRows(_ query: ResolvedQuery, limit: Int?, _ db: Database) throws -> [ItemRow] {
        var filter = query.filter(table: "items", itemClass: query.itemClass, attributes: query.attributes, indexer: keys.indexer)
        if filter.matchesNothing { return [] }
        if let reference = query.persistentReference {
            switch reference.target {
            case .uuid(let uuid): filter.add("items.item_id = ?", uuid.bytes)
            case .rowID(let rowID): filter.add("items.id = ?", rowID)
            }
        }
        var sql = "SELECT \(ItemRow.columns) FROM items WHERE \(filter.sql) ORDER BY id"
        if let limit, filter.residual.isEmpty { sql += " LIMIT \(limit)" }
        guard !filter.residual.isEmpty else {
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: filter.statementArguments).map(ItemRow.init(row:))
        }
        // Residual filters need the decrypted attributes: rows are opened one at a time and the
        // scan stops at the limit. A row whose class is locked cannot be ruled out, so the call
        // fails as a find over a locked item does (interactionNotAllowed), even for a delete.
        var matches: [ItemRow] = []
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: filter.statementArguments)
        while let raw = try cursor.next(), matches.count < limit ?? .max {
            let row = try ItemRow(row: raw)
            if try filter.residualMatches(open(row, includingData: false).attributes, indexer: keys.indexer) { matches.append(row) }
        }
        return matches
    }

    /// The (certificate row id, private key row id) pairs of the identities a query matches.
    func matchingIdentities(_ query: ResolvedQuery, limit: Int?, _ db: Database) throws -> [(certificate: Int64, key: Int64)] {
        let split = query.identitySplit
        var certificate = query.filter(table: "c", itemClass: .certificate, attributes: split.certificate, indexer: keys.indexer)
        let key = query.filter(table: "k", itemClass: .key, attributes: split.key, indexer: keys.indexer)
        if certificate.matchesNothing { return [] }
        if let reference = query.persistentReference {
            switch reference.target {
            case .uuid(let uuid): certificate.add("c.item_id = ?", uuid.bytes)
            case .rowID(let rowID): certificate.add("c.id = ?", rowID)
            }
        }
        var sql = """
            SELECT c.id, k.id FROM items c JOIN items k ON k.link_index = c.link_index
            WHERE \(certificate.sql) AND \(key.sql) ORDER BY c.id, k.id
            """
        let residual = !certificate.residual.isEmpty || !key.residual.isEmpty
        if let limit, !residual { sql += " LIMIT \(limit)" }
        let arguments = certificate.statementArguments + key.statementArguments
        let pairs: [(certificate: Int64, key: Int64)] = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { ($0[0], $0[1]) }
        guard residual else { return pairs }
        var matches: [(certificate: Int64, key: Int64)] = []
        for pair in pairs where matches.count < limit ?? .max {
            func passes(_ filter: ItemFilter, _ id: Int64) throws -> Bool {
                try filter.residual.isEmpty || filter.residualMatches(open(row(id: id, db), includingData: false).attributes, indexer: keys.indexer)
            }
            if try passes(certificate, pair.certificate), try passes(key, pair.key) { matches.append(pair) }
        }
        return matches
    }

    func row(id: Int64, _ db: Database) throws -> ItemRow {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(ItemRow.columns) FROM items WHERE id = ?"), arguments: [id]) else {
            throw KeychainError.itemNotFound()
        }
        return try ItemRow(row: row)
    }

    /// Decrypts a row's attributes (always, which also verifies the row) and, if asked, its data.
    /// - Throws: `.interactionNotAllowed` / `.authFailed` when its class is unavailable,
    ///   `.integrityViolation` when the row was tampered with.
    func open(_ row: ItemRow, includingData: Bool) throws(KeychainError) -> OpenedItem {
        let classKeys = try keys.classKeys(for: row.accessibility)
        let binding = row.binding(vaultID: keys.header.vaultID)
        let metadata = try ItemCipher.openMetadata(row.sealed, binding: binding, keys: classKeys)
        guard let attributes = AttributeCodec.decode(metadata),
              attributes[.accessible]?.stringValue == row.accessibility.rawValue,
              attributes[.synchronizable]?.numberValue == (row.synchronizable ? 1 : 0) else {
            throw .tampered("the attributes of a \(row.itemClass.rawValue) item disagree with its row")
        }
        let data = includingData ? try ItemCipher.openSecret(row.sealed, binding: binding, keys: classKeys) : nil
        return OpenedItem(row: row, attributes: attributes, data: data)
    }

    /// Decrypts the data of an item whose attributes were opened without it.
    func openData(of item: inout OpenedItem) throws(KeychainError) {
        let row = item.row
        item.data = try ItemCipher.openSecret(row.sealed, binding: row.binding(vaultID: keys.header.vaultID), keys: keys.classKeys(for: row.accessibility))
    }

    /// The public result for an opened item.
    func result(_ item: OpenedItem, returning options: ReturnOptions) -> FoundItem {
        FoundItem(itemClass: item.row.itemClass, persistentReference: item.row.persistentReference,
                  attributes: Self.returnedAttributes(item.attributes, options: options),
                  data: options.contains(.data) ? (item.data ?? Data()) : nil)
    }

    /// Attributes that reveal or derive from secret data, returned only when data is asked for
    /// too: the data's SHA-1 and the internet-password extra secret blobs (§1.2).
    static let secretDerivedAttributes: Set<AttributeKey> = ["sha1", "binn", "bini", "bin0", "bin1", "bin2", "bin3"]

    /// Attributes as Apple returns them: ``secretDerivedAttributes`` only together with data (§4.5).
    static func returnedAttributes(_ attributes: [AttributeKey: AttributeValue], options: ReturnOptions) -> [AttributeKey: AttributeValue] {
        guard options.contains(.attributes) else { return [:] }
        return options.contains(.data) ? attributes : attributes.filter { !secretDerivedAttributes.contains($0.key) }
    }
}
