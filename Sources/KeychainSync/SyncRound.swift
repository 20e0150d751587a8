import Foundation
import KeychainCore

/// One sync of a device with its circle: pull and verify what changed, merge it with what
/// changed here, push what this device has that the circle does not.
///
/// Every decision compares contents, not who sent what, so a round interrupted at any point
/// (a crash, a lost connection) is simply run again: nothing is lost and nothing duplicated.
struct SyncRound {
    let keychain: Keychain
    let server: SyncServer
    var state: SyncState
    var report = SyncReport()
    /// Pull every record, not only those newer than the last pull: a device then also notices a
    /// record it already had being dropped from the server.
    var pullsEverything = false
    /// Whether this round verified roster events beyond what the saved state had verified (the
    /// state must then be saved, even when nothing else changed).
    private(set) var rosterMoved = false
    /// Whether this round reads every item rather than only the rows changed since the last
    /// sync in this process (``LocalItemCache``).
    private(set) var readsEveryItem = false

    /// How many times a push starts over when other devices keep pushing first.
    static let attempts = 16

    /// A record pulled and opened.
    private struct Pulled {
        var record: SyncServer.StoredRecord
        var content: RecordContent
        /// The manifest counter of the push that wrote it (authenticated, unlike the sequence number).
        var writtenAt: Int64
    }

    /// What a pull read and verified.
    private struct PullResult {
        var manifest: Manifest
        var key: CircleKey
        var pulled: [Pulled]
        /// Whether it read every record (not only those after the last pull).
        var wasFull: Bool
        /// Values this device agreed with that were deleted and compacted away while its state
        /// was behind its own acknowledgement (restored from a snapshot), by record id: their
        /// agreed entries.
        var compactedAway: [Data: SyncState.Entry] = [:]
    }

    /// Runs the round, saving the state as it goes, and returns what it did.
    mutating func run() throws(SyncError) -> SyncReport {
        for attempt in 0..<Self.attempts {
            report.retries = attempt
            // An incremental pull whose records do not add up is read again in full (a sequence
            // that went backwards on the server, after a restore, heals so); only a full pull
            // that does not add up is tampering.
            let full = pullsEverything || state.pulledSequence == 0
            var result = try pull(full: full)
            if result == nil && !full { result = try pull(full: true) }
            guard let result else {
                throw SyncError.tampered("records that do not add up to the circle's manifest (a record was dropped, withheld or replayed)")
            }
            let (manifest, key, pulled) = (result.manifest, result.key, result.pulled)
            if pulled.isEmpty && !pullsEverything && !rosterMoved && state.localMarker >= 0 && manifest.counter == state.verifiedCounter,
               (try? keychain.changeMarker()) == state.localMarker {
                // Nothing arrived and nothing wrote to the keychain since this state was saved.
                report.counter = manifest.counter
                return report
            }
            let reportBefore = report
            // Only the rows that changed since this process last read them, unless they hold
            // something other than what this device agreed with.
            let scope = LocalItemCache.Scope(database: keychain.location.databaseURL.path, circleID: state.circleID, generation: key.generation)
            let cached = readsEveryItem ? [:] : LocalItemCache.rows(for: scope)
            var known: [Int64: Keychain.SynchronizedRowStamp] = [:]
            for (rowID, row) in cached {
                if let agreed = state.entries[row.recordID], agreed.version > 0, !agreed.isTombstone, agreed.digest == row.digest { known[rowID] = row.stamp }
            }
            let snapshot: Keychain.SynchronizableSnapshot
            do { snapshot = try keychain.synchronizableItems(skipping: known) } catch { throw SyncError(error) }
            report.protectedItemsNotSynced = snapshot.protectedItems
            report.itemsRead = snapshot.items.count + snapshot.keptItems.count
            var round = Merge(snapshot: snapshot, cached: cached, key: key)
            LocalItemCache.remember(round.rows, for: scope)
            var merged = state
            for entry in pulled { merge(entry, into: &merged, round: &round) }
            for (recordID, agreed) in result.compactedAway {
                applyCompactedDeletion(recordID, agreed: agreed, into: &merged, round: &round)
            }
            try removeRevokedCopies(merged, decided: Set(pulled.map(\.record.recordID)), round: &round, key: key)
            merged.verifiedCounter = manifest.counter
            if round.deferred.isEmpty {
                let highest = pulled.map(\.record.sequence).max() ?? 0
                merged.pulledSequence = result.wasFull ? highest : max(state.pulledSequence, highest)
                merged.mergedCounter = manifest.counter
            }
            let pushes = try pendingPushes(round: &round, merged: merged, key: key)
            if round.needsEveryItem {
                // A remembered item turned out to be needed whole: read everything and go again.
                readsEveryItem = true
                report = reportBefore
                continue
            }
            if pushes.isEmpty {
                merged.lastSync = Date().timeIntervalSince1970
                try save(merged, round.changes, key: key, sawEverything: !round.someUnreadable, seenMarker: round.marker)
                acknowledge(key: key)
                report.counter = manifest.counter
                return report
            }
            switch try push(pushes, over: manifest, state: merged, key: key, advancesSequence: round.deferred.isEmpty) {
            case .pushed(var saved):
                saved.lastSync = Date().timeIntervalSince1970
                try save(saved, round.changes, key: key, sawEverything: !round.someUnreadable, seenMarker: round.marker)
                acknowledge(key: key)
                report.pushed += pushes.count
                report.counter = saved.verifiedCounter
                return report
            case .raced:
                // Another device pushed between the pull and the push: keep what was pulled, go
                // again (the local changes are still to push, so no marker).
                try save(merged, round.changes, key: key, sawEverything: false, seenMarker: round.marker)
            case .stale:
                // The server's versions are not the ones this device agreed with: read everything again.
                merged.pulledSequence = 0
                try save(merged, round.changes, key: key, sawEverything: false, seenMarker: round.marker)
            }
        }
        throw SyncError.pushRaceLost(attempts: Self.attempts)
    }

