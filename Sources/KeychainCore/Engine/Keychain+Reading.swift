import Foundation
import GRDB

/// Shared by find, update and delete: selecting matching rows and decrypting them.
extension Keychain {
    /// One stored item, decrypted.
    struct OpenedItem: Sendable {
        var row: ItemRow
        var attributes: [AttributeKey: AttributeValue]
        var data: Data?

        /// The item's access-control policy, if it has one.
        var accessPolicy: AccessPolicy? { attributes[.accessControl]?.dataValue.flatMap(AccessPolicy.init(encoded:)) }

        /// Whether the item is a private key generated inside the keychain, whose data never leaves it.
        var isTokenKey: Bool { TokenKeys.isTokenKey(row.itemClass, attributes) }

        /// Whether its policy requires authentication, so that its data key must be sealed to
        /// the presence key.
        var requiresPresenceSeal: Bool { accessPolicy?.requiresAuthentication == true }
    }

    /// How a row SQLite selected is shown to be the one the query asked for, before anything
    /// acts on it. SQLite selects by blind indexes, tags and its own B-tree indexes, all plain
    /// data in the file: an edited one must give `.integrityViolation`, never another item's
    /// data and never a wrong delete.
    enum MatchProof {
        /// Decrypt the row's attributes and check them against the query (find, update): this
        /// holds even against someone who can forge device-keyed MACs.
        case attributes
        /// Check the row's seal and its clear columns and tags against the query, without any
        /// class key (delete, which works while the keychain is locked).
        case seal
    }

    /// A row a query selected and proved, with its decrypted attributes when they were opened.
    struct MatchedItem {
        var row: ItemRow
        var opened: OpenedItem?
    }

    /// The stored items a query matches, in insertion order, each proved as `proof` says
    /// (rows that residual filters rule out are skipped; they need decrypting whatever the proof).
    ///
    /// - Throws: `.integrityViolation` when a selected row is not what the query asked for;
    ///   `.interactionNotAllowed` when a row must be decrypted and its class is locked.
    ///
    /// `requiringTag` also selects only rows with that lookup tag (which the caller proves).
    func matchingItems(
        _ query: ResolvedQuery, limit: Int?, proof: MatchProof, requiringTag: Data? = nil, _ db: Database
    ) throws -> [MatchedItem] {
        var filter = query.filter(
            table: .items, itemClass: query.itemClass, attributes: query.attributes, indexer: keys.indexer)
        if filter.matchesNothing { return [] }
        if let requiringTag { filter.clause.tagged(requiringTag) }
        if let reference = query.persistentReference {
            switch reference.target {
            case .uuid(let uuid): filter.clause.itemID(is: uuid.bytes)
            case .rowID(let rowID): filter.clause.rowID(is: rowID)
            }
        }
        // An app's query that decrypts may skip a row (an item the library wrote before format 6,
        // not taken into its namespace yet): it then reads on until it has `limit` matches.
        let mayHideRows = filter.owner == nil && requiringTag == nil && proof == .attributes
        let sqlLimit = filter.residual.isEmpty && !mayHideRows ? limit : nil
        // Rows are proved one at a time and the scan stops at the limit. A row that must be
        // decrypted and whose class is locked cannot be ruled out, so the call fails as a find
        // over a locked item does (interactionNotAllowed), even for a delete.
        let cursor = try ItemTable.rows(in: db, where: filter.clause, limit: sqlLimit)
        if limit == nil, proof == .attributes, query.persistentReference == nil {
            return try proveAll(cursor, filter, hidingLegacyLibraryItems: requiringTag == nil, db)
        }
        var matches: [MatchedItem] = []
        while matches.count < limit ?? .max, let row = try cursor.next() {
            if let match = try prove(
                row, filter, reference: query.persistentReference, proof: proof,
                hidingLegacyLibraryItems: requiringTag == nil, db)
            {
                matches.append(match)
            }
        }
        return matches
    }

