import Crypto
import Foundation
import KeychainCore

extension KeychainSynchronizer {
    /// Removes a device from the circle (a lost or stolen one, one that left, or one that left
    /// without `leave`), and ends its access to everything written from now on.
    ///
    /// The removal is recorded in the roster under this device's signature. It also removes
    /// every device the removed one admitted (directly or through devices it admitted), since
    /// a device about to be lost or stolen could have admitted devices of its own; the ones in
    /// `kept` stay, vouched for by this device from now on. The circle moves to a new random key
    /// generation, wrapped to each remaining member only and signed by this device; every record
    /// and the roster are sealed again under it, records with new ids, in one server transaction.
    /// The removed devices keep what they already had (nothing can take that back) but cannot
    /// read, or tell apart, anything after the removal. Other members pick up the new key at
    /// their next sync.
    ///
    /// - Parameters:
    ///   - device: the device's id or its name, as ``status()`` lists it (a member or a departed device).
    ///   - kept: ids or names of devices admitted through `device` that stay in the circle.
    ///   - rebuilding: make the new generation's records from this device's own items instead of
    ///     the server's, for when the circle's state on the server fails verification (a member
    ///     about to be removed can damage it). The other members push again what only they have;
    ///     a deletion this device has not seen may bring an item back. The values of the
    ///     deletions this device agreed with stay revoked in the new generation.
    ///   - forgettingUnreadableDeletions: with `rebuilding`, go on when the server no longer holds,
    ///     intact, some deletions this device agreed with (and that were not compacted): their
    ///     values are then not remembered, so a restored copy of one could come back. Without it
    ///     such a rebuild is refused (``SyncError/Code/tampered``) and nothing changes.
    /// - Returns: the members that received the new key.
    /// - Throws: ``SyncError/Code/invalidState`` when a name matches no device or several, or a
    ///   kept device was not admitted through the removed one; ``SyncError/Code/tampered`` when
    ///   the server's records or roster fail verification (see `rebuilding`).
    @discardableResult
    public func removeDevice(
        _ device: String, keeping kept: [String] = [], rebuilding: Bool = false,
        forgettingUnreadableDeletions: Bool = false
    ) throws(SyncError) -> [SyncStatus.Member] {
        // The records are sealed again from what this device agrees with (or holds): nothing may
        // be waiting for a locked class.
        if !rebuilding {
            let report = try syncNow()
            guard report.deferredWhileLocked == 0 else { throw SyncError.lockedForRemoval }
        }
        guard keychain.lockState == .unlocked else { throw SyncError.lockedForRemoval }
        return try serialised { () throws(SyncError) -> [SyncStatus.Member] in
            let state = try memberState()
            guard let key = state.currentKey else { throw SyncError.notInACircle }
            let connection = try SyncServer.connect(state.server, circleID: state.circleID)
            var roster =
                rebuilding
                ? try connection.verifiedRosterPrefix(key: key, continuing: state.rosterPin)
                : try connection.roster(key: key, continuing: state.rosterPin)
            let removal = try Self.removal(of: device, keeping: kept, in: roster, by: state)
            let ended = roster.removedBy(removing: removal.subject, keeping: removal.kept, author: state.deviceID)
            let pinned = roster.pin
            try roster.apply(removal)
            let contents = rebuilding ? try localContents(of: state) : nil
            let rotated = try connection.connection.transaction { () throws(SyncError) -> SyncState? in
                guard let row = try connection.manifest(forUpdate: true) else {
                    throw SyncError.tampered("no manifest for this circle (its rows were deleted)")
                }
                let records: [RecordContent]
                var deletedDigests: [Data] = []
                if let contents {
                    // Only over the generation this device holds: a rebuild never forks off an older one.
                    guard Manifest.claimedGeneration(of: row.body) == key.generation,
                        try connection.verifiedRosterPrefix(key: key, continuing: pinned).pin == pinned
                    else { return nil }
                    records = contents
                    let deletions = try uncompactedDeletions(on: connection, state: state, key: key)
                    guard deletions.unreadable == 0 || forgettingUnreadableDeletions else {
                        throw SyncError.tampered(
                            "the server no longer holds, intact, \(deletions.unreadable) deletion\(deletions.unreadable == 1 ? "" : "s") this device agreed with, so a rebuild would forget the value\(deletions.unreadable == 1 ? "" : "s") they revoked and a restored copy could bring one back. Nothing changed. To remove the device anyway, accepting that, run the removal with --forget-unreadable-deletions (removeDevice(_:keeping:rebuilding:forgettingUnreadableDeletions:)), then delete again any credential you revoked recently"
                        )
                    }
                    deletedDigests = deletions.digests
                } else {
                    guard row.counter == state.verifiedCounter,
                        try connection.roster(key: key, continuing: pinned).pin == pinned
                    else { return nil }
                    records = try verifiedContents(on: connection, row: row, state: state, key: key)
                }
                return try rotate(
                    to: key.next(), records: records, remembering: deletedDigests, roster: roster, ending: ended,
                    on: connection, state: state)
            }
            guard let rotated else {
                throw SyncError.removalRaced
            }
            try SyncStateStore.save(rotated, in: keychain)
            return SyncStatus.Member.list(roster.members.values, thisDevice: state.deviceID)
        }
    }

