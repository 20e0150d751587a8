import Foundation
import GRDB

/// One row of the `items` table.
struct ItemRow: Sendable {
    var rowID: Int64?
    var itemID: UUID
    var itemClass: ItemClass
    var accessibility: Accessibility
    var synchronizable: Bool
    var indexes: ItemIndexes
    var rowVersion: Int64
    var sealed: SealedItem

    /// The columns ``init(row:)`` reads, in this order (it reads by position: a name lookup is
    /// case-insensitive and costs more than the rest of decoding a row).
    static let columns = "id, item_id, item_class, accessibility, synchronizable, group_index, service_index, account_index, server_index, link_index, primary_key_index, row_version, metadata_key, metadata, secret_key, secret"

    init(rowID: Int64?, itemID: UUID, itemClass: ItemClass, accessibility: Accessibility, synchronizable: Bool,
         indexes: ItemIndexes, rowVersion: Int64, sealed: SealedItem) {
        self.rowID = rowID
        self.itemID = itemID
        self.itemClass = itemClass
        self.accessibility = accessibility
        self.synchronizable = synchronizable
        self.indexes = indexes
        self.rowVersion = rowVersion
        self.sealed = sealed
    }

    /// Reads a row selected with ``columns``, refusing values no code of ours writes (they mean
    /// the file was edited): a wrong type or a NULL is an integrity error, never a crash.
    init(row: Row) throws {
        func column<Value: DatabaseValueConvertible>(_ index: Int, _ name: String) throws -> Value {
            try row.checked(index, name, in: "items")
        }
        guard row.count == 16 else { throw KeychainError.tampered("an item row has \(row.count) columns, not 16") }
        guard let itemID = UUID(bytes: try column(1, "item_id")) else {
            throw KeychainError.tampered("an item row has no valid item id")
        }
        guard let itemClass = ItemClass(rawValue: try column(2, "item_class")), itemClass.isStored else {
            throw KeychainError.tampered("an item row names an unknown class")
        }
        guard let accessibility = Accessibility(rawValue: try column(3, "accessibility")) else {
            throw KeychainError.tampered("an item row names an unknown accessibility")
        }
        self.init(
            rowID: try column(0, "id"), itemID: itemID, itemClass: itemClass, accessibility: accessibility,
            synchronizable: try column(4, "synchronizable"),
            indexes: ItemIndexes(group: try column(5, "group_index"), service: try column(6, "service_index"),
                                 account: try column(7, "account_index"), server: try column(8, "server_index"),
                                 identityLink: try column(9, "link_index"), primaryKey: try column(10, "primary_key_index"),
                                 tags: []),
            rowVersion: try column(11, "row_version"),
            sealed: SealedItem(wrappedMetadataKey: try column(12, "metadata_key"), metadata: try column(13, "metadata"),
                               wrappedSecretKey: try column(14, "secret_key"), secret: try column(15, "secret")))
    }

    func binding(vaultID: UUID) -> ItemBinding {
        ItemBinding(vaultID: vaultID, itemID: itemID, itemClass: itemClass, accessibility: accessibility,
                    primaryKeyIndex: indexes.primaryKey, rowVersion: rowVersion)
    }

    var persistentReference: PersistentReference { PersistentReference(itemClass: itemClass, uuid: itemID) }

    private var columnValues: [(any DatabaseValueConvertible)?] {
        [itemID.bytes, itemClass.rawValue, accessibility.rawValue, synchronizable, indexes.group,
         indexes.service, indexes.account, indexes.server, indexes.identityLink, indexes.primaryKey,
         rowVersion, sealed.wrappedMetadataKey, sealed.metadata, sealed.wrappedSecretKey, sealed.secret]
    }

    /// The row's values as SQLite stores them, in ``columns`` order: what the state digest
    /// fingerprints, known to a writer without reading the row back.
    func storedValues(rowID: Int64) -> [DatabaseValue] {
        [rowID.databaseValue] + columnValues.map { $0?.databaseValue ?? .null }
    }

    /// Inserts the row under `rowID` with its tags and its seal.
    func insert(rowID: Int64, seal: Data, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO items (id, item_id, item_class, accessibility, synchronizable, group_index, service_index,
              account_index, server_index, link_index, primary_key_index, row_version, metadata_key, metadata,
              secret_key, secret, row_seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: StatementArguments([rowID] + columnValues + [seal]))
        try Self.insertTags(indexes.tags, rowID: rowID, db)
    }