    // MARK: - Pull

    /// Reads the manifest and the new records (all of them when `full`) in one snapshot, opens
    /// and checks them; `nil` when they do not add up to the manifest. A manifest under a newer
    /// key generation (a member removed a device) makes this device take the new key first and
    /// read everything under it.
    private mutating func pull(full: Bool) throws(SyncError) -> PullResult? {
        let server = server
        let since = full ? 0 : state.pulledSequence
        let rosterFrom = max(0, state.rosterPin.count - 1)
        let knownDeletedValues = state.deletedValuesHash
        let (row, records, rosterTail, deletedValuesBody) = try server.connection.transaction("ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            () throws(SyncError) -> ((counter: Int64, body: Data)?, [SyncServer.StoredRecord], [(position: Int64, body: Data)], Data?) in
            let row = try server.manifest(forUpdate: false)
            // The circle's deleted values only when the manifest names others than this device holds.
            let readsDeletedValues = row.map { Manifest.claimedDeletedValuesHash(of: $0.body) != knownDeletedValues } ?? false
            return (row, try server.records(after: since), try server.rosterRows(from: rosterFrom), readsDeletedValues ? try server.deletedValues() : nil)
        }
        guard let row else {
            throw SyncError.tampered("no manifest for this circle (its rows were deleted)")
        }
        if let generation = Manifest.claimedGeneration(of: row.body), generation != state.entriesGeneration {
            guard generation > state.entriesGeneration else {
                throw SyncError.tampered("a manifest under an older circle key than this device holds (a rollback past a removal)")
            }
            try adoptKeyGeneration(generation)
            return try pull(full: true)
        }
        let keys = state.keys
        let manifest = try Manifest.open(row.body, counter: row.counter) { keys[$0] }
        guard manifest.counter >= state.verifiedCounter else {
            throw SyncError.tampered("an older state of the circle than this device already verified (counter \(manifest.counter) < \(state.verifiedCounter)): a rollback")
        }
        guard manifest.generation == state.entriesGeneration, let key = keys[manifest.generation] else {
            throw SyncError.circleKeyNotReceived(generation: manifest.generation, held: state.entriesGeneration)
        }
        try checkRoster(rosterTail, key: key)
        // Deletions every member had are gone from the server: forget them too (the same item
        // may since have been added again, from version 1).
        let compacted = manifest.compactedThrough
        guard compacted >= state.compactedThrough else {
            throw SyncError.tampered("a compaction point lower than one this device already saw (a rollback)")
        }
        state.compactedThrough = compacted
        if compacted > 0, state.entries.values.contains(where: { $0.isCompacted(through: compacted) }) {
            state.entries = state.entries.filter { !$0.value.isCompacted(through: compacted) }
        }
        // ...and remember the values they deleted, as the manifest names them.
        if manifest.deletedValuesHash != state.deletedValuesHash {
            state.deletedValues = try DeletedValues.open(deletedValuesBody, hash: manifest.deletedValuesHash, key: key)
            state.deletedValuesHash = manifest.deletedValuesHash
        }
        var pulled: [Pulled] = []
        pulled.reserveCapacity(records.count)
        // Version 0 marks an entry carried over a key rotation whose record was not seen yet.
        // A full pull must itself hold every record: what this device agreed with does not count.
        var current: [Data: (version: Int64, digest: Data)] = since == 0 ? [:]
            : state.entries.filter { $0.value.version > 0 }.mapValues { ($0.version, $0.digest) }
        var seen: Set<Data> = []
        for record in records {
            guard record.sequence > since, seen.insert(record.recordID).inserted else {
                throw SyncError.tampered("a record with a malformed sequence number, or the same record twice")
            }
            let (content, writtenAt) = try record.verified(against: manifest, key: key, agreed: state.entries[record.recordID], keychain: keychain)
            current[record.recordID] = (record.version, content.digest)
            pulled.append(Pulled(record: record, content: content, writtenAt: writtenAt))
        }
        var compactedAway: [Data: SyncState.Entry] = [:]
        if since == 0 {
            // Everything this device agreed with must still be there, but for deletions compacted
            // away. A value can be gone only as a deletion compacted after this device acknowledged
            // it: its state went back (a restored snapshot) to before it merged the deletion.
            for (recordID, agreed) in state.entries where agreed.version > 0 && !seen.contains(recordID) {
                guard agreed.isTombstone || compacted > state.mergedCounter else {
                    throw SyncError.tampered("a record this device agreed with is gone from the server (dropped)")
                }
                if !agreed.isTombstone { compactedAway[recordID] = agreed }
                state.entries[recordID] = nil
            }
        }
        var digest = SetDigest()
        for (recordID, value) in current { digest.insert(recordID: recordID, version: value.version, content: value.digest, key: key) }
        guard digest == manifest.digest, Int64(current.count) == manifest.recordCount else { return nil }
        report.received += pulled.filter { state.entries[$0.record.recordID]?.version != $0.record.version }.count
        return PullResult(manifest: manifest, key: key, pulled: pulled, wasFull: full, compactedAway: compactedAway)
    }