    /// The signed removal of `device` by this device, checked against the roster's rules.
    private static func removal(of device: String, keeping kept: [String], in roster: Roster, by state: SyncState)
        throws(SyncError) -> RosterEvent
    {
        let candidates = Array(roster.members.values) + Array(roster.departed.values)
        let removed = try member(named: device, among: candidates)
        guard removed.deviceID != state.deviceID else {
            throw SyncError.cannotRemoveItself
        }
        guard roster.generation == state.entriesGeneration, roster.members[state.deviceID] != nil else {
            throw SyncError.noLongerAMemberToRemove
        }
        let through = roster.admittedThrough(removed.deviceID)
        let keptIDs = try kept.map { (name) throws(SyncError) -> UUID in
            try member(named: name, among: Array(roster.members.values)).deviceID
        }
        guard keptIDs.allSatisfy({ $0 != removed.deviceID && through.contains($0) }) else {
            throw SyncError.keptDeviceNotAdmittedThroughRemoved
        }
        var removal = roster.nextEvent(.removed, author: state.deviceID, subject: removed.deviceID)
        removal.newGeneration = roster.generation + 1
        removal.kept = Array(Set(keptIDs))
        try removal.sign(with: state.signingKey, circleID: state.circleID)
        return removal
    }

    /// The server's records, each checked against the verified manifest and what this device
    /// agreed with: none dropped, none older, each valid and under its own id.
    private func verifiedContents(
        on connection: SyncServer, row: (counter: Int64, body: Data), state: SyncState,
        key: CircleKey
    ) throws(SyncError) -> [RecordContent] {
        let manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
        let records = try connection.allRecords()
        var check = SetDigest()
        var contents: [RecordContent] = []
        for record in records {
            let content = try record.verified(
                against: manifest, key: key, agreed: state.entries[record.recordID], keychain: keychain
            ).content
            check.insert(recordID: record.recordID, version: record.version, content: content.digest, key: key)
            contents.append(content)
        }
        guard check == manifest.digest, Int64(records.count) == manifest.recordCount else {
            throw SyncError.tampered(
                "records that do not add up to the circle's manifest (a record was dropped, withheld or replayed): remove with `--rebuild` to rebuild them from this device"
            )
        }
        return contents
    }

    /// This device's own synchronizable items, as the records of a rebuilt circle.
    private func localContents(of state: SyncState) throws(SyncError) -> [RecordContent] {
        let snapshot: Keychain.SynchronizableSnapshot
        do { snapshot = try keychain.synchronizableItems() } catch { throw SyncError(error) }
        guard snapshot.lockedAccessibilities.isEmpty else { throw SyncError.lockedForRemoval }
        return snapshot.items.map { RecordContent(kind: .value, author: state.deviceID, item: $0) }
    }

