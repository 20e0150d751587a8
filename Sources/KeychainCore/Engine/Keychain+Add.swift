import Foundation
import GRDB

extension Keychain {
    /// Adds an item.
    ///
    /// Missing attributes get Apple's defaults. The item is sealed under fresh per-item
    /// keys and inserted in one transaction.
    ///
    /// - Returns: the stored item, with the parts `returning` asks for.
    /// - Throws: `.duplicateItem` when a live item has the same primary key (whatever its
    ///   accessibility or label); `.interactionNotAllowed` when the item's class is locked;
    ///   `.authFailed` for a passcode-set item without a passphrase; `.noSuchAttribute`,
    ///   `.invalidParameter` for bad attributes.
    @discardableResult
    public func add(_ item: NewItem, returning options: ReturnOptions = []) throws(KeychainError) -> FoundItem {
        let prepared = try prepareForAdd(item, now: Date())
        let stored = try write { db in
            try self.insert(prepared.itemClass, attributes: prepared.attributes, data: prepared.data, db)
        }
        logger.debug("added item", metadata: ["class": "\(item.itemClass.rawValue)"])
        return result(stored, returning: options)
    }

    /// An item as ``insert(_:attributes:data:_:)`` takes it.
    typealias PreparedItem = (itemClass: ItemClass, attributes: [AttributeKey: AttributeValue], data: Data)

    /// Checks that `item` can be added on its own and fills in Apple's defaults.
    /// Keys with the Secure Enclave token ID come only from ``generateTokenKey(_:attributes:policy:)``
    /// (`allowingTokenKey`): such a key cannot be imported. An ``AccessPolicy`` is checked and
    /// gets the authenticator's enrolment state.
    func prepareForAdd(_ item: NewItem, now: Date, allowingTokenKey: Bool = false) throws(KeychainError) -> PreparedItem
    {
        guard item.itemClass.isStored else {
            throw KeychainError.identityAddedAlone()
        }
        let attributes = try ItemAttributes.forNewItem(item, defaultAccessGroup: options.defaultAccessGroup, now: now)
        let isTokenKey = TokenKeys.isTokenKey(item.itemClass, attributes)
        if isTokenKey && !allowingTokenKey {
            throw KeychainError.tokenKeyAdded()
        }
        return (item.itemClass, try sealingAccessPolicy(attributes, isTokenKey: isTokenKey), item.data ?? Data())
    }

    /// Adds a certificate and its private key in one transaction; together they form an identity
    /// (the key's application label must equal the certificate's public-key hash).
    ///
    /// - Returns: the identity as ``find(_:returning:)-5byhz`` would return it.
    @discardableResult
    public func addIdentity(certificate: NewItem, privateKey: NewItem, returning options: ReturnOptions = [])
        throws(KeychainError) -> FoundItem
    {
        guard certificate.itemClass == .certificate, privateKey.itemClass == .key else {
            throw KeychainError.identityIsCertificateAndKey()
        }
        let now = Date()
        let certificateAttributes = try prepareForAdd(certificate, now: now).attributes
        let keyAttributes = try prepareForAdd(privateKey, now: now).attributes
        guard keyAttributes[.keyClass]?.numberValue == 1,
            let label = keyAttributes[.applicationLabel]?.dataValue, !label.isEmpty,
            certificateAttributes[.publicKeyHash]?.dataValue == label
        else {
            throw KeychainError.identityKeyMismatch()
        }
        let certificateRow = try write { db -> ItemRow in
            let stored = try self.insert(
                .certificate, attributes: certificateAttributes, data: certificate.data ?? Data(), db)
            _ = try self.insert(.key, attributes: keyAttributes, data: privateKey.data ?? Data(), db)
            return stored.row
        }
        var query = Query(.identity)
        query.persistentReference = PersistentReference(itemClass: .identity, uuid: certificateRow.itemID)
        query.synchronizable = .any
        guard let identity = try find(query, returning: options).first else { throw .itemNotFound() }
        return identity
    }

    /// The attributes sealed in an item's metadata: all of them, except that a protected item's
    /// data digest (`sha1`) is left out, because the metadata opens without the user and the
    /// digest would let anyone holding the class key test guesses of the data. It is computed
    /// again when the data is opened.
    static func storedAttributes(_ attributes: [AttributeKey: AttributeValue], presenceSealed: Bool) -> [AttributeKey:
        AttributeValue]
    {
        presenceSealed ? attributes.filter { $0.key != .sha1 } : attributes
    }