    // MARK: - Roster

    /// Checks the roster events from the last one this device verified on: usually just that
    /// one, unchanged. When members were admitted or left, the whole roster is read and checked
    /// again, and the device moves its pin forward.
    /// - Throws: ``SyncError/Code/tampered`` for a roster that does not continue what this device
    ///   verified; ``SyncError/Code/removed`` when the roster no longer lists this device.
    private mutating func checkRoster(_ tail: [(position: Int64, body: Data)], key: CircleKey) throws(SyncError) {
        let pin = state.rosterPin
        if tail.count == 1, pin.count > 0, tail[0].position == pin.count - 1,
           try RosterEvent.open(tail[0].body, position: tail[0].position, key: key).hash(circleID: state.circleID) == pin.head {
            return
        }
        let roster = try server.roster(key: key, continuing: pin)
        guard roster.members[state.deviceID] != nil, roster.generation == key.generation else {
            throw SyncError.droppedFromRoster
        }
        rosterMoved = rosterMoved || roster.pin != pin
        state.rosterPin = roster.pin
    }

    // MARK: - Key rotation

    /// When a member removed a device, the circle moved to a new key generation and every record
    /// got a new id: takes the new key wrapped to this device, checks that the roster sealed
    /// under it continues what this device verified, records the removal that made the
    /// generation, and is signed by the member that made it; carries what this device agreed
    /// over to the new ids, and pulls everything again (verified as ever).
    ///
    /// - Throws: ``SyncError/Code/removed`` when no key of that generation is wrapped to this
    ///   device, or the roster no longer lists it; ``SyncError/Code/tampered`` for a key or
    ///   roster no member of the circle vouched for.
    private mutating func adoptKeyGeneration(_ generation: UInt32) throws(SyncError) {
        guard let old = state.keys[state.entriesGeneration] else {
            throw SyncError.noCircleKey(generation: state.entriesGeneration)
        }
        guard let wrapped = try server.keyWrap(for: state.deviceID, generation: generation) else {
            throw SyncError.newCircleKeyNotWrapped
        }
        let unwrapped = try KeyWrap.unwrap(wrapped, with: state.agreementKey, circleID: state.circleID, device: state.deviceID)
        let next = unwrapped.key
        let roster = try server.roster(key: next, continuing: state.rosterPin)
        guard next.generation == generation, roster.generation == generation,
              let rotator = roster.rotatedBy[generation], let signingKey = roster.signingKeys[rotator], unwrapped.isSigned(by: signingKey) else {
            throw SyncError.tampered("a new circle key that the circle's roster does not show a member making (no signed removal for it)")
        }
        guard roster.members[state.deviceID] != nil else {
            throw SyncError.removedFromCircle
        }
        // What this device agreed with carries over by item, read from the records themselves, so
        // an item deleted here and not yet pushed is still known as agreed (and its deletion is
        // pushed) rather than taken for new. The full pull that follows verifies every record.
        var entries: [Data: SyncState.Entry] = [:]
        for record in try server.allRecords() {
            guard let content = try? RecordSealer.open(record.body, recordID: record.recordID, version: record.version, key: next),
                  var agreed = state.entries[content.item.identifier(key: old.identifierKey)] else { continue }
            agreed.version = 0
            entries[content.item.identifier(key: next.identifierKey)] = agreed
        }
        state.keys = [next.generation: next]
        state.entriesGeneration = next.generation
        state.entries = entries
        state.pulledSequence = 0
        // Each generation counts its manifests from the floor the member that made it signed.
        state.verifiedCounter = unwrapped.counterFloor
        state.mergedCounter = 0
        state.compactedThrough = 0
        // The deleted values this device knows carry over (they are value digests); the new
        // generation's manifest names the circle's, read by the full pull that follows.
        state.deletedValuesHash = DeletedValues.noHash
        state.rosterPin = roster.pin
        try SyncStateStore.save(state, in: keychain)
    }