    /// Writes the next generation: every record sealed again under new ids, the roster with the
    /// removal, the key wrapped and signed to each remaining member, a manifest that starts the
    /// generation's counter at 1 (the floor every member receives with the key). Returns the state after it.
    private func rotate(
        to next: CircleKey, records: [RecordContent], remembering deletedDigests: [Data] = [], roster: Roster,
        ending ended: Set<UUID>, on connection: SyncServer, state: SyncState
    ) throws(SyncError) -> SyncState {
        var entries: [Data: SyncState.Entry] = [:]
        var digest = SetDigest()
        var highest = Int64(0)
        try connection.deleteAllRecords()
        for content in records {
            let recordID = content.item.identifier(key: next.identifierKey)
            let body = try RecordSealer.seal(content, recordID: recordID, version: 1, writtenAt: 1, key: next)
            guard let sequence = try connection.write(recordID: recordID, version: 1, body: body, replacing: nil) else {
                throw SyncError.tampered("two records for one item")
            }
            highest = max(highest, sequence)
            digest.insert(recordID: recordID, version: 1, content: content.digest, key: next)
            entries[recordID] = SyncState.Entry(
                version: 1, digest: content.digest, accessibility: content.item.accessibility,
                isTombstone: content.kind == .tombstone, writtenAt: 1)
        }
        let counter = Int64(1)
        try connection.replaceRoster(roster, key: next)
        for member in roster.members.values {
            let publicKey: Curve25519.KeyAgreement.PublicKey
            do { publicKey = try .init(rawRepresentation: member.agreementKey) } catch {
                throw SyncError.tampered("a roster entry whose public key is invalid")
            }
            try connection.writeKeyWrap(
                member.deviceID, generation: next.generation,
                body: KeyWrap.wrap(
                    next, counterFloor: counter, to: publicKey, device: member.deviceID, signedBy: state.signingKey))
        }
        for device in ended { try connection.deleteKeyWraps(of: device) }
        var manifest = Manifest(
            counter: counter, generation: next.generation, digest: digest, recordCount: Int64(entries.count),
            author: state.deviceID)
        // The values of compacted deletions carry over, sealed under the new key, with those of
        // the deletions a rebuild does not carry as records.
        var deletedValues = state.deletedValues
        deletedValues.remember(deletedDigests)
        if !deletedValues.isEmpty {
            let body = try deletedValues.sealed(key: next)
            try connection.writeDeletedValues(body)
            manifest.deletedValuesHash = DeletedValues.hash(of: body)
        }
        try connection.writeManifest(counter: counter, body: manifest.sealed(key: next))
        var rotated = state
        rotated.keys = [next.generation: next]
        rotated.entriesGeneration = next.generation
        rotated.entries = entries
        rotated.verifiedCounter = counter
        rotated.mergedCounter = counter
        rotated.compactedThrough = 0
        rotated.deletedValues = deletedValues
        rotated.deletedValuesHash = manifest.deletedValuesHash
        rotated.pulledSequence = highest
        rotated.rosterPin = roster.pin
        return rotated
    }

    /// The values deleted by the deletions this device agreed with that are not compacted yet, as
    /// their records on the server say (each opened under the circle key and checked against the
    /// agreed entry): a rebuild makes records of values only, so without them a restored copy of
    /// a revoked value would come back. A deletion record the server no longer holds, or that is
    /// not the one agreed with, cannot be read back (a rebuild is for a damaged server): it is
    /// counted in `unreadable`.
    private func uncompactedDeletions(on connection: SyncServer, state: SyncState, key: CircleKey) throws(SyncError)
        -> (digests: [Data], unreadable: Int)
    {
        var deleted: [Data] = []
        var unreadable = 0
        for (recordID, agreed) in state.entries where agreed.isTombstone && agreed.version > 0 {
            guard let record = try connection.record(recordID), record.version == agreed.version,
                let (content, writtenAt) = try? RecordSealer.openStamped(
                    record.body, recordID: recordID, version: record.version, key: key),
                content.kind == .tombstone, content.digest == agreed.digest, writtenAt == agreed.writtenAt
            else {
                unreadable += 1
                continue
            }
            deleted.append(content.deletedDigest)
        }
        return (deleted, unreadable)
    }

    /// The one device among `candidates` whose id or name is `device`.
    private static func member(named device: String, among candidates: [Roster.Member]) throws(SyncError)
        -> Roster.Member
    {
        let matching = candidates.filter {
            $0.deviceID.uuidString.lowercased() == device.lowercased() || $0.name == device
        }
        guard matching.count == 1, let member = matching.first else {
            throw matching.isEmpty ? SyncError.noSuchDevice : SyncError.ambiguousDeviceName
        }
        return member
    }
}
