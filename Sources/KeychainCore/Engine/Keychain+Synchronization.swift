import Foundation
import GRDB

/// The engine's side of sync: reading the items that may leave this device and applying what
/// arrived from the others. The network and the circle's keys live in KeychainSync; the engine
/// only knows items.
extension Keychain {
    /// The items that sync, read in one snapshot, and the accessibilities whose items could not
    /// be read because their class is locked (their items are not in `items`; a caller must not
    /// take their absence for deletion).
    package struct SynchronizableSnapshot: Sendable {
        /// Every readable item that may sync (``SynchronizedItem/maySync``), data included.
        package var items: [SynchronizedItem]
        /// Accessibilities of synchronizable items skipped because their class is locked.
        package var lockedAccessibilities: Set<Accessibility>
        /// Synchronizable items never synced because their data needs the user (an access
        /// control with user presence), as a backup leaves them out.
        package var protectedItems: Int
        /// The synchronizable items this device keeps to itself and sync never replaces (data
        /// needing the user, keys generated inside the keychain, `…ThisDeviceOnly`), attributes
        /// only: their absence from ``items`` is not a deletion.
        package var keptItems: [SynchronizedItem] = []
        /// The keychain's change marker when the snapshot was read (``changeMarker()``).
        package var marker: Int64?
        /// The row id of each item of ``items``, in the same order.
        package var rowIDs: [Int64] = []
        /// Every synchronizable row's stamp when the snapshot was read, by row id.
        package var stamps: [Int64: SynchronizedRowStamp] = [:]
        /// Rows left unread because their stamp was the one the caller already knew: unchanged
        /// since the caller read them, and in neither ``items`` nor ``keptItems``.
        package var unchangedRows: [Int64] = []
    }

    /// What tells one version of a synchronizable row from another without opening it: the
    /// item's id (new for every item added), the row version (moved by every update) and the
    /// AES-GCM tags of its two ciphertexts (new, with a new random nonce, whenever either is
    /// sealed again). A row whose stamp is unchanged holds the same item as when it was read,
    /// even across an older copy of the file: two histories of one row that reach the same row
    /// version still differ in their tags.
    package struct SynchronizedRowStamp: Sendable, Hashable {
        /// The item's id.
        package var itemID: UUID
        /// The row's version.
        package var rowVersion: Int64
        /// The last 16 bytes (the GCM tag) of the metadata ciphertext, then of the secret's.
        package var sealTags: Data

        /// A stamp with these parts.
        package init(itemID: UUID, rowVersion: Int64, sealTags: Data) {
            (self.itemID, self.rowVersion, self.sealTags) = (itemID, rowVersion, sealTags)
        }

        /// The stamp of `row`.
        init(_ row: ItemRow) {
            self.init(
                itemID: row.itemID, rowVersion: row.rowVersion,
                sealTags: Data(row.sealed.metadata.suffix(16)) + Data(row.sealed.secret.suffix(16)))
        }
    }

    /// Reads every item that may sync: `kSecAttrSynchronizable` true, not `…ThisDeviceOnly`, not
    /// a key generated inside the keychain, and whose data opens without the user.
    ///
    /// - Parameter known: rows the caller read before, with their stamps: those whose stamp is
    ///   unchanged are not read again (``SynchronizableSnapshot/unchangedRows``), so a caller that
    ///   remembers what it read pays only for what changed.
    /// - Throws: `.integrityViolation` for a tampered row; never `.interactionNotAllowed`
    ///   (locked classes are reported in ``SynchronizableSnapshot/lockedAccessibilities``).
    package func synchronizableItems(skipping known: [Int64: SynchronizedRowStamp] = [:]) throws(KeychainError)
        -> SynchronizableSnapshot
    {
        try read { db -> SynchronizableSnapshot in
            var snapshot = SynchronizableSnapshot(items: [], lockedAccessibilities: [], protectedItems: 0)
            snapshot.marker = try keys.stateDigest.recorded(db).flatMap { $0.authentic ? $0.counter : nil }
            if known.isEmpty {
                let rows = try ItemTable.cursorOverAllRows(in: db)
                while let raw = try rows.next() { try take(ItemRow(row: raw), into: &snapshot) }
                return snapshot
            }
            // Only the clear columns first; then the rows that changed, one by one.
            let stamps = try ItemTable.synchronizableStamps(in: db)
            var changed: [Int64] = []
            while let stamp = try stamps.next() {
                guard let id = stamp[0] as Int64?, let itemID = (stamp[1] as Data?).flatMap(UUID.init(bytes:)),
                    let version = stamp[2] as Int64?, let tags = stamp[3] as Data?
                else {
                    throw KeychainError.synchronizableRowIncomplete()
                }
                let rowStamp = SynchronizedRowStamp(itemID: itemID, rowVersion: version, sealTags: tags)
                if known[id] == rowStamp {
                    snapshot.stamps[id] = rowStamp
                    snapshot.unchangedRows.append(id)
                } else {
                    changed.append(id)
                }
            }
            for id in changed {
                guard let raw = try ItemTable.row(in: db, id: id) else { continue }
                try take(ItemRow(row: raw), into: &snapshot)
            }
            return snapshot
        }
    }