    /// Rewrites the row in place (keeping its row id, so insertion order is stable), its tags and its seal.
    func update(seal: Data, _ db: Database) throws {
        guard let rowID else { return }
        try db.cachedStatement(sql: """
            UPDATE items SET item_id = ?, item_class = ?, accessibility = ?, synchronizable = ?, group_index = ?,
              service_index = ?, account_index = ?, server_index = ?, link_index = ?, primary_key_index = ?,
              row_version = ?, metadata_key = ?, metadata = ?, secret_key = ?, secret = ?, row_seal = ? WHERE id = ?
            """).execute(arguments: StatementArguments(columnValues + [seal, rowID]))
        try db.cachedStatement(sql: "DELETE FROM item_tags WHERE item_rowid = ?").execute(arguments: [rowID])
        try Self.insertTags(indexes.tags, rowID: rowID, db)
    }

    private static func insertTags(_ tags: Set<Data>, rowID: Int64, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO item_tags (tag, item_rowid) VALUES (?, ?)")
        for tag in tags { try statement.execute(arguments: [tag, rowID]) }
    }
}

/// The blind indexes of one item: dedicated columns for the common lookups, and a tag for every
/// other attribute so any exact-match filter runs in SQL without decrypting.
struct ItemIndexes: Sendable {
    var group: Data
    var service: Data?
    var account: Data?
    var server: Data?
    var identityLink: Data?
    var primaryKey: Data
    var tags: Set<Data>

    /// Attributes with a column of their own (not stored as tags).
    static let columnAttributes: [AttributeKey: String] = [
        .accessGroup: "group_index", .service: "service_index", .account: "account_index", .server: "server_index",
    ]
    /// The stored index of an attribute that has a column of its own (``columnAttributes``).
    func column(for key: AttributeKey) -> Data? {
        switch key {
        case .accessGroup: group
        case .service: service
        case .account: account
        case .server: server
        default: nil
        }
    }

    /// Attributes stored in clear columns.
    static let clearAttributes: [AttributeKey: String] = [.accessible: "accessibility", .synchronizable: "synchronizable"]
    /// Attributes the keychain sets itself and queries rarely name: dates and the digest are
    /// unique per item, so a tag for each would cost a random B-tree insert on every write (about
    /// a third of a durable add); `musr` and `tomb` are the same on every item. Filters on them
    /// are applied to the decrypted attributes of the rows the other filters select (format 3).
    static let untaggedAttributes: Set<AttributeKey> = [.creationDate, .modificationDate, .sha1, .multiUser, .tombstone]

    /// Attributes the keychain keeps for itself (never returned, never queried): the public key
    /// of a key generated inside the keychain, and how a protected item's data was sealed.
    static let internalAttributes: Set<AttributeKey> = [TokenKeys.publicKeyAttribute, SecretBinding.attribute]

    init(group: Data, service: Data?, account: Data?, server: Data?, identityLink: Data?, primaryKey: Data, tags: Set<Data>) {
        self.group = group
        self.service = service
        self.account = account
        self.server = server
        self.identityLink = identityLink
        self.primaryKey = primaryKey
        self.tags = tags
    }

    /// Computes every index of an item from its complete, coerced attributes.
    init(itemClass: ItemClass, attributes: [AttributeKey: AttributeValue], indexer: BlindIndexer) {
        func column(_ key: AttributeKey) -> Data? { attributes[key].map { indexer.attribute(key, $0) } }
        group = column(.accessGroup) ?? indexer.accessGroup("")
        service = column(.service)
        account = column(.account)
        server = column(.server)
        primaryKey = indexer.primaryKey(of: itemClass, attributes: attributes)
        switch itemClass {
        case .certificate:
            identityLink = attributes[.publicKeyHash]?.dataValue.flatMap { $0.isEmpty ? nil : indexer.identityLink($0) }
        case .key where attributes[.keyClass]?.numberValue == 1:
            identityLink = attributes[.applicationLabel]?.dataValue.flatMap { $0.isEmpty ? nil : indexer.identityLink($0) }
        default:
            identityLink = nil
        }
        tags = Set(attributes.compactMap { key, value in
            Self.columnAttributes[key] == nil && Self.clearAttributes[key] == nil && !Self.untaggedAttributes.contains(key)
                && !Self.internalAttributes.contains(key)
                ? indexer.attribute(key, value) : nil
        })
    }

    /// The tags keychains of format 2 also wrote for ``untaggedAttributes``; items written before
    /// the upgrade keep them until they are next rewritten.
    static func legacyTags(attributes: [AttributeKey: AttributeValue], indexer: BlindIndexer) -> Set<Data> {
        Set(attributes.compactMap { untaggedAttributes.contains($0.key) ? indexer.attribute($0.key, $0.value) : nil })
    }
}