    /// Proves one selected row; `nil` when residual filters rule it out, or when it is an item
    /// the library wrote before format 6 and an app's query selected it (`hidingLegacyLibraryItems`).
    private func prove(
        _ row: ItemRow, _ filter: ItemFilter, reference: PersistentReference?, proof: MatchProof,
        hidingLegacyLibraryItems: Bool = true, _ db: Database
    ) throws -> MatchedItem? {
        var referenceHolds = true
        switch reference?.target {
        case .uuid(let uuid): referenceHolds = row.itemID == uuid
        // the seal covers the row id
        case .rowID(let rowID): referenceHolds = try row.rowID == rowID && keys.rowSealer.isValid(row, db)
        case nil: break
        }
        guard referenceHolds else { throw KeychainError.tamperedPersistentReferenceRow() }
        guard proof == .attributes || !filter.residual.isEmpty else {
            let tags = try row.rowID.map { try RowSealer.tags(of: $0, db) } ?? []
            guard row.rowID != nil, try keys.rowSealer.isValid(row, db), filter.isSatisfied(bySealed: row, tags: tags)
            else {
                throw KeychainError.tamperedLookupColumns()
            }
            // An item the library wrote before format 6 is left alone by an app's delete when its
            // class is available to tell it apart (while locked, it cannot be: it is deleted, as
            // it was before the upgrade).
            if hidingLegacyLibraryItems && filter.owner == nil && tags.contains(keys.indexer.writtenBeforeOwnershipTag),
                let opened = try? open(row, includingData: false), try isLegacyLibraryItem(opened, provenTags: tags, db)
            {
                return nil
            }
            return MatchedItem(row: row, opened: nil)
        }
        return try finishProof(
            proveDecrypted(row, filter), filter, hidingLegacyLibraryItems: hidingLegacyLibraryItems, db)
    }

    /// Rows a scan decrypts and checks together on every core (``proveAll(_:_:hidingLegacyLibraryItems:_:)``):
    /// enough to keep the cores busy, few enough that a huge keychain's rows are never all in memory at once.
    static let proofBatch = 1024

    /// Proves every row the cursor selects, as ``prove(_:_:reference:proof:hidingLegacyLibraryItems:_:)``
    /// proves each by its decrypted attributes: rows are read from the snapshot ``proofBatch`` at
    /// a time, decrypted and checked on every core (``proveDecrypted(_:_:)``), then finished in
    /// order on this connection. The result and the error are a sequential scan's: the first
    /// row in order that fails (its decryption, its check, or reading it) decides the error.
    private func proveAll(
        _ cursor: ItemRowCursor, _ filter: ItemFilter, hidingLegacyLibraryItems: Bool, _ db: Database
    ) throws -> [MatchedItem] {
        var matches: [MatchedItem] = []
        let scanKeys = ScanKeys(keys)
        var finished = false
        while !finished {
            var rows: [ItemRow] = []
            rows.reserveCapacity(Self.proofBatch)
            // A row that cannot be read is reported after the rows before it, as a sequential scan would.
            var readFailure: (any Error)?
            do {
                while rows.count < Self.proofBatch {
                    guard let row = try cursor.next() else {
                        finished = true
                        break
                    }
                    rows.append(row)
                }
            } catch {
                readFailure = error
                finished = true
            }
            let batch = rows
            let proofs = ConcurrentMap.map(batch.count) { index in
                Result { () throws(KeychainError) in try self.proveDecrypted(batch[index], filter, scanKeys: scanKeys) }
            }
            for proof in proofs {
                if let match = try finishProof(
                    proof.get(), filter, hidingLegacyLibraryItems: hidingLegacyLibraryItems, db)
                {
                    matches.append(match)
                }
            }
            if let readFailure { throw readFailure }
        }
        return matches
    }

    /// What checking a row by its decrypted attributes found before the checks that need the
    /// database: pure, so it runs for many rows at once on every core.
    enum DecryptedProof: Sendable {
        /// The query's residual filters rule the row out.
        case ruledOut
        /// The row opened; `satisfiesQuery` says whether its attributes are what the query asked for.
        case opened(OpenedItem, satisfiesQuery: Bool)
    }

    /// Decrypts a row's attributes and checks them against the query (``ItemFilter/isSatisfied(byDecrypted:)``);
    /// a query on values derived from secret data is refused for an item whose data needs
    /// authentication before any comparison, so a right and a wrong guess look the same.
    /// - Throws: what ``open(_:includingData:presenceKey:)`` throws (a locked class, an edited
    ///   row); `.authFailed` for a query on values derived from a protected item's data.
    func proveDecrypted(_ row: ItemRow, _ filter: ItemFilter, scanKeys: ScanKeys? = nil) throws(KeychainError)
        -> DecryptedProof
    {
        let opened: OpenedItem
        if let scanKeys {
            opened = try openAttributes(
                row, classKeys: scanKeys.classKeys(for: row.accessibility), vaultID: scanKeys.vaultID)
        } else {
            opened = try open(row, includingData: false)
        }
        if filter.filtersOnSecretDerivedValues, opened.isTokenKey || opened.accessPolicy?.guardsData == true {
            throw KeychainError.queryOnProtectedDerivedValues()
        }
        guard filter.residualMatches(opened.attributes) else { return .ruledOut }
        return .opened(opened, satisfiesQuery: filter.isSatisfied(byDecrypted: opened))
    }