    // MARK: - Merge

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
                    rows[rowID] = LocalItemCache.Row(stamp: stamp, recordID: recordID, digest: digest, modificationDate: item.modificationDate)
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

    /// Decides one pulled record against this device's item and agreed state.
    private mutating func merge(_ pulled: Pulled, into merged: inout SyncState, round: inout Merge) {
        let recordID = pulled.record.recordID
        let content = pulled.content
        let agreed = state.entries[recordID]
        let agreedEntry = SyncState.Entry(version: pulled.record.version, digest: content.digest, accessibility: content.item.accessibility,
                                          isTombstone: content.kind == .tombstone, writtenAt: pulled.writtenAt)
        if let agreed, agreed.version == pulled.record.version {   // already agreed (checked equal in pull)
            merged.entries[recordID]?.writtenAt = pulled.writtenAt
            return
        }
        if let agreed, agreed.version == 0, agreed.digest == content.digest {
            // Carried over a key rotation and unchanged by the circle: whatever this device did
            // to the item since (pushed below) is the only change.
            merged.entries[recordID] = agreedEntry
            return
        }
        if content.kind == .value && state.deletedValues.contains(content.digest) {
            // Exactly a value the circle deleted and compacted away, pushed again (by a device
            // that restored it and did not know): it stays deleted. This device agrees with the
            // record and deletes it again: its local copy is removed and the deletion pushed below.
            merged.entries[recordID] = agreedEntry
            return
        }
        if round.kept.contains(recordID) {
            // This device keeps its own item under that key (protected, generated inside, or
            // this device only): it agrees with the record without taking it.
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
        // What this device agreed with before counts even across a key rotation (version 0).
        let changedHere: Bool
        if let agreed {
            changedHere = agreed.isTombstone ? localItem != nil : localItem?.digest != agreed.digest
        } else {
            changedHere = localItem != nil
        }
        // Either way this device now agrees with the record; a change of its own that wins
        // differs from it and is pushed over it.
        merged.entries[recordID] = agreedEntry
        if changedHere {
            report.conflicts += 1
            if let localItem {
                // A value wins over a deletion as a change made after this device agreed with the
                // circle; an item it never agreed on (restored, or from before it joined) loses to
                // a deletion only when it is the deleted value or older.
                let localWins = agreed == nil && content.kind == .tombstone
                    ? !content.deletes(digest: localItem.digest, modificationDate: localItem.modificationDate)
                    : RecordContent.wins(kind: .value, modificationDate: localItem.modificationDate, digest: localItem.digest, over: content)
                if localWins { return }
                if agreed == nil && content.kind == .tombstone { report.revokedCopiesRemoved += 1 }
            } else if RecordContent(kind: .tombstone, author: state.deviceID, item: tombstoneItem(content.item)).wins(over: content) {
                return
            }
        }
        switch content.kind {
        case .value:
            round.changes.append(SynchronizedChange(.upsert, content.item, expectedLocalDigest: round.readDigests[recordID]))
            round.local[recordID] = Merge.LocalItem(digest: content.digest, modificationDate: content.modificationDate, item: content.item)
        case .tombstone:
            if localItem != nil { round.changes.append(SynchronizedChange(.delete, content.item, expectedLocalDigest: round.readDigests[recordID])) }
            round.local[recordID] = nil
        }
        report.applied += 1
    }

    /// A value this device agreed with was deleted and compacted away while its state was behind:
    /// the deletion is applied here if the item is still as agreed; a change made here since is
    /// kept (and pushed as a new item).
    private mutating func applyCompactedDeletion(_ recordID: Data, agreed: SyncState.Entry, into merged: inout SyncState, round: inout Merge) {
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
    private func tombstoneItem(_ item: SynchronizedItem) -> SynchronizedItem {
        var attributes = item.attributes
        attributes[.modificationDate] = .date(Date())
        return SynchronizedItem(itemClass: item.itemClass, attributes: attributes, data: Data())
    }

    // MARK: - Push

    /// A record this device writes.
    private struct Push {
        var recordID: Data
        var content: RecordContent
    }

    /// What this device has that the circle does not: items added or changed here, and
    /// deletions of items the circle still has. Records deferred this round are left alone.
    private func pendingPushes(round: inout Merge, merged: SyncState, key: CircleKey) throws(SyncError) -> [Push] {
        var pushes: [Push] = []
        for (recordID, local) in round.local where !round.deferred.contains(recordID) {
            if let agreed = merged.entries[recordID], agreed.version > 0, !agreed.isTombstone, agreed.digest == local.digest { continue }
            guard let item = local.item else {
                round.needsEveryItem = true
                continue
            }
            pushes.append(Push(recordID: recordID, content: RecordContent(kind: .value, author: state.deviceID, item: item)))
        }
        // A missing item is a deletion only when every synchronizable item could be read.
        if !round.someUnreadable {
            for (recordID, agreed) in merged.entries where agreed.version > 0 && !agreed.isTombstone && round.local[recordID] == nil
                && !round.deferred.contains(recordID) && !round.kept.contains(recordID) {
                // The tombstone names the item by its attributes: read them from the record it replaces.
                // Read outside the pull's snapshot: a newer version (or, after a key rotation, no
                // record) means another device moved on meanwhile, and a later round decides.
                guard let stored = try server.record(recordID), stored.version <= agreed.version else {
                    // Still to push: the next sync must read the keychain again, not skip it.
                    round.marker = nil
                    continue
                }
                guard stored.version == agreed.version else {
                    throw SyncError.tampered("an older version of a record than the circle agreed on (a replay)")
                }
                let content = try RecordSealer.open(stored.body, recordID: recordID, version: stored.version, key: key)
                guard content.digest == agreed.digest else { throw SyncError.tampered("a record whose content differs from the agreed version") }
                var tombstone = RecordContent(kind: .tombstone, author: state.deviceID, item: tombstoneItem(content.item))
                (tombstone.deletedDigest, tombstone.deletedModificationDate) = (content.digest, content.modificationDate)
                pushes.append(Push(recordID: recordID, content: tombstone))
            }
        }
        return pushes.sorted { $0.recordID.lexicographicallyPrecedes($1.recordID) }
    }

    /// How a push ended.
    private enum PushOutcome {
        /// Written; the state after it.
        case pushed(SyncState)
        /// Another device pushed since the pull.
        case raced
        /// A record's version on the server is not the one this device agreed with.
        case stale
    }

    /// Writes `pushes` and the next manifest in one server transaction, provided nobody pushed
    /// since `manifest` and every record is at the version this device agreed with.
    private func push(_ pushes: [Push], over manifest: Manifest, state: SyncState, key: CircleKey, advancesSequence: Bool) throws(SyncError) -> PushOutcome {
        let server = server
        let staleMarker = "keychain-sync stale push"
        do {
            return try server.connection.transaction { () throws(SyncError) -> PushOutcome in
            guard let row = try server.manifest(forUpdate: true), row.counter == manifest.counter else { return .raced }
            var next = manifest
            var updated = state
            var highestSequence = state.pulledSequence
            let writtenAt = manifest.counter + 1
            for push in pushes {
                let previous = state.entries[push.recordID].flatMap { $0.version > 0 ? $0 : nil }
                if let previous {
                    next.digest.remove(recordID: push.recordID, version: previous.version, content: previous.digest, key: key)
                } else {
                    next.recordCount += 1
                }
                let version = (previous?.version ?? 0) + 1
                next.digest.insert(recordID: push.recordID, version: version, content: push.content.digest, key: key)
                let body = try RecordSealer.seal(push.content, recordID: push.recordID, version: version, writtenAt: writtenAt, key: key)
                guard let sequence = try server.write(recordID: push.recordID, version: version, body: body, replacing: previous?.version) else {
                    throw SyncError.staleRecordVersion(marker: staleMarker)
                }
                highestSequence = max(highestSequence, sequence)
                updated.entries[push.recordID] = SyncState.Entry(version: version, digest: push.content.digest,
                                                                 accessibility: push.content.item.accessibility,
                                                                 isTombstone: push.content.kind == .tombstone, writtenAt: writtenAt)
            }
            next.counter += 1
            next.author = state.deviceID
            try server.writeManifest(counter: next.counter, body: next.sealed(key: key))
            updated.verifiedCounter = next.counter
            // Pushes are serialised by the manifest lock and nobody pushed since the pull, so every
            // record up to these sequence numbers is known here (unless some wait for a locked class).
            if advancesSequence {
                updated.pulledSequence = max(state.pulledSequence, highestSequence)
                updated.mergedCounter = next.counter
            }
            return .pushed(updated)
            }
        } catch {
            // Rolled back; the next attempt reads every record again.
            if error.sqlState == staleMarker { return .stale }
            throw error
        }
    }

    // MARK: - Saving

    /// Tells the circle how far this device merged every record, so deletions all members have
    /// can be compacted. Best effort: a missing acknowledgement only holds compaction back.
    private func acknowledge(key: CircleKey) {
        guard state.mergedCounter > 0 else { return }
        let acknowledgement = SyncAcknowledgement(deviceID: state.deviceID, counter: state.mergedCounter)
        try? server.writeAcknowledgement(state.deviceID, body: acknowledgement.sealed(key: key))
    }

    /// Saves `saved` with `changes` in one keychain transaction. Changes that found their class
    /// locked, or the local item changed by an app meanwhile, are given back to the next round:
    /// the state saved in that same transaction does not count them as agreed.
    private mutating func save(_ saved: SyncState, _ changes: [SynchronizedChange], key: CircleKey, sawEverything: Bool,
                               seenMarker: Int64?) throws(SyncError) {
        let previous = state
        var final = saved
        let outcomes = try SyncStateStore.save(applying: changes, in: keychain, sawEverything: sawEverything, seenMarker: seenMarker) { outcomes in
            var adjusted = saved
            var reverted = false
            for (change, outcome) in zip(changes, outcomes) where outcome != .applied && outcome != .keptLocal {
                let recordID = change.item.identifier(key: key.identifierKey)
                adjusted.entries[recordID] = previous.entries[recordID]
                reverted = true
            }
            if reverted {
                adjusted.pulledSequence = previous.pulledSequence
                adjusted.mergedCounter = previous.mergedCounter
            }
            final = adjusted
            return adjusted
        }
        for outcome in outcomes where outcome != .applied && outcome != .keptLocal {
            if outcome == .locked { report.deferredWhileLocked += 1 }
            report.applied -= 1
        }
        state = final
    }
}
