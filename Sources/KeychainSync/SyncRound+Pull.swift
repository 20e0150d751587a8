import Foundation
import KeychainCore

// A round's first phase: read the manifest, the new records and the roster in one snapshot
// of the server, and verify them against what this device already agreed with.
extension SyncRound {
    /// A record pulled and opened.
    struct Pulled {
        var record: SyncServer.StoredRecord
        var content: RecordContent
        /// The manifest counter of the push that wrote it (authenticated, unlike the sequence number).
        var writtenAt: Int64
    }

    /// What a pull read and verified.
    struct PullResult {
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

    /// What one snapshot of the server holds for a pull.
    private struct ServerSnapshot {
        /// The manifest's row, `nil` when it is gone.
        var manifest: (counter: Int64, body: Data)?
        /// The records after the sequence number asked for.
        var records: [SyncServer.StoredRecord]
        /// The roster from the last event this device verified on.
        var rosterTail: [(position: Int64, body: Data)]
        /// The circle's deleted values, when the manifest names others than this device holds.
        var deletedValuesBody: Data?
    }

    /// Reads the manifest and the new records (all of them when `full`) in one snapshot, opens
    /// and checks them; `nil` when they do not add up to the manifest. A manifest under a newer
    /// key generation (a member removed a device) makes this device take the new key first and
    /// read everything under it.
    mutating func pull(full: Bool) throws(SyncError) -> PullResult? {
        let since = full ? 0 : state.pulledSequence
        let snapshot = try readServer(recordsAfter: since)
        guard let row = snapshot.manifest else {
            throw SyncError.tampered("no manifest for this circle (its rows were deleted)")
        }
        if let generation = Manifest.claimedGeneration(of: row.body), generation != state.entriesGeneration {
            guard generation > state.entriesGeneration else {
                throw SyncError.tampered(
                    "a manifest under an older circle key than this device holds (a rollback past a removal)")
            }
            try adoptKeyGeneration(generation)
            return try pull(full: true)
        }
        let (manifest, key) = try openManifest(row)
        try checkRoster(snapshot.rosterTail, key: key)
        try forgetCompactedDeletions(manifest: manifest, deletedValuesBody: snapshot.deletedValuesBody, key: key)
        if since > 0 && snapshot.records.isEmpty && isVerified(manifest, key: key) {
            // Exactly the manifest this device verified with every record merged, and nothing
            // after it: the records add up as they did then (no need to sum every entry again).
            return PullResult(manifest: manifest, key: key, pulled: [], wasFull: false)
        }
        let (pulled, current, seen) = try openRecords(snapshot.records, after: since, manifest: manifest, key: key)
        let compactedAway = since == 0 ? try dropAgreedRecordsMissingFrom(seen) : [:]
        guard addsUp(current, to: manifest, key: key) else { return nil }
        report.received += pulled.filter { state.entries[$0.record.recordID]?.version != $0.record.version }.count
        return PullResult(manifest: manifest, key: key, pulled: pulled, wasFull: full, compactedAway: compactedAway)
    }

    /// Whether `manifest` is the one this device last verified with every record merged
    /// (``SyncState/verifiedManifestHash``).
    func isVerified(_ manifest: Manifest, key: CircleKey) -> Bool {
        manifest.counter == state.verifiedCounter && !state.verifiedManifestHash.isEmpty
            && manifest.fingerprint(key: key) == state.verifiedManifestHash
    }

    /// Whether nothing happened since the state was saved, told from its header alone
    /// (``SyncStateStore/loadHeader(from:)``): nothing wrote to the keychain (its change marker is
    /// the one saved), and the server shows exactly the manifest this device verified with
    /// every record merged, no record after the last pull and the roster event it verified.
    /// A manifest or roster that fails verification throws, as a full round's would.
    mutating func isIdle() throws(SyncError) -> Bool {
        guard !pullsEverything, state.localMarker >= 0, !state.verifiedManifestHash.isEmpty,
            state.pulledSequence > 0, (try? keychain.changeMarker()) == state.localMarker
        else {
            return false
        }
        let snapshot = try readServer(recordsAfter: state.pulledSequence)
        guard snapshot.records.isEmpty, let row = snapshot.manifest, row.counter == state.verifiedCounter,
            Manifest.claimedGeneration(of: row.body) == state.entriesGeneration
        else {
            return false
        }
        let (manifest, key) = try openManifest(row)
        guard isVerified(manifest, key: key), manifest.compactedThrough == state.compactedThrough,
            manifest.deletedValuesHash == state.deletedValuesHash
        else {
            return false
        }
        try checkRoster(snapshot.rosterTail, key: key)
        return !rosterMoved
    }

