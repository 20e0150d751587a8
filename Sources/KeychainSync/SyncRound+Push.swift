import Foundation
import KeychainCore

// A round's third phase: write what this device has that the circle does not.
extension SyncRound {
    /// A record this device writes.
    struct Push {
        var recordID: Data
        var content: RecordContent
    }

    /// What this device has that the circle does not: items added or changed here, and
    /// deletions of items the circle still has. Records deferred this round are left alone.
    func pendingPushes(round: inout Merge, merged: SyncState, key: CircleKey) throws(SyncError) -> [Push] {
        var pushes: [Push] = []
        for (recordID, local) in round.local where !round.deferred.contains(recordID) {
            if let agreed = merged.entries[recordID], agreed.version > 0, !agreed.isTombstone,
                agreed.digest == local.digest
            {
                continue
            }
            guard let item = local.item else {
                round.needsEveryItem = true
                continue
            }
            pushes.append(
                Push(recordID: recordID, content: RecordContent(kind: .value, author: state.deviceID, item: item)))
        }
        // A missing item is a deletion only when every synchronizable item could be read.
        if !round.someUnreadable {
            for (recordID, agreed) in merged.entries
            where agreed.version > 0 && !agreed.isTombstone && round.local[recordID] == nil
                && !round.deferred.contains(recordID) && !round.kept.contains(recordID)
            {
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
                guard content.digest == agreed.digest else {
                    throw SyncError.tampered("a record whose content differs from the agreed version")
                }
                var tombstone = RecordContent(
                    kind: .tombstone, author: state.deviceID, item: tombstoneItem(content.item))
                (tombstone.deletedDigest, tombstone.deletedModificationDate) = (
                    content.digest, content.modificationDate
                )
                pushes.append(Push(recordID: recordID, content: tombstone))
            }
        }
        return pushes.sorted { $0.recordID.lexicographicallyPrecedes($1.recordID) }
    }

    /// How a push ended.
    enum PushOutcome {
        /// Written; the state after it.
        case pushed(SyncState)
        /// Another device pushed since the pull.
        case raced
        /// A record's version on the server is not the one this device agreed with.
        case stale
    }

    /// Writes `pushes` and the next manifest in one server transaction, provided nobody pushed
    /// since `manifest` and every record is at the version this device agreed with.
    func push(_ pushes: [Push], over manifest: Manifest, state: SyncState, key: CircleKey, advancesSequence: Bool)
        throws(SyncError) -> PushOutcome
    {
        let server = server
        let staleMarker = "keychain-sync stale push"
        do {
            return try server.connection.transaction { () throws(SyncError) -> PushOutcome in
                guard let row = try server.manifest(forUpdate: true), row.counter == manifest.counter else {
                    return .raced
                }
                var next = manifest
                var updated = state
                var highestSequence = state.pulledSequence
                let writtenAt = manifest.counter + 1
                for push in pushes {
                    let previous = state.entries[push.recordID].flatMap { $0.version > 0 ? $0 : nil }
                    if let previous {
                        next.digest.remove(
                            recordID: push.recordID, version: previous.version, content: previous.digest, key: key)
                    } else {
                        next.recordCount += 1
                    }
                    let version = (previous?.version ?? 0) + 1
                    next.digest.insert(
                        recordID: push.recordID, version: version, content: push.content.digest, key: key)
                    let body = try RecordSealer.seal(
                        push.content, recordID: push.recordID, version: version, writtenAt: writtenAt, key: key)
                    guard
                        let sequence = try server.write(
                            recordID: push.recordID, version: version, body: body, replacing: previous?.version)
                    else {
                        throw SyncError.staleRecordVersion(marker: staleMarker)
                    }
                    highestSequence = max(highestSequence, sequence)
                    updated.entries[push.recordID] = SyncState.Entry(
                        version: version, digest: push.content.digest,
                        accessibility: push.content.item.accessibility,
                        isTombstone: push.content.kind == .tombstone, writtenAt: writtenAt)
                }
                next.counter += 1
                next.author = state.deviceID
                try server.writeManifest(counter: next.counter, body: next.sealed(key: key))
                updated.verifiedCounter = next.counter
                // Pushes are serialised by the manifest lock and nobody pushed since the pull, so every
                // record up to these sequence numbers is known here (unless some wait for a locked class).
                updated.verifiedManifestHash = Data()
                if advancesSequence {
                    updated.pulledSequence = max(state.pulledSequence, highestSequence)
                    updated.mergedCounter = next.counter
                    updated.verifiedManifestHash = next.fingerprint(key: key)
                }
                return .pushed(updated)
            }
        } catch {
            // Rolled back; the next attempt reads every record again.
            if error.sqlState == staleMarker { return .stale }
            throw error
        }
    }
}