    /// Finishes a row's proof in order on the connection: an item the library wrote before
    /// format 6 is skipped by an app's query; one whose attributes are not what the query asked
    /// for means its lookup values were edited.
    /// - Throws: `.integrityViolation` for edited lookup values; the database's errors.
    private func finishProof(
        _ proof: DecryptedProof, _ filter: ItemFilter, hidingLegacyLibraryItems: Bool, _ db: Database
    ) throws -> MatchedItem? {
        guard case .opened(let opened, let satisfiesQuery) = proof else { return nil }
        if hidingLegacyLibraryItems && filter.owner == nil, try isLegacyLibraryItem(opened, db) { return nil }
        guard satisfiesQuery else { throw KeychainError.tamperedLookupValues() }
        return MatchedItem(row: opened.row, opened: opened)
    }

    /// The (certificate, private key) pairs of the identities a query matches, each half proved
    /// against its part of the query and the pair's link (the certificate's public-key hash is
    /// the key's application label) proved too.
    func matchingIdentities(_ query: ResolvedQuery, limit: Int?, proof: MatchProof, _ db: Database) throws -> [(
        certificate: MatchedItem, key: MatchedItem
    )] {
        let split = query.identitySplit
        var certificate = query.filter(
            table: .identityCertificate, itemClass: .certificate, attributes: split.certificate, indexer: keys.indexer)
        let key = query.filter(table: .identityKey, itemClass: .key, attributes: split.key, indexer: keys.indexer)
        if certificate.matchesNothing { return [] }
        if let reference = query.persistentReference {
            switch reference.target {
            case .uuid(let uuid): certificate.clause.itemID(is: uuid.bytes)
            case .rowID(let rowID): certificate.clause.rowID(is: rowID)
            }
        }
        let residual = !certificate.residual.isEmpty || !key.residual.isEmpty
        let pairs = try ItemTable.identityPairs(
            in: db, certificates: certificate.clause, keys: key.clause, limit: residual ? nil : limit)
        var matches: [(certificate: MatchedItem, key: MatchedItem)] = []
        for pair in pairs where matches.count < limit ?? .max {
            guard
                let certificateItem = try prove(
                    row(id: pair.certificate, db), certificate, reference: query.persistentReference, proof: proof, db),
                let keyItem = try prove(row(id: pair.key, db), key, reference: nil, proof: proof, db)
            else { continue }
            let linked: Bool
            if let certificateAttributes = certificateItem.opened?.attributes,
                let keyAttributes = keyItem.opened?.attributes
            {
                let hash = certificateAttributes[.publicKeyHash]?.dataValue
                linked = hash != nil && hash?.isEmpty == false && hash == keyAttributes[.applicationLabel]?.dataValue
            } else {
                linked =
                    certificateItem.row.indexes.identityLink != nil
                    && certificateItem.row.indexes.identityLink == keyItem.row.indexes.identityLink
            }
            guard linked else { throw KeychainError.tamperedIdentityLink() }
            matches.append((certificateItem, keyItem))
        }
        return matches
    }

    func row(id: Int64, _ db: Database) throws -> ItemRow {
        guard let row = try ItemTable.row(in: db, id: id) else {
            throw KeychainError.itemNotFound()
        }
        return try ItemRow(row: row)
    }

    /// Decrypts a row's attributes (always, which also verifies the row) and, if asked, its data
    /// (a protected item's needs `presenceKey`).
    /// - Throws: `.interactionNotAllowed` / `.authFailed` when its class is unavailable,
    ///   `.integrityViolation` when the row was tampered with.
    func open(_ row: ItemRow, includingData: Bool, presenceKey: PresencePrivateKey? = nil) throws(KeychainError)
        -> OpenedItem
    {
        var item = try openAttributes(
            row, classKeys: keys.classKeys(for: row.accessibility), vaultID: keys.header.vaultID)
        if includingData { try openData(of: &item, presenceKey: presenceKey) }
        return item
    }

    /// Decrypts a row's attributes with its class's keys (which also verifies the row).
    /// - Throws: `.integrityViolation` when the row was tampered with.
    func openAttributes(_ row: ItemRow, classKeys: ClassKeys, vaultID: UUID) throws(KeychainError) -> OpenedItem {
        let binding = row.binding(vaultID: vaultID)
        let metadata = try ItemCipher.openMetadata(row.sealed, binding: binding, keys: classKeys)
        guard let attributes = AttributeCodec.decode(metadata),
            attributes[.accessible]?.stringValue == row.accessibility.rawValue,
            attributes[.synchronizable]?.numberValue == (row.synchronizable ? 1 : 0)
        else {
            throw KeychainError.tamperedAttributesDisagree(itemClass: row.itemClass.rawValue)
        }
        return OpenedItem(row: row, attributes: attributes, data: nil)
    }

