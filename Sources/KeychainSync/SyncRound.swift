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

    /// How many times a push starts over when other devices keep pushing first.
    static let attempts = 16

    /// A record pulled and opened.
    private struct Pulled {
        var record: SyncServer.StoredRecord
        var content: RecordContent
    }

    /// Runs the round and returns the state it saved.
    mutating func run() throws(SyncError) -> SyncState {
        try adoptNewKeyGeneration()
        for attempt in 0..<Self.attempts {
            report.retries = attempt
            let (manifest, key, pulled) = try pull()
            let snapshot: Keychain.SynchronizableSnapshot
            do { snapshot = try keychain.synchronizableItems() } catch { throw SyncError(error) }
            report.protectedItemsNotSynced = snapshot.protectedItems
            var local: [Data: SynchronizedItem] = [:]
            local.reserveCapacity(snapshot.items.count)
            for item in snapshot.items { local[item.identifier(key: key.identifierKey)] = item }

            var merged = state
            var changes: [SynchronizedChange] = []
            var lockedRecords = false
            for entry in pulled {
                merge(entry, local: &local, key: key, into: &merged, changes: &changes, lockedRecords: &lockedRecords)
            }
            merged.verifiedCounter = manifest.counter
            if !lockedRecords { merged.pulledSequence = pulled.map(\.record.sequence).max() ?? state.pulledSequence }
            let pushes = try pendingPushes(local: local, merged: merged, key: key)
            if pushes.isEmpty {
                merged.lastSync = Date().timeIntervalSince1970
                try save(merged, changes)
                report.counter = manifest.counter
                return state
            }
            if let pushedState = try push(pushes, over: manifest, state: merged, key: key, advancesSequence: !lockedRecords) {
                var saved = pushedState
                saved.lastSync = Date().timeIntervalSince1970
                try save(saved, changes)
                report.pushed += pushes.count
                report.counter = saved.verifiedCounter
                return state
            }
            // Another device pushed between the pull and the push: keep what was pulled, go again.
            try save(merged, changes)
        }
        throw SyncError(.serverUnreachable, "Other devices kept pushing while this one tried to (\(Self.attempts) attempts); nothing was lost. Sync again in a moment.")
    }

    // MARK: - Pull

    /// Reads the manifest and the new records in one snapshot, opens and checks them.
    private mutating func pull() throws(SyncError) -> (Manifest, CircleKey, [Pulled]) {
        let server = server
        let since = pullsEverything ? 0 : state.pulledSequence
        let (row, records) = try server.connection.transaction("ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            () throws(SyncError) -> ((counter: Int64, body: Data)?, [SyncServer.StoredRecord]) in
            (try server.manifest(forUpdate: false), try server.records(after: since))
        }
        guard let row else {
            throw SyncError.tampered("no manifest for this circle (its rows were deleted)")
        }
        let keys = state.keys
        let manifest = try Manifest.open(row.body, counter: row.counter) { keys[$0] }
        guard manifest.counter >= state.verifiedCounter else {
            throw SyncError.tampered("an older state of the circle than this device already verified (counter \(manifest.counter) < \(state.verifiedCounter)): a rollback")
        }
        guard manifest.generation == state.entriesGeneration, let key = keys[manifest.generation] else {
            throw SyncError(.removed, "The circle moved to key generation \(manifest.generation) and this device holds \(state.entriesGeneration); it must receive the new key (run a sync again) or was removed.")
        }
        var pulled: [Pulled] = []
        pulled.reserveCapacity(records.count)
        var versions = state.entries.mapValues(\.version)
        for record in records {
            let content = try RecordSealer.open(record.body, recordID: record.recordID, version: record.version, key: key)
            if let agreed = state.entries[record.recordID] {
                if record.version < agreed.version {
                    throw SyncError.tampered("an older version of a record than this device already agreed with (a replay)")
                }
                if record.version == agreed.version && content.digest != agreed.digest {
                    throw SyncError.tampered("a record version whose content differs from what this device agreed with at that version (the server showed devices different histories)")
                }
            }
            guard content.item.maySync else {
                throw SyncError.tampered("a record holding an item that may not sync")
            }
            versions[record.recordID] = record.version
            pulled.append(Pulled(record: record, content: content))
        }
        var digest = SetDigest()
        // Version 0 marks an entry carried over a key rotation whose record was not seen yet.
        versions = versions.filter { $0.value > 0 }
        for (recordID, version) in versions { digest.insert(recordID: recordID, version: version, key: key) }
        guard digest == manifest.digest, Int64(versions.count) == manifest.recordCount else {
            throw SyncError.tampered("records that do not add up to the circle's manifest (a record was dropped, withheld or replayed)")
        }
        report.received += pulled.filter { state.entries[$0.record.recordID]?.version != $0.record.version }.count
        return (manifest, key, pulled)
    }

    // MARK: - Key rotation

    /// When a member removed a device, the circle moved to a new key generation and every record
    /// got a new id: takes the new key from the wraps addressed to this device, carries what it
    /// agreed over to the new ids, and pulls everything again (verified as ever).
    ///
    /// - Throws: ``SyncError/Code/removed`` when no wrap for the new generation is addressed to
    ///   this device: it was removed.
    private mutating func adoptNewKeyGeneration() throws(SyncError) {
        guard let row = try server.manifest(forUpdate: false), row.body.count >= 12 else { return }
        let generation = Data(row.body)[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard generation > state.entriesGeneration, let old = state.keys[state.entriesGeneration] else { return }
        var keys = state.keys
        for wrapped in try server.keyWraps(for: state.deviceID, after: state.entriesGeneration) {
            let (key, _) = try KeyWrap.unwrap(wrapped, with: state.agreementKey, circleID: state.circleID, device: state.deviceID)
            keys[key.generation] = key
        }
        guard let next = keys[generation] else {
            throw SyncError(.removed, "This device was removed from the sync circle: the circle moved to a new key that was not given to it. Its items stay here; leave the circle (`keychain sync leave`) and join again if it should sync.")
        }
        let snapshot: Keychain.SynchronizableSnapshot
        do { snapshot = try keychain.synchronizableItems() } catch { throw SyncError(error) }
        var entries: [Data: SyncState.Entry] = [:]
        for item in snapshot.items {
            guard var agreed = state.entries[item.identifier(key: old.identifierKey)] else { continue }
            agreed.version = 0
            entries[item.identifier(key: next.identifierKey)] = agreed
        }
        state.keys = [next.generation: next]
        state.entriesGeneration = next.generation
        state.entries = entries
        state.pulledSequence = 0
        try SyncStateStore.save(state, in: keychain)
    }

    // MARK: - Merge

    /// Decides one pulled record against this device's item and agreed state, and updates
    /// `local` to what the keychain holds once `changes` are applied.
    private mutating func merge(_ pulled: Pulled, local: inout [Data: SynchronizedItem], key: CircleKey, into merged: inout SyncState,
                                changes: inout [SynchronizedChange], lockedRecords: inout Bool) {
        let recordID = pulled.record.recordID
        let content = pulled.content
        let agreed = state.entries[recordID]
        let agreedEntry = SyncState.Entry(version: pulled.record.version, digest: content.digest, accessibility: content.item.accessibility,
                                          isTombstone: content.kind == .tombstone)
        if let agreed, agreed.version == pulled.record.version { return }   // already agreed (checked equal in pull)
        let classOpen = keychain.lockState.allows(content.item.accessibility.protectionClass)
            && (agreed.map { keychain.lockState.allows($0.accessibility.protectionClass) } ?? true)
        guard classOpen else {
            lockedRecords = true
            report.deferredWhileLocked += 1
            return
        }
        let localItem = local[recordID]
        let localContent = localItem.map { RecordContent(kind: .value, author: state.deviceID, item: $0) }
        // The same value on both sides (this device's own push coming back, or both made the same change).
        if localContent?.digest == content.digest || (content.kind == .tombstone && localItem == nil) {
            merged.entries[recordID] = agreedEntry
            return
        }
        let changedHere: Bool
        if let agreed {
            changedHere = agreed.isTombstone ? localItem != nil : localContent?.digest != agreed.digest
        } else {
            changedHere = localItem != nil
        }
        if changedHere {
            report.conflicts += 1
            let mine = localContent ?? RecordContent(kind: .tombstone, author: state.deviceID, item: tombstoneItem(content.item))
            if mine.wins(over: content) {
                // Keep this device's change: agree on the version, so the push builds on it.
                merged.entries[recordID] = SyncState.Entry(version: pulled.record.version, digest: Data(), accessibility: mine.item.accessibility,
                                                           isTombstone: agreed?.isTombstone ?? false)
                return
            }
        }
        // What the keychain will hold once the changes are applied, which the push compares with.
        switch content.kind {
        case .value:
            changes.append(.upsert(content.item))
            local[recordID] = content.item
        case .tombstone:
            if localItem != nil { changes.append(.delete(content.item)) }
            local[recordID] = nil
        }
        report.applied += 1
        merged.entries[recordID] = agreedEntry
    }

    /// A deletion of `item`, now.
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
    /// deletions of items the circle still has.
    private func pendingPushes(local: [Data: SynchronizedItem], merged: SyncState, key: CircleKey) throws(SyncError) -> [Push] {
        var pushes: [Push] = []
        for (recordID, item) in local {
            let content = RecordContent(kind: .value, author: state.deviceID, item: item)
            if let agreed = merged.entries[recordID], agreed.version > 0, !agreed.isTombstone, agreed.digest == content.digest { continue }
            pushes.append(Push(recordID: recordID, content: content))
        }
        let deleted = merged.entries.filter { recordID, agreed in
            agreed.version > 0 && !agreed.isTombstone && local[recordID] == nil && keychain.lockState.allows(agreed.accessibility.protectionClass)
        }
        if !deleted.isEmpty {
            // The tombstone names the item by its attributes: read them from the record it replaces.
            for (recordID, agreed) in deleted {
                guard let stored = try server.record(recordID) else {
                    throw SyncError.tampered("no record for an item the circle agreed on")
                }
                let content = try RecordSealer.open(stored.body, recordID: recordID, version: stored.version, key: key)
                guard stored.version >= agreed.version else { throw SyncError.tampered("an older version of a record (a replay)") }
                pushes.append(Push(recordID: recordID, content: RecordContent(kind: .tombstone, author: state.deviceID, item: tombstoneItem(content.item))))
            }
        }
        return pushes.sorted { $0.recordID.lexicographicallyPrecedes($1.recordID) }
    }

    /// Writes `pushes` and the next manifest in one server transaction, provided nobody pushed
    /// since `manifest`. Returns the state after the push, or `nil` when another push came first.
    private func push(_ pushes: [Push], over manifest: Manifest, state: SyncState, key: CircleKey, advancesSequence: Bool) throws(SyncError) -> SyncState? {
        let server = server
        return try server.connection.transaction {
            () throws(SyncError) -> SyncState? in
            guard let row = try server.manifest(forUpdate: true), row.counter == manifest.counter else { return nil }
            var next = manifest
            var updated = state
            var highestSequence = state.pulledSequence
            for push in pushes {
                let previous = state.entries[push.recordID]?.version
                if let previous {
                    next.digest.remove(recordID: push.recordID, version: previous, key: key)
                } else {
                    next.recordCount += 1
                }
                let version = (previous ?? 0) + 1
                next.digest.insert(recordID: push.recordID, version: version, key: key)
                let body = try RecordSealer.seal(push.content, recordID: push.recordID, version: version, key: key)
                highestSequence = max(highestSequence, try server.write(recordID: push.recordID, version: version, body: body))
                updated.entries[push.recordID] = SyncState.Entry(version: version, digest: push.content.digest,
                                                                 accessibility: push.content.item.accessibility,
                                                                 isTombstone: push.content.kind == .tombstone)
            }
            next.counter += 1
            next.author = state.deviceID
            try server.writeManifest(counter: next.counter, body: next.sealed(key: key))
            updated.verifiedCounter = next.counter
            // Pushes are serialised by the manifest lock and nobody pushed since the pull, so every
            // record up to these sequence numbers is known here (unless some wait for a locked class).
            if advancesSequence { updated.pulledSequence = max(state.pulledSequence, highestSequence) }
            return updated
        }
    }

    // MARK: - Saving

    /// Saves `saved` with `changes` in one keychain transaction; changes that found their class
    /// locked after all are given back to the next round.
    private mutating func save(_ saved: SyncState, _ changes: [SynchronizedChange]) throws(SyncError) {
        let outcomes = try SyncStateStore.save(saved, applying: changes, in: keychain)
        var final = saved
        let locked = zip(changes, outcomes).filter { $0.1 == .locked }.map(\.0)
        if !locked.isEmpty, let key = saved.keys[saved.entriesGeneration] {
            for change in locked {
                let item: SynchronizedItem
                switch change { case .upsert(let value), .delete(let value): item = value }
                let recordID = item.identifier(key: key.identifierKey)
                final.entries[recordID] = state.entries[recordID]
            }
            final.pulledSequence = state.pulledSequence
            report.deferredWhileLocked += locked.count
            report.applied -= locked.count
            try SyncStateStore.save(final, in: keychain)
        }
        state = final
    }
}