    /// Adds one row to a snapshot: as an item that syncs, an item kept here, a protected item,
    /// or an accessibility whose class is locked.
    private func take(_ row: ItemRow, into snapshot: inout SynchronizableSnapshot) throws {
        guard row.synchronizable, let rowID = row.rowID else { return }
        snapshot.stamps[rowID] = SynchronizedRowStamp(row)
        do {
            var item = try open(row, includingData: false)
            let kept = SynchronizedItem(
                itemClass: row.itemClass, attributes: SynchronizedItem.portable(item.attributes), data: Data())
            if row.accessibility.isThisDeviceOnly || item.isTokenKey {
                snapshot.keptItems.append(kept)
                return
            }
            if item.requiresPresenceSeal {
                snapshot.protectedItems += 1
                snapshot.keptItems.append(kept)
                return
            }
            try openData(of: &item)
            let synchronized = SynchronizedItem(
                itemClass: row.itemClass,
                attributes: SynchronizedItem.portable(item.attributes),
                data: item.data ?? Data())
            if synchronized.maySync {
                snapshot.items.append(synchronized)
                snapshot.rowIDs.append(rowID)
            }
        } catch {
            guard error.code == .interactionNotAllowed else { throw error }
            snapshot.lockedAccessibilities.insert(row.accessibility)
        }
    }

    /// A number that changes with every write to the keychain, by any process (the state
    /// digest's counter); `nil` when the keychain has no authentic state record.
    package func changeMarker() throws(KeychainError) -> Int64? {
        try read { db in try keys.stateDigest.recorded(db).flatMap { $0.authentic ? $0.counter : nil } }
    }

    /// Whether ``applySynchronized(_:state:)`` would accept `item`: its attributes are valid for
    /// its class and, as this keychain would store them, still allowed to sync.
    package func acceptsSynchronized(_ item: SynchronizedItem) -> Bool {
        (try? storedAttributes(ofSynchronized: item, now: Date())) != nil
    }

    /// The attributes this keychain would store for `item`, checked as an add checks them, with
    /// its dates kept.
    /// - Throws: `.invalidParameter` when the item, or the item as it would be stored, may not
    ///   sync; `.noSuchAttribute` and `.invalidParameter` for attributes invalid for its class.
    private func storedAttributes(ofSynchronized item: SynchronizedItem, now: Date) throws(KeychainError)
        -> [AttributeKey: AttributeValue]
    {
        guard item.maySync else {
            throw KeychainError.unsyncableItemReceived(itemClass: item.itemClass.rawValue)
        }
        let record = BackupRecord(itemClass: item.itemClass, attributes: item.attributes, data: item.data)
        let attributes = try ItemAttributes.forRestoredItem(
            record, defaultAccessGroup: options.defaultAccessGroup, now: now)
        guard SynchronizedItem(itemClass: item.itemClass, attributes: attributes, data: item.data).maySync else {
            throw KeychainError.receivedItemWouldNotSync(itemClass: item.itemClass.rawValue)
        }
        return attributes
    }