    /// The keys a scan opens its rows with, looked up once for the scan instead of under the
    /// key ring's lock for every row: the vault id, and each class's keys or the error a row of
    /// that class gets (locked, not yet unlocked, no passcode). They live as long as the scan,
    /// as the keys a row-by-row scan copies out do.
    struct ScanKeys: Sendable {
        let vaultID: UUID
        private let classKeys: [Accessibility: Result<ClassKeys, KeychainError>]
        private let ring: KeyRing

        init(_ ring: KeyRing) {
            self.ring = ring
            vaultID = ring.header.vaultID
            var classKeys: [Accessibility: Result<ClassKeys, KeychainError>] = [:]
            for accessibility in Accessibility.allCases {
                classKeys[accessibility] = Result { () throws(KeychainError) in try ring.classKeys(for: accessibility) }
            }
            self.classKeys = classKeys
        }

        /// The keys of one accessibility, or the error ``KeyRing/classKeys(for:)`` gave for it.
        func classKeys(for accessibility: Accessibility) throws(KeychainError) -> ClassKeys {
            guard let keys = classKeys[accessibility] else { return try ring.classKeys(for: accessibility) }
            return try keys.get()
        }
    }

    /// Decrypts the data of an item whose attributes were opened without it; a protected item's
    /// needs `presenceKey` (from ``authorize(_:operation:options:)``). The data's digest
    /// (`sha1`), which a protected item does not store beside its attributes, is added.
    func openData(of item: inout OpenedItem, presenceKey: PresencePrivateKey? = nil) throws(KeychainError) {
        let row = item.row
        try requireIntactPresence(item)
        var binding = row.binding(vaultID: keys.header.vaultID)
        if row.sealed.isPresenceSealed { binding = try SecretBinding(attributes: item.attributes).applied(to: binding) }
        let data = try ItemCipher.openSecret(
            row.sealed, binding: binding, keys: keys.classKeys(for: row.accessibility), presenceKey: presenceKey)
        if row.sealed.isPresenceSealed {
            item.attributes[.sha1] = .data(
                ItemAttributes.digest(itemClass: row.itemClass, attributes: item.attributes, data: data))
        }
        item.data = data
    }

    /// Checks that a protected item and the keybag agree before anything is asked or opened: an
    /// item sealed to a presence key needs the keybag's presence key (the presence slots were
    /// removed otherwise), and once the keychain has one, every protected item is sealed to it.
    func requireIntactPresence(_ item: OpenedItem) throws(KeychainError) {
        let established = keys.presence.isEstablished
        if item.row.sealed.isPresenceSealed && !established { throw .presenceSlotsRemoved() }
        if item.requiresPresenceSeal && established && !item.row.sealed.isPresenceSealed {
            throw KeychainError.tamperedPresenceSealing()
        }
    }

    /// The public result for an opened item.
    func result(_ item: OpenedItem, returning options: ReturnOptions) -> FoundItem {
        FoundItem(
            itemClass: item.row.itemClass, persistentReference: item.row.persistentReference,
            attributes: Self.returnedAttributes(item.attributes, options: options),
            data: options.contains(.data) ? (item.data ?? Data()) : nil)
    }

    /// Attributes that reveal or derive from secret data, returned only when data is asked for
    /// too: the data's SHA-1 and the internet-password extra secret blobs.
    static let secretDerivedAttributes: Set<AttributeKey> = ["sha1", "binn", "bini", "bin0", "bin1", "bin2", "bin3"]

    /// Attributes as Apple returns them: ``secretDerivedAttributes`` only together with data;
    /// token keys always with ``TokenKeys/storageAttribute``.
    static func returnedAttributes(_ attributes: [AttributeKey: AttributeValue], options: ReturnOptions)
        -> [AttributeKey: AttributeValue]
    {
        guard options.contains(.attributes) else { return [:] }
        // Removed in place, by name: most items hold one or two of these (an item's digest), and
        // filtering would build the whole dictionary again, twice.
        var visible = attributes
        for key in ItemIndexes.internalAttributes where visible[key] != nil { visible[key] = nil }
        if let storage = TokenKeys.storage(of: attributes) {
            // Token keys generated before TPM support carry no label: they are software keys.
            visible[TokenKeys.storageAttribute] = .string(storage.rawValue)
        }
        if !options.contains(.data) {
            for key in secretDerivedAttributes where visible[key] != nil { visible[key] = nil }
        }
        return visible
    }
}
