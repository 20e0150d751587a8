import Foundation
import KeychainCore

extension SyncRound {
    /// Takes every item this device holds as exactly a value the circle deleted for that
    /// deletion: removes it here (reported in ``SyncReport/revokedCopiesRemoved``) instead of
    /// pushing it back. Such a copy comes from a backup (`keychain import`) or a snapshot made
    /// before the deletion, on a member or on a device set up from it; without this it would look
    /// like a write made after agreeing with the circle, which wins over a deletion.
    ///
    /// "Exactly" is the value digest, which covers every attribute, the creation and modification
    /// dates included, and the data: a value written anew (added again, or edited: any update
    /// moves the modification date) is never taken for a revoked copy. The deleted value is
    /// known from the deletion record this device agreed with while it is on the server
    /// (``RecordContent/deletedDigest``), and from the circle's ``DeletedValues`` once it was
    /// compacted away.
    ///
    /// - Parameter decided: records pulled this round, which ``merge`` already decided against
    ///   the deletion record itself.
    mutating func removeRevokedCopies(_ merged: SyncState, decided: Set<Data>, round: inout Merge, key: CircleKey)
        throws(SyncError)
    {
        var revoked: [Data] = []
        for (recordID, local) in round.local where !round.deferred.contains(recordID) {
            if merged.deletedValues.contains(local.digest) {
                revoked.append(recordID)
                continue
            }
            guard !decided.contains(recordID), let agreed = merged.entries[recordID], agreed.isTombstone,
                agreed.version > 0
            else { continue }
            switch try deletedValue(of: recordID, agreed: agreed, key: key) {
            case .some(let deleted) where deleted == local.digest:
                revoked.append(recordID)
            case .some:
                continue
            case .none:
                // The circle moved on since the pull: a later round decides, and nothing is pushed meanwhile.
                round.deferred.insert(recordID)
                round.marker = nil
            }
        }
        for recordID in revoked {
            guard let item = round.local[recordID]?.item else {
                round.needsEveryItem = true  // remembered, not read: the round reads every item and goes again
                continue
            }
            round.changes.append(SynchronizedChange(.delete, item, expectedLocalDigest: round.readDigests[recordID]))
            round.local[recordID] = nil
            report.revokedCopiesRemoved += 1
            report.applied += 1
        }
    }

    /// The digest of the value the deletion of `recordID` this device agreed with (`agreed`)
    /// deleted, read from its record (zeros for a deletion written before deletions named their
    /// value); `nil` when the record is no longer at that version (the circle moved on since the
    /// pull: pushed over, compacted, or a key rotation).
    /// - Throws: ``SyncError/Code/tampered`` for a record at that version that is not the deletion
    ///   this device agreed with.
    private func deletedValue(of recordID: Data, agreed: SyncState.Entry, key: CircleKey) throws(SyncError) -> Data? {
        guard let stored = try server.record(recordID), stored.version == agreed.version else { return nil }
        let content = try RecordSealer.open(stored.body, recordID: recordID, version: stored.version, key: key)
        guard content.kind == .tombstone, content.digest == agreed.digest else {
            throw SyncError.tampered("a record whose content differs from the agreed version")
        }
        return content.deletedDigest
    }
}
