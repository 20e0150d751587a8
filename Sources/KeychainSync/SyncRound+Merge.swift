import Foundation
import KeychainCore

// A round's second phase: decide every pulled record against this device's items.
extension SyncRound {
    /// What one round knows of this device while it merges.
    struct Merge {
        /// One of this device's items: read whole this round, or remembered unchanged (``LocalItemCache``).
        struct LocalItem {
            /// Its value digest.
            var digest: Data
            /// Its modification date.
            var modificationDate: Date
            /// The item, when read this round.
            var item: SynchronizedItem?
        }

        /// This device's readable synchronizable items by record id, updated to what the keychain
        /// holds once ``changes`` are applied.
        var local: [Data: LocalItem] = [:]
        /// What to remember of the rows behind ``local`` for the next sync in this process.
        var rows: [Int64: LocalItemCache.Row] = [:]
        /// Whether an item only remembered had to be pushed: the round must read every item.
        var needsEveryItem = false
        /// The value digests of the items as read, for the changes to check against.
        var readDigests: [Data: Data] = [:]
        /// Whether some synchronizable items could not be read (their class is locked): then an
        /// item missing from ``local`` may simply be unreadable, and is never taken for deleted.
        var someUnreadable: Bool
        /// Accessibilities whose items could not be read.
        var unreadable: Set<Accessibility>
        /// Records left for a later round (their class is locked here, or the circle moved on
        /// since the pull).
        var deferred: Set<Data> = []
        /// The changes to apply.
        var changes: [SynchronizedChange] = []
        /// Records of items this device keeps to itself (sync never replaces or deletes them).
        var kept: Set<Data> = []
        /// The keychain's change marker when the items were read.
        var marker: Int64?

        init(snapshot: Keychain.SynchronizableSnapshot, cached: [Int64: LocalItemCache.Row], key: CircleKey) {
            kept = Set(snapshot.keptItems.map { $0.identifier(key: key.identifierKey) })
            marker = snapshot.marker
            local.reserveCapacity(snapshot.items.count + snapshot.unchangedRows.count)
            for (item, rowID) in zip(snapshot.items, snapshot.rowIDs) {
                let recordID = item.identifier(key: key.identifierKey)
                let digest = item.valueDigest
                local[recordID] = LocalItem(digest: digest, modificationDate: item.modificationDate, item: item)
                readDigests[recordID] = digest
                if let stamp = snapshot.stamps[rowID] {
                    rows[rowID] = LocalItemCache.Row(
                        stamp: stamp, recordID: recordID, digest: digest, modificationDate: item.modificationDate)
                }
            }
            for rowID in snapshot.unchangedRows {
                guard let row = cached[rowID] else { continue }
                local[row.recordID] = LocalItem(digest: row.digest, modificationDate: row.modificationDate, item: nil)
                readDigests[row.recordID] = row.digest
                rows[rowID] = row
            }
            unreadable = snapshot.lockedAccessibilities
            someUnreadable = !snapshot.lockedAccessibilities.isEmpty
        }
    }

    /// Merges everything `result` pulled into a copy of the state: each record decided against
    /// this device's item, deletions compacted away applied, restored copies of deleted values
    /// removed, and the counters moved on (the sequence only when no record was left for a
    /// later round).
    mutating func merge(_ result: PullResult, round: inout Merge) throws(SyncError) -> SyncState {
        let (manifest, key, pulled) = (result.manifest, result.key, result.pulled)
        var merged = state
        for entry in pulled { merge(entry, into: &merged, round: &round) }
        for (recordID, agreed) in result.compactedAway {
            applyCompactedDeletion(recordID, agreed: agreed, into: &merged, round: &round)
        }
        try removeRevokedCopies(merged, decided: Set(pulled.map(\.record.recordID)), round: &round, key: key)
        merged.verifiedCounter = manifest.counter
        // Known only when every record up to the manifest is merged (the idle check relies on it).
        merged.verifiedManifestHash = Data()
        if round.deferred.isEmpty {
            let highest = pulled.map(\.record.sequence).max() ?? 0
            merged.pulledSequence = result.wasFull ? highest : max(state.pulledSequence, highest)
            merged.mergedCounter = manifest.counter
            merged.verifiedManifestHash = manifest.fingerprint(key: key)
        }
        return merged
    }

    /// Decides one pulled record against this device's item and agreed state.
    mutating func merge(_ pulled: Pulled, into merged: inout SyncState, round: inout Merge) {
        let recordID = pulled.record.recordID
        let content = pulled.content
        let agreed = state.entries[recordID]
        let agreedEntry = SyncState.Entry(
            version: pulled.record.version, digest: content.digest, accessibility: content.item.accessibility,
            isTombstone: content.kind == .tombstone, writtenAt: pulled.writtenAt)
        if let agreed, agreed.version == pulled.record.version {  // already agreed (checked equal in pull)
            merged.entries[recordID]?.writtenAt = pulled.writtenAt
            return
        }
        if agreesWithoutTaking(content, recordID: recordID, agreed: agreed, round: round) {
            merged.entries[recordID] = agreedEntry
            return
        }
        let localItem = round.local[recordID]
        // This device cannot decide while the item may be unreadable here, nor write a class that is locked.
        let writable = keychain.lockState.allows(content.item.accessibility.protectionClass)
        if !writable || (localItem == nil && round.someUnreadable) {
            round.deferred.insert(recordID)
            report.deferredWhileLocked += 1
            return
        }
        // The same value on both sides (this device's own push coming back, or both made the same change).
        if localItem?.digest == content.digest || (content.kind == .tombstone && localItem == nil) {
            merged.entries[recordID] = agreedEntry
            return
        }
        // Either way this device now agrees with the record; a change of its own that wins
        // differs from it and is pushed over it.
        merged.entries[recordID] = agreedEntry
        if keepsLocalChange(against: content, localItem: localItem, agreed: agreed) { return }
        take(content, recordID: recordID, localItem: localItem, round: &round)
    }