    /// Applies changes that arrived from other devices, and stores `state` (the sync layer's own
    /// record of what this device has synced) in the same transaction, so a crash leaves both or
    /// neither.
    ///
    /// An upsert replaces the live item with the same primary key, keeping the incoming item's
    /// creation and modification dates; a delete removes it. An item whose class is locked is
    /// left for later (``SynchronizedOutcome/locked``); a local key generated inside the keychain,
    /// or an item whose data needs the user, is never replaced (``SynchronizedOutcome/keptLocal``).
    ///
    /// - Parameter state: an item to add or replace by its primary key; it must be
    ///   library-owned (``LibraryOwner``), `…ThisDeviceOnly` and not synchronizable (it never
    ///   syncs itself).
    /// - Returns: one outcome per change, in order.
    /// - Throws: `.invalidParameter` for a change no device could have sent (an item that may not
    ///   sync, a key claiming to come from inside a keychain); nothing is written then.
    @discardableResult
    package func applySynchronized(_ changes: [SynchronizedChange], state: NewItem? = nil) throws(KeychainError)
        -> [SynchronizedOutcome]
    {
        try applySynchronized(changes) { _, _ in state }
    }

    /// ``applySynchronized(_:state:)`` with the state made from the outcomes, inside the same
    /// transaction: what the sync records as agreed always matches what was written. The state
    /// is also given the keychain's ``changeMarker()`` as it will be once this transaction
    /// commits (`nil` when the keychain has no authentic state record), so the next sync can
    /// tell whether anything else wrote since.
    ///
    /// - Parameter seenMarker: the change marker of the snapshot the changes were decided on; the
    ///   state gets a marker only if nothing else wrote to the keychain since that snapshot.
    @discardableResult
    package func applySynchronized(
        _ changes: [SynchronizedChange], seenMarker: Int64? = nil,
        stateAfter makeState: ([SynchronizedOutcome], Int64?) -> NewItem?
    ) throws(KeychainError) -> [SynchronizedOutcome] {
        try applySynchronized(changes, seenMarker: seenMarker) { outcomes, marker in
            makeState(outcomes, marker).map { [$0] } ?? []
        }
    }

    /// ``applySynchronized(_:seenMarker:stateAfter:)`` with a state kept in several items (each
    /// replaced by its primary key; items of the state not returned are left as they are). The
    /// closure is called twice, with the same outcomes: first for the items' primary keys (marker
    /// `nil`), then for the items stored; both calls must name the same items in the same order.
    @discardableResult
    package func applySynchronized(
        _ changes: [SynchronizedChange], seenMarker: Int64? = nil,
        stateItemsAfter makeState: ([SynchronizedOutcome], Int64?) -> [NewItem]
    ) throws(KeychainError) -> [SynchronizedOutcome] {
        let now = Date()
        var prepared: [(change: SynchronizedChange, attributes: [AttributeKey: AttributeValue])] = []
        prepared.reserveCapacity(changes.count)
        for change in changes {
            prepared.append((change, try storedAttributes(ofSynchronized: change.item, now: now)))
        }
        let outcomes = try write { db -> [SynchronizedOutcome] in
            // Another write since the snapshot (an app's, in any process) must be seen by the next sync.
            let recordedAtStart = try keys.stateDigest.recorded(db)
            let unchangedSinceSnapshot =
                seenMarker != nil && recordedAtStart?.authentic == true && recordedAtStart?.counter == seenMarker
            var outcomes: [SynchronizedOutcome] = []
            var added: [[UInt8]] = []
            for (change, attributes) in prepared {
                outcomes.append(try apply(change, attributes: attributes, fingerprints: &added, db))
            }
            let drafts = makeState(outcomes, nil)
            if !drafts.isEmpty {
                // The old state goes first; the one final fold below then moves the change counter
                // by exactly one, so the state can carry the counter this transaction ends with.
                var primaryKeys: [Data] = []
                for draft in drafts {
                    let draftAttributes = try ItemAttributes.forNewItem(
                        draft, defaultAccessGroup: options.defaultAccessGroup, now: now)
                    let primaryKey = ItemIndexes(
                        itemClass: draft.itemClass, attributes: draftAttributes, indexer: keys.indexer
                    ).primaryKey
                    if let existing = try existingRow(primaryKey, db) {
                        try recordRemoval(of: [existing], db)
                        try ItemTable.delete(in: db, id: existing)
                    }
                    primaryKeys.append(primaryKey)
                }
                let marker =
                    unchangedSinceSnapshot
                    ? try keys.stateDigest.recorded(db).flatMap { $0.authentic ? $0.counter + 1 : nil } : nil
                let states = makeState(outcomes, marker)
                guard states.count == primaryKeys.count else { throw KeychainError.syncStateItemInvalid() }
                for (state, primaryKey) in zip(states, primaryKeys) {
                    let stateAttributes = try ItemAttributes.forNewItem(
                        state, defaultAccessGroup: options.defaultAccessGroup, now: now)
                    guard ItemAttributes.accessibility(of: stateAttributes).isThisDeviceOnly,
                        stateAttributes[.synchronizable]?.numberValue == 0,
                        state.owner != nil,
                        ItemIndexes(itemClass: state.itemClass, attributes: stateAttributes, indexer: keys.indexer)
                            .primaryKey == primaryKey
                    else {
                        throw KeychainError.syncStateItemInvalid()
                    }
                    let outcome = try replace(
                        state.itemClass, attributes: stateAttributes, data: state.data ?? Data(), existing: nil,
                        fingerprints: &added, db)
                    if outcome == .locked { throw KeychainError.syncStateWhileSealed() }
                }
            }
            try keys.stateDigest.record(adding: added, db)
            return outcomes
        }
        checkpoint()
        return outcomes
    }

