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
    static let columns =
        "id, item_id, item_class, accessibility, synchronizable, group_index, service_index, account_index, server_index, link_index, primary_key_index, row_version, metadata_key, metadata, secret_key, secret"

    init(
        rowID: Int64?, itemID: UUID, itemClass: ItemClass, accessibility: Accessibility, synchronizable: Bool,
        indexes: ItemIndexes, rowVersion: Int64, sealed: SealedItem
    ) {
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
    init(row: some StoredColumns) throws {
        func required<Value>(_ value: Value?, _ name: String) throws -> Value {
            guard let value else { throw KeychainError.tamperedItemColumnType(name: name) }
            return value
        }
        /// A lookup column that is NULL when the item has no such attribute.
        func optionalBlob(_ index: Int, _ name: String) throws -> Data? {
            row.isNull(index) ? nil : try required(row.blob(index), name)
        }
        guard row.columnCount == 16 else {
            throw KeychainError.tamperedItemRowColumnCount(columnCount: row.columnCount)
        }
        guard let itemID = UUID(bytes: try required(row.blob(1), "item_id")) else {
            throw KeychainError.tamperedItemRowWithoutItemID()
        }
        guard let itemClass = ItemClass(rawValue: try required(row.text(2), "item_class")), itemClass.isStored else {
            throw KeychainError.tamperedItemRowClass()
        }
        guard let accessibility = Accessibility(rawValue: try required(row.text(3), "accessibility")) else {
            throw KeychainError.tamperedItemRowAccessibility()
        }
        let synchronizable = try required(row.integer(4), "synchronizable")
        guard synchronizable == 0 || synchronizable == 1 else { throw KeychainError.tamperedItemRowSynchronizable() }
        self.init(
            rowID: try required(row.integer(0), "id"), itemID: itemID, itemClass: itemClass,
            accessibility: accessibility,
            synchronizable: synchronizable == 1,
            indexes: ItemIndexes(
                group: try required(row.blob(5), "group_index"), service: try optionalBlob(6, "service_index"),
                account: try optionalBlob(7, "account_index"), server: try optionalBlob(8, "server_index"),
                identityLink: try optionalBlob(9, "link_index"),
                primaryKey: try required(row.blob(10), "primary_key_index"),
                tags: []),
            rowVersion: try required(row.integer(11), "row_version"),
            sealed: SealedItem(
                wrappedMetadataKey: try required(row.blob(12), "metadata_key"),
                metadata: try required(row.blob(13), "metadata"),
                wrappedSecretKey: try required(row.blob(14), "secret_key"), secret: try required(row.blob(15), "secret")
            ))
    }

    func binding(vaultID: UUID) -> ItemBinding {
        ItemBinding(
            vaultID: vaultID, itemID: itemID, itemClass: itemClass, accessibility: accessibility,
            primaryKeyIndex: indexes.primaryKey, rowVersion: rowVersion)
    }

    var persistentReference: PersistentReference { PersistentReference(itemClass: itemClass, uuid: itemID) }

    /// The row's values as SQLite stores them, in ``columns`` order after the row id (`id`).
    private var columnValues: [DatabaseValue] {
        func optional(_ data: Data?) -> DatabaseValue { data?.databaseValue ?? .null }
        return [
            itemID.bytes.databaseValue, itemClass.rawValue.databaseValue, accessibility.rawValue.databaseValue,
            synchronizable.databaseValue,
            indexes.group.databaseValue, optional(indexes.service), optional(indexes.account), optional(indexes.server),
            optional(indexes.identityLink), indexes.primaryKey.databaseValue, rowVersion.databaseValue,
            sealed.wrappedMetadataKey.databaseValue, sealed.metadata.databaseValue,
            sealed.wrappedSecretKey.databaseValue,
            sealed.secret.databaseValue
        ]
    }

    /// The row's values as SQLite stores them, in ``columns`` order: what the state digest
    /// fingerprints, known to a writer without reading the row back.
    func storedValues(rowID: Int64) -> [DatabaseValue] {
        [rowID.databaseValue] + columnValues
    }

    /// Inserts the row under `rowID` with its tags and its seal.
    func insert(rowID: Int64, seal: Data, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO items (id, item_id, item_class, accessibility, synchronizable, group_index, service_index,
                  account_index, server_index, link_index, primary_key_index, row_version, metadata_key, metadata,
                  secret_key, secret, row_seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(binding: [rowID.databaseValue] + columnValues + [seal.databaseValue])
        try Self.insertTags(indexes.tags, rowID: rowID, db)
    }

    /// Rewrites the row in place (keeping its row id, so insertion order is stable), its tags and
    /// its seal. `previous` is the row as stored (read in the same transaction) and
    /// `previousTags` its tags: when the row's lookup columns and tags are unchanged (an update of
    /// its data or of attributes without a lookup column of their own), only the columns that
    /// can change are written, so SQLite rewrites none of the row's index entries or tag rows.
    func update(seal: Data, replacing previous: ItemRow, previousTags: Set<Data>, _ db: Database) throws {
        guard let rowID else { return }
        if hasTheLookupColumns(of: previous) {
            try db.cachedStatement(
                sql: """
                    UPDATE items SET accessibility = ?, synchronizable = ?, row_version = ?, metadata_key = ?,
                      metadata = ?, secret_key = ?, secret = ?, row_seal = ? WHERE id = ?
                    """
            ).execute(binding: [
                accessibility.rawValue.databaseValue, synchronizable.databaseValue, rowVersion.databaseValue,
                sealed.wrappedMetadataKey.databaseValue, sealed.metadata.databaseValue,
                sealed.wrappedSecretKey.databaseValue, sealed.secret.databaseValue, seal.databaseValue,
                rowID.databaseValue
            ])
        } else {
            try db.cachedStatement(
                sql: """
                    UPDATE items SET item_id = ?, item_class = ?, accessibility = ?, synchronizable = ?, group_index = ?,
                      service_index = ?, account_index = ?, server_index = ?, link_index = ?, primary_key_index = ?,
                      row_version = ?, metadata_key = ?, metadata = ?, secret_key = ?, secret = ?, row_seal = ? WHERE id = ?
                    """
            ).execute(binding: columnValues + [seal.databaseValue, rowID.databaseValue])
        }
        guard indexes.tags != previousTags else { return }
        try db.cachedStatement(sql: "DELETE FROM item_tags WHERE item_rowid = ?").execute(binding: [rowID.databaseValue]
        )
        try Self.insertTags(indexes.tags, rowID: rowID, db)
    }

    /// Whether this row and `previous` agree on every column an index of `items` covers.
    private func hasTheLookupColumns(of previous: ItemRow) -> Bool {
        rowID == previous.rowID && itemID == previous.itemID && itemClass == previous.itemClass
            && indexes.group == previous.indexes.group && indexes.service == previous.indexes.service
            && indexes.account == previous.indexes.account && indexes.server == previous.indexes.server
            && indexes.identityLink == previous.indexes.identityLink
            && indexes.primaryKey == previous.indexes.primaryKey
    }

    private static func insertTags(_ tags: Set<Data>, rowID: Int64, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO item_tags (tag, item_rowid) VALUES (?, ?)")
        for tag in tags { try statement.execute(binding: [tag.databaseValue, rowID.databaseValue]) }
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
        .accessGroup: "group_index", .service: "service_index", .account: "account_index", .server: "server_index"
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
    static let clearAttributes: [AttributeKey: String] = [
        .accessible: "accessibility", .synchronizable: "synchronizable"
    ]
    /// Attributes the keychain sets itself and queries rarely name: dates and the digest are
    /// unique per item, so a tag for each would cost a random B-tree insert on every write (about
    /// a third of a durable add); `musr` and `tomb` are the same on every item. Filters on them
    /// are applied to the decrypted attributes of the rows the other filters select (format 3).
    static let untaggedAttributes: Set<AttributeKey> = [.creationDate, .modificationDate, .sha1, .multiUser, .tombstone]

    /// Attributes the keychain keeps for itself (never returned, never queried): the public key
    /// of a key generated inside the keychain, and how a protected item's data was sealed.
    static let internalAttributes: Set<AttributeKey> = [
        TokenKeys.publicKeyAttribute, SecretBinding.attribute, LibraryOwner.attribute
    ]

    init(
        group: Data, service: Data?, account: Data?, server: Data?, identityLink: Data?, primaryKey: Data,
        tags: Set<Data>
    ) {
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
        group =
            attributes[.accessGroup].map {
                $0.stringValue.map(indexer.accessGroup) ?? indexer.attribute(.accessGroup, $0)
            } ?? indexer.accessGroup("")
        service = column(.service)
        account = column(.account)
        server = column(.server)
        primaryKey = indexer.primaryKey(of: itemClass, attributes: attributes)
        switch itemClass {
        case .certificate:
            identityLink = attributes[.publicKeyHash]?.dataValue.flatMap { $0.isEmpty ? nil : indexer.identityLink($0) }
        case .key where attributes[.keyClass]?.numberValue == 1:
            identityLink = attributes[.applicationLabel]?.dataValue.flatMap {
                $0.isEmpty ? nil : indexer.identityLink($0)
            }
        default:
            identityLink = nil
        }
        tags = Set(
            attributes.compactMap { key, value in
                Self.columnAttributes[key] == nil && Self.clearAttributes[key] == nil
                    && !Self.untaggedAttributes.contains(key)
                    && !Self.internalAttributes.contains(key)
                    ? indexer.attribute(key, value) : nil
            })
        if let owner = attributes[LibraryOwner.attribute] {
            tags.insert(indexer.libraryOwnedTag)
            tags.insert(indexer.attribute(LibraryOwner.attribute, owner))
        }
    }

    /// The tags keychains of format 2 also wrote for ``untaggedAttributes``; items written before
    /// the upgrade keep them until they are next rewritten.
    static func legacyTags(attributes: [AttributeKey: AttributeValue], indexer: BlindIndexer) -> Set<Data> {
        Set(attributes.compactMap { untaggedAttributes.contains($0.key) ? indexer.attribute($0.key, $0.value) : nil })
    }
}