    /// Reads the manifest, the records after `since`, the roster's tail and (when the manifest
    /// names others than this device holds) the circle's deleted values, in one read-only snapshot.
    private func readServer(recordsAfter since: Int64) throws(SyncError) -> ServerSnapshot {
        let server = server
        let rosterFrom = max(0, state.rosterPin.count - 1)
        let knownDeletedValues = state.deletedValuesHash
        let (row, records, rosterTail, deletedValuesBody) = try server.connection.transaction(
            "ISOLATION LEVEL REPEATABLE READ READ ONLY"
        ) {
            () throws(SyncError) -> (
                (counter: Int64, body: Data)?, [SyncServer.StoredRecord], [(position: Int64, body: Data)], Data?
            ) in
            let row = try server.manifest(forUpdate: false)
            // The circle's deleted values only when the manifest names others than this device holds.
            let readsDeletedValues =
                row.map { Manifest.claimedDeletedValuesHash(of: $0.body) != knownDeletedValues } ?? false
            return (
                row, try server.records(after: since), try server.rosterRows(from: rosterFrom),
                readsDeletedValues ? try server.deletedValues() : nil
            )
        }
        return ServerSnapshot(
            manifest: row, records: records, rosterTail: rosterTail, deletedValuesBody: deletedValuesBody)
    }

    /// Opens the manifest with this device's keys and checks it is no older than what this
    /// device verified, under the key generation it holds.
    private func openManifest(_ row: (counter: Int64, body: Data)) throws(SyncError) -> (Manifest, CircleKey) {
        let keys = state.keys
        let manifest = try Manifest.open(row.body, counter: row.counter) { keys[$0] }
        guard manifest.counter >= state.verifiedCounter else {
            throw SyncError.tampered(
                "an older state of the circle than this device already verified (counter \(manifest.counter) < \(state.verifiedCounter)): a rollback"
            )
        }
        guard manifest.generation == state.entriesGeneration, let key = keys[manifest.generation] else {
            throw SyncError.circleKeyNotReceived(generation: manifest.generation, held: state.entriesGeneration)
        }
        return (manifest, key)
    }

    /// Deletions every member had are gone from the server: forgets them too (the same item
    /// may since have been added again, from version 1), and remembers the values they deleted,
    /// as the manifest names them.
    private mutating func forgetCompactedDeletions(manifest: Manifest, deletedValuesBody: Data?, key: CircleKey)
        throws(SyncError)
    {
        let compacted = manifest.compactedThrough
        guard compacted >= state.compactedThrough else {
            throw SyncError.tampered("a compaction point lower than one this device already saw (a rollback)")
        }
        state.compactedThrough = compacted
        if compacted > 0, state.entries.values.contains(where: { $0.isCompacted(through: compacted) }) {
            state.entries = state.entries.filter { !$0.value.isCompacted(through: compacted) }
        }
        if manifest.deletedValuesHash != state.deletedValuesHash {
            state.deletedValues = try DeletedValues.open(deletedValuesBody, hash: manifest.deletedValuesHash, key: key)
            state.deletedValuesHash = manifest.deletedValuesHash
        }
    }

    /// Opens and verifies every record read after `since`; returns them, the version and value
    /// digest of every record the manifest should count, and the ids read.
    private func openRecords(
        _ records: [SyncServer.StoredRecord], after since: Int64, manifest: Manifest, key: CircleKey
    ) throws(SyncError)
        -> (pulled: [Pulled], current: [Data: (version: Int64, digest: Data)], seen: Set<Data>)
    {
        var pulled: [Pulled] = []
        pulled.reserveCapacity(records.count)
        // Version 0 marks an entry carried over a key rotation whose record was not seen yet.
        // A full pull must itself hold every record: what this device agreed with does not count.
        var current: [Data: (version: Int64, digest: Data)] =
            since == 0
            ? [:]
            : state.entries.filter { $0.value.version > 0 }.mapValues { ($0.version, $0.digest) }
        var seen: Set<Data> = []
        for record in records {
            guard record.sequence > since, seen.insert(record.recordID).inserted else {
                throw SyncError.tampered("a record with a malformed sequence number, or the same record twice")
            }
            let (content, writtenAt) = try record.verified(
                against: manifest, key: key, agreed: state.entries[record.recordID], keychain: keychain)
            current[record.recordID] = (record.version, content.digest)
            pulled.append(Pulled(record: record, content: content, writtenAt: writtenAt))
        }
        return (pulled, current, seen)
    }

    /// After a full pull: everything this device agreed with must still be there, but for
    /// deletions compacted away. A value can be gone only as a deletion compacted after this
    /// device acknowledged it: its state went back (a restored snapshot) to before it merged the
    /// deletion. Forgets the missing entries and returns the values among them, by record id.
    private mutating func dropAgreedRecordsMissingFrom(_ seen: Set<Data>) throws(SyncError) -> [Data: SyncState.Entry] {
        var compactedAway: [Data: SyncState.Entry] = [:]
        for (recordID, agreed) in state.entries where agreed.version > 0 && !seen.contains(recordID) {
            guard agreed.isTombstone || state.compactedThrough > state.mergedCounter else {
                throw SyncError.tampered("a record this device agreed with is gone from the server (dropped)")
            }
            if !agreed.isTombstone { compactedAway[recordID] = agreed }
            state.entries[recordID] = nil
        }
        return compactedAway
    }

    /// Whether the records the manifest should count are exactly the ones it authenticates.
    private func addsUp(_ current: [Data: (version: Int64, digest: Data)], to manifest: Manifest, key: CircleKey)
        -> Bool
    {
        var digest = SetDigest()
        for (recordID, value) in current {
            digest.insert(recordID: recordID, version: value.version, content: value.digest, key: key)
        }
        return digest == manifest.digest && Int64(current.count) == manifest.recordCount
    }
}