    /// Whether this device agrees with a record without taking its content: the record carries
    /// what it agreed with over a key rotation, holds a value the circle deleted, or names an
    /// item this device keeps to itself.
    private func agreesWithoutTaking(_ content: RecordContent, recordID: Data, agreed: SyncState.Entry?, round: Merge)
        -> Bool
    {
        if let agreed, agreed.version == 0, agreed.digest == content.digest {
            // Carried over a key rotation and unchanged by the circle: whatever this device did
            // to the item since (pushed below) is the only change.
            return true
        }
        if content.kind == .value && state.deletedValues.contains(content.digest) {
            // Exactly a value the circle deleted and compacted away, pushed again (by a device
            // that restored it and did not know): it stays deleted. This device agrees with the
            // record and deletes it again: its local copy is removed and the deletion pushed below.
            return true
        }
        // This device keeps its own item under that key (protected, generated inside, or
        // this device only): it agrees with the record without taking it.
        return round.kept.contains(recordID)
    }

    /// Whether a change made here since this device last agreed wins over `content` (it is then
    /// pushed over the record); counts the conflict, and a restored copy of a deleted value
    /// that loses.
    private mutating func keepsLocalChange(
        against content: RecordContent, localItem: Merge.LocalItem?, agreed: SyncState.Entry?
    ) -> Bool {
        // What this device agreed with before counts even across a key rotation (version 0).
        let changedHere: Bool
        if let agreed {
            changedHere = agreed.isTombstone ? localItem != nil : localItem?.digest != agreed.digest
        } else {
            changedHere = localItem != nil
        }
        guard changedHere else { return false }
        report.conflicts += 1
        if let localItem {
            // A value wins over a deletion as a change made after this device agreed with the
            // circle; an item it never agreed on (restored, or from before it joined) loses to
            // a deletion only when it is the deleted value or older.
            let localWins =
                agreed == nil && content.kind == .tombstone
                ? !content.deletes(digest: localItem.digest, modificationDate: localItem.modificationDate)
                : RecordContent.wins(
                    kind: .value, modificationDate: localItem.modificationDate, digest: localItem.digest, over: content)
            if localWins { return true }
            if agreed == nil && content.kind == .tombstone { report.revokedCopiesRemoved += 1 }
            return false
        }
        return RecordContent(kind: .tombstone, author: state.deviceID, item: tombstoneItem(content.item)).wins(
            over: content)
    }

    /// Applies `content` here: writes its value or deletes the local item.
    private mutating func take(
        _ content: RecordContent, recordID: Data, localItem: Merge.LocalItem?, round: inout Merge
    ) {
        switch content.kind {
        case .value:
            round.changes.append(
                SynchronizedChange(.upsert, content.item, expectedLocalDigest: round.readDigests[recordID]))
            round.local[recordID] = Merge.LocalItem(
                digest: content.digest, modificationDate: content.modificationDate, item: content.item)
        case .tombstone:
            if localItem != nil {
                round.changes.append(
                    SynchronizedChange(.delete, content.item, expectedLocalDigest: round.readDigests[recordID]))
            }
            round.local[recordID] = nil
        }
        report.applied += 1
    }

    /// A value this device agreed with was deleted and compacted away while its state was behind:
    /// the deletion is applied here if the item is still as agreed; a change made here since is
    /// kept (and pushed as a new item).
    mutating func applyCompactedDeletion(
        _ recordID: Data, agreed: SyncState.Entry, into merged: inout SyncState, round: inout Merge
    ) {
        guard let local = round.local[recordID], local.digest == agreed.digest else { return }
        guard let item = local.item else {
            round.needsEveryItem = true
            return
        }
        guard keychain.lockState.allows(item.accessibility.protectionClass) else {
            // Kept as agreed until the class can be written: the next round reads everything again.
            merged.entries[recordID] = agreed
            round.deferred.insert(recordID)
            report.deferredWhileLocked += 1
            return
        }
        round.changes.append(SynchronizedChange(.delete, item, expectedLocalDigest: agreed.digest))
        round.local[recordID] = nil
        report.applied += 1
    }

    /// A deletion of `item` made on this device, dated when this sync saw it (the keychain keeps
    /// no deletion times; a deletion never wins over a value, see ``RecordContent/wins(over:)``).
    func tombstoneItem(_ item: SynchronizedItem) -> SynchronizedItem {
        var attributes = item.attributes
        attributes[.modificationDate] = .date(Date())
        return SynchronizedItem(itemClass: item.itemClass, attributes: attributes, data: Data())
    }
}
