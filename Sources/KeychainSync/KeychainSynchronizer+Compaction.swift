import Foundation
import KeychainCore

extension KeychainSynchronizer {
    /// Removes from the server the deletion records every member has merged, and returns how
    /// many it removed.
    ///
    /// A deletion travels as a tombstone record so that a device that was offline learns of it.
    /// Each member acknowledges, after every sync that changed something, the manifest counter up
    /// to which it merged every record (MAC'd under the circle key); every record carries, sealed,
    /// the counter of the push that wrote it. Once every current member has acknowledged a
    /// tombstone's counter, no device can miss it any more, and it is removed. The manifest
    /// records how far tombstones were compacted, so the other members forget theirs at their
    /// next sync without reading the circle again, and names the circle's list of deleted
    /// values, to which the values these deletions removed are added: a copy of one restored
    /// from a backup later, on a member or a device that joins later, is still taken for the
    /// deletion. A member that never syncs (a device lost but not removed) holds compaction
    /// back until it is removed.
    ///
    /// ``startInBackground(pollInterval:verificationInterval:onEvent:)`` runs this once a day; `keychain sync now
    /// --compact` runs it at once. It syncs first, and removes nothing while this device has
    /// changes waiting for a locked class.
    ///
    /// - Throws: ``SyncError/Code/tampered`` when the server's answers fail verification;
    ///   ``SyncError/Code/serverUnreachable`` when offline.
    @discardableResult
    public func compactDeletions() throws(SyncError) -> Int {
        let report = try syncNow()
        guard report.deferredWhileLocked == 0 else { return 0 }
        return try compactDeletionsAfterSync()
    }

    /// ``compactDeletions()`` for a device that has just synced.
    func compactDeletionsAfterSync() throws(SyncError) -> Int {
        try serialised { () throws(SyncError) -> Int in
            let state = try memberState()
            guard let key = state.currentKey, state.entriesGeneration == key.generation else {
                throw SyncError.notInACircle
            }
            let connection = try SyncServer.connect(state.server, circleID: state.circleID)
            let compacted = try connection.connection.transaction {
                () throws(SyncError) -> (state: SyncState, removed: Int)? in
                // Under the manifest lock no device pushes, joins or rotates meanwhile.
                guard let row = try connection.manifest(forUpdate: true), row.counter == state.verifiedCounter else {
                    return nil
                }
                var manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
                guard manifest.deletedValuesHash == state.deletedValuesHash else {
                    throw SyncError.tampered(
                        "a manifest at the counter this device verified that names other deleted values (the server showed devices different histories)"
                    )
                }
                let roster = try connection.roster(key: key, continuing: state.rosterPin)
                let stored = try connection.acknowledgements()
                var through = state.mergedCounter
                for member in roster.members.keys where member != state.deviceID {
                    guard let body = stored[member],
                        let acknowledgement = SyncAcknowledgement.open(body, deviceID: member, key: key)
                    else { return nil }
                    through = min(through, acknowledgement.counter)
                }
                guard through > manifest.compactedThrough else { return nil }
                // Every deletion written up to `through` goes, and each is checked before any is
                // removed: what the others forget at that point must be exactly what is gone.
                let candidates = state.entries.filter { $0.value.version > 0 && $0.value.isCompacted(through: through) }
                guard !candidates.isEmpty else { return nil }
                var deleted: [Data] = []
                for (recordID, agreed) in candidates {
                    guard let record = try connection.record(recordID), record.version == agreed.version else {
                        return nil
                    }
                    let (content, writtenAt) = try RecordSealer.openStamped(
                        record.body, recordID: recordID, version: record.version, key: key)
                    guard content.kind == .tombstone, content.digest == agreed.digest, writtenAt == agreed.writtenAt
                    else {
                        throw SyncError.tampered("a deletion record that is not the one this device agreed with")
                    }
                    deleted.append(content.deletedDigest)
                }
                var compactedState = state
                for (recordID, agreed) in candidates {
                    guard try connection.deleteRecord(recordID, version: agreed.version) else {
                        throw SyncError.tampered("a deletion record that changed while the circle was locked")
                    }
                    manifest.digest.remove(
                        recordID: recordID, version: agreed.version, content: agreed.digest, key: key)
                    manifest.recordCount -= 1
                    compactedState.entries[recordID] = nil
                }
                manifest.counter += 1
                manifest.author = state.deviceID
                manifest.compactedThrough = through
                // The circle keeps remembering the values these deletions removed (DeletedValues).
                var remembered = state.deletedValues
                remembered.remember(deleted.sorted { $0.lexicographicallyPrecedes($1) })
                if remembered != state.deletedValues {
                    let body = try remembered.sealed(key: key)
                    try connection.writeDeletedValues(body)
                    manifest.deletedValuesHash = DeletedValues.hash(of: body)
                }
                compactedState.deletedValues = remembered
                compactedState.deletedValuesHash = manifest.deletedValuesHash
                try connection.writeManifest(counter: manifest.counter, body: manifest.sealed(key: key))
                compactedState.verifiedCounter = manifest.counter
                compactedState.mergedCounter = manifest.counter
                compactedState.compactedThrough = through
                return (compactedState, candidates.count)
            }
            guard let compacted else { return 0 }
            try SyncStateStore.save(compacted.state, in: keychain)
            return compacted.removed
        }
    }
}
