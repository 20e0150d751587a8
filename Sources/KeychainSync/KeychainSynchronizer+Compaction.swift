import Foundation
import KeychainCore

extension KeychainSynchronizer {
    /// Removes from the server the deletion records every member has merged, and returns how
    /// many it removed.
    ///
    /// A deletion travels as a tombstone record so that a device that was offline learns of it.
    /// Each member acknowledges, after every sync that changed something, the sequence number up
    /// to which it merged every record (``SyncAcknowledgement``); once every current member has
    /// acknowledged a tombstone, no device can miss it any more, and it is removed. The manifest
    /// records how far tombstones were compacted, so the other members forget theirs at their
    /// next sync without reading the circle again. A member that never syncs (a device lost but
    /// not removed) holds compaction back until it is removed.
    ///
    /// ``startInBackground(pollInterval:onEvent:)`` runs this once a day; `keychain sync now
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
            guard let key = state.currentKey, state.entriesGeneration == key.generation else { throw notAMember }
            let connection = try SyncServer.connect(state.server, circleID: state.circleID)
            let compacted = try connection.connection.transaction { () throws(SyncError) -> (state: SyncState, removed: Int)? in
                // Under the manifest lock no device pushes, joins or rotates meanwhile.
                guard let row = try connection.manifest(forUpdate: true), row.counter == state.verifiedCounter else { return nil }
                var manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
                let roster = try connection.roster(key: key, continuing: state.rosterPin)
                let stored = try connection.acknowledgements()
                var through = state.pulledSequence
                for member in roster.members.keys where member != state.deviceID {
                    guard let body = stored[member], let acknowledgement = SyncAcknowledgement.open(body, deviceID: member, key: key) else { return nil }
                    through = min(through, acknowledgement.sequence)
                }
                guard through > manifest.compactedThrough else { return nil }
                var compactedState = state
                var removed = 0
                for stored in try connection.recordVersions(through: through) {
                    // This device merged everything up to `through`: it agrees with each of these versions.
                    guard let agreed = state.entries[stored.recordID], agreed.version == stored.version else { return nil }
                    guard agreed.isTombstone else { continue }
                    guard try connection.deleteRecord(stored.recordID, version: stored.version) else { return nil }
                    manifest.digest.remove(recordID: stored.recordID, version: stored.version, content: agreed.digest, key: key)
                    manifest.recordCount -= 1
                    compactedState.entries[stored.recordID] = nil
                    removed += 1
                }
                guard removed > 0 else { return nil }
                manifest.counter += 1
                manifest.author = state.deviceID
                manifest.compactedThrough = through
                try connection.writeManifest(counter: manifest.counter, body: manifest.sealed(key: key))
                compactedState.verifiedCounter = manifest.counter
                return (compactedState, removed)
            }
            guard let compacted else { return 0 }
            try SyncStateStore.save(compacted.state, in: keychain)
            return compacted.removed
        }
    }
}