    private func apply(
        _ change: SynchronizedChange, attributes: [AttributeKey: AttributeValue],
        fingerprints: inout [[UInt8]], _ db: Database
    ) throws -> SynchronizedOutcome {
        let item = change.item
        let primaryKey = ItemIndexes(itemClass: item.itemClass, attributes: attributes, indexer: keys.indexer)
            .primaryKey
        let existing = try existingRow(primaryKey, db)
        if let existing {
            let current: OpenedItem
            do {
                current = try open(row(id: existing, db), includingData: false)
            } catch {
                if Self.isLocked(error) { return .locked }
                throw error
            }
            if current.isTokenKey || current.requiresPresenceSeal || current.row.accessibility.isThisDeviceOnly {
                return .keptLocal
            }
            var opened = current
            do { try openData(of: &opened) } catch {
                if Self.isLocked(error) { return .locked }
                throw error
            }
            let local = SynchronizedItem(
                itemClass: current.row.itemClass, attributes: SynchronizedItem.portable(opened.attributes),
                data: opened.data ?? Data())
            if local.valueDigest != change.expectedLocalDigest { return .changedLocally }
        } else if change.expectedLocalDigest != nil {
            return .changedLocally
        }
        switch change.kind {
        case .upsert:
            if TokenKeys.isTokenKey(item.itemClass, attributes) {
                throw KeychainError.syncedTokenKey()
            }
            let checked: [AttributeKey: AttributeValue]
            do { checked = try sealingAccessPolicy(attributes, isTokenKey: false) } catch {
                if Self.isLocked(error) { return .locked }
                throw error
            }
            return try replace(
                item.itemClass, attributes: checked, data: item.data, existing: existing, fingerprints: &fingerprints,
                db)
        case .delete:
            guard let existing else { return .applied }
            try recordRemoval(of: [existing], db)
            try ItemTable.delete(in: db, id: existing)
            return .applied
        }
    }

    /// Writes an item in place of the row `existing` (sealing first, so a locked class changes nothing).
    private func replace(
        _ itemClass: ItemClass, attributes: [AttributeKey: AttributeValue], data: Data, existing: Int64?,
        fingerprints: inout [[UInt8]], _ db: Database
    ) throws -> SynchronizedOutcome {
        let sealed: SealedRow
        do {
            sealed = try seal(itemClass, attributes: attributes, data: data, rowID: try ItemTable.nextID(in: db))
        } catch {
            if Self.isLocked(error) { return .locked }
            throw error
        }
        if let existing {
            try recordRemoval(of: [existing], db)
            try ItemTable.delete(in: db, id: existing)
        }
        try store(sealed, db)
        fingerprints.append(sealed.fingerprint)
        return .applied
    }

    /// Whether an error says a class key is unavailable (the keychain is locked for that class).
    private static func isLocked(_ error: any Error) -> Bool {
        (error as? KeychainError)?.code == .interactionNotAllowed
    }
}