    /// The state-digest fingerprint of a row this transaction just wrote, from the values written
    /// (no read-back). Debug builds check it against the row as read back.
    func fingerprint(ofWritten row: ItemRow, _ db: Database) throws -> [UInt8] {
        guard let rowID = row.rowID else { preconditionFailure("a written row has a row id") }
        let fingerprint = keys.stateDigest.fingerprint(values: row.storedValues(rowID: rowID))
        assert(
            try! fingerprint == keys.stateDigest.fingerprint(rowID: rowID, db),
            "a written row's fingerprint differs from the stored row's")
        return fingerprint
    }

    /// Seals and inserts one item inside the current transaction and folds it into the state
    /// digest; returns it as stored. (Batch writers ``seal(_:attributes:data:rowID:)`` and
    /// ``store(_:_:)`` their items and record the whole batch with one header update.)
    func insert(_ itemClass: ItemClass, attributes: [AttributeKey: AttributeValue], data: Data, _ db: Database) throws
        -> OpenedItem
    {
        let sealed = try seal(itemClass, attributes: attributes, data: data, rowID: try ItemTable.nextID(in: db))
        try store(sealed, db)
        try keys.stateDigest.record(adding: [sealed.fingerprint], db)
        return sealed.item
    }

    /// A new item's row, sealed and ready to insert: pure computation on this instance's keys,
    /// so a batch seals its items on several cores and inserts them in order afterwards.
    struct SealedRow: Sendable {
        var item: OpenedItem
        /// The row seal (``RowSealer``).
        var seal: Data
        /// The state-digest fingerprint of the row as it will be stored.
        var fingerprint: [UInt8]
    }

    /// Seals an item for the row id `rowID`: its blind indexes, fresh keys and nonces, both
    /// ciphertexts, the row seal and the fingerprint.
    func seal(_ itemClass: ItemClass, attributes: [AttributeKey: AttributeValue], data: Data, rowID: Int64) throws
        -> SealedRow
    {
        let accessibility = ItemAttributes.accessibility(of: attributes)
        let classKeys = try keys.classKeys(for: accessibility)
        let presence = presenceSealing(attributes)
        var attributes = attributes
        attributes[.sha1] = .data(ItemAttributes.digest(itemClass: itemClass, attributes: attributes, data: data))
        let indexes = ItemIndexes(itemClass: itemClass, attributes: attributes, indexer: keys.indexer)
        let randomness = ItemRandomness()
        let vaultID = keys.header.vaultID
        var row = ItemRow(
            rowID: rowID, itemID: .sequential(rowID, random: randomness.identifier), itemClass: itemClass,
            accessibility: accessibility,
            synchronizable: attributes[.synchronizable]?.numberValue == 1, indexes: indexes, rowVersion: 1,
            sealed: SealedItem(wrappedMetadataKey: Data(), metadata: Data(), wrappedSecretKey: Data(), secret: Data()))
        if presence != nil {
            attributes[SecretBinding.attribute] = SecretBinding(row.binding(vaultID: vaultID)).attributeValue
        }
        row.sealed = try ItemCipher.seal(
            metadata: AttributeCodec.encode(Self.storedAttributes(attributes, presenceSealed: presence != nil)),
            secret: data,
            binding: row.binding(vaultID: vaultID), keys: classKeys, presence: presence, randomness: randomness)
        return SealedRow(
            item: OpenedItem(row: row, attributes: attributes, data: data),
            seal: keys.rowSealer.seal(row, rowID: rowID, tags: indexes.tags),
            fingerprint: keys.stateDigest.fingerprint(values: row.storedValues(rowID: rowID)))
    }

    /// Inserts a sealed row (debug builds check its fingerprint against the row read back).
    func store(_ sealed: SealedRow, _ db: Database) throws {
        let row = sealed.item.row
        guard let rowID = row.rowID else { preconditionFailure("a sealed row has a row id") }
        try row.insert(rowID: rowID, seal: sealed.seal, db)
        assert(
            try! sealed.fingerprint == keys.stateDigest.fingerprint(rowID: rowID, db),
            "a written row's fingerprint differs from the stored row's")
    }
}
