import Crypto
import Foundation
import KeychainCore

extension KeychainSynchronizer {
    /// Removes a device from the circle (a lost or stolen one, or one that left without
    /// `leave`), and ends its access to everything written from now on.
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
    ///   - device: the device's id or its name, as ``status()`` lists them.
    ///   - kept: ids or names of devices admitted through `device` that stay in the circle.
    /// - Returns: the members that received the new key.
    /// - Throws: ``SyncError/Code/invalidState`` when a name matches no other member or several,
    ///   or a kept device was not admitted through the removed one; ``SyncError/Code/tampered``
    ///   when the server's records or roster fail verification.
    @discardableResult
    public func removeDevice(_ device: String, keeping kept: [String] = []) throws(SyncError) -> [SyncStatus.Member] {
        // The records are sealed again from the server's state: this device must agree with all
        // of it first, nothing left waiting for a locked class.
        let report = try syncNow()
        guard report.deferredWhileLocked == 0, keychain.lockState == .unlocked else {
            throw SyncError(.invalidState, "Unlock the keychain first (`keychain unlock`): changes from the circle wait for it, and the circle key cannot be replaced until this device has them.")
        }
        return try serialised { () throws(SyncError) -> [SyncStatus.Member] in
            var state = try memberState()
            guard let key = state.currentKey else { throw notAMember }
            let connection = try SyncServer.connect(state.server, circleID: state.circleID)
            var roster = try connection.roster(key: key, continuing: state.rosterPin)
            let removed = try Self.member(named: device, in: roster)
            guard removed.deviceID != state.deviceID else {
                throw SyncError(.invalidState, "This device cannot remove itself; use `keychain sync leave`.")
            }
            let keptIDs = try kept.map { (name) throws(SyncError) -> UUID in try Self.member(named: name, in: roster).deviceID }
            let through = roster.admittedThrough(removed.deviceID)
            guard keptIDs.allSatisfy({ $0 != removed.deviceID && through.contains($0) }) else {
                throw SyncError(.invalidState, "A device to keep was not admitted through the removed one; it stays anyway (see who vouches for whom in `keychain sync status`).")
            }
            guard roster.generation == key.generation, roster.members[state.deviceID] != nil else {
                throw SyncError(.removed, "This device is no longer a member of the circle (see `keychain sync status`); it cannot remove others.")
            }
            var removal = roster.nextEvent(.removed, author: state.deviceID, subject: removed.deviceID)
            removal.newGeneration = key.generation + 1
            removal.kept = Array(Set(keptIDs))
            try removal.sign(with: state.signingKey, circleID: state.circleID)
            let ended = roster.removedBy(removing: removed.deviceID, keeping: removal.kept, author: state.deviceID)
            let pinned = roster.pin
            try roster.apply(removal)
            let members = roster.members.values.sorted { $0.deviceID.uuidString < $1.deviceID.uuidString }
            let next = key.next()
            let rotated = try connection.connection.transaction { () throws(SyncError) -> SyncState? in
                guard let row = try connection.manifest(forUpdate: true), row.counter == state.verifiedCounter,
                      try connection.roster(key: key, continuing: pinned).pin == pinned else { return nil }
                let manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
                // The records must be exactly the verified state: none dropped, none older than
                // this device agreed with, each valid and under its own id.
                let records = try connection.allRecords()
                var check = SetDigest()
                var opened: [(SyncServer.StoredRecord, RecordContent)] = []
                for record in records {
                    guard record.recordID.count == BlindIndexLength.bytes, record.version > 0 else {
                        throw SyncError.tampered("a record with a malformed id or version")
                    }
                    let content = try RecordSealer.open(record.body, recordID: record.recordID, version: record.version, key: key)
                    guard keychain.acceptsSynchronized(content.item), content.item.identifier(key: key.identifierKey) == record.recordID else {
                        throw SyncError.tampered("a record holding an item that may not sync, or not the one its id names")
                    }
                    if let agreed = state.entries[record.recordID], agreed.version > 0,
                       record.version < agreed.version || (record.version == agreed.version && content.digest != agreed.digest) {
                        throw SyncError.tampered("an older version of a record than this device agreed with")
                    }
                    check.insert(recordID: record.recordID, version: record.version, content: content.digest, key: key)
                    opened.append((record, content))
                }
                guard check == manifest.digest, Int64(records.count) == manifest.recordCount else {
                    throw SyncError.tampered("records that do not add up to the circle's manifest (a record was dropped, withheld or replayed)")
                }
                var entries: [Data: SyncState.Entry] = [:]
                var digest = SetDigest()
                var highest = Int64(0)
                try connection.deleteAllRecords()
                for (_, content) in opened {
                    let recordID = content.item.identifier(key: next.identifierKey)
                    let body = try RecordSealer.seal(content, recordID: recordID, version: 1, key: next)
                    guard let sequence = try connection.write(recordID: recordID, version: 1, body: body, replacing: nil) else {
                        throw SyncError.tampered("two records for one item")
                    }
                    highest = max(highest, sequence)
                    digest.insert(recordID: recordID, version: 1, content: content.digest, key: next)
                    entries[recordID] = SyncState.Entry(version: 1, digest: content.digest, accessibility: content.item.accessibility,
                                                        isTombstone: content.kind == .tombstone, sequence: sequence)
                }
                let counter = manifest.counter + 1
                try connection.replaceRoster(roster, key: next)
                for member in members {
                    let publicKey: Curve25519.KeyAgreement.PublicKey
                    do { publicKey = try .init(rawRepresentation: member.agreementKey) } catch {
                        throw SyncError.tampered("a roster entry whose public key is invalid")
                    }
                    try connection.writeKeyWrap(member.deviceID, generation: next.generation,
                                                body: KeyWrap.wrap(next, counterFloor: counter, to: publicKey, device: member.deviceID, signedBy: state.signingKey))
                }
                for device in ended { try connection.deleteKeyWraps(of: device) }
                let rotatedManifest = Manifest(counter: counter, generation: next.generation, digest: digest, recordCount: Int64(entries.count), author: state.deviceID)
                try connection.writeManifest(counter: counter, body: rotatedManifest.sealed(key: next))
                var rotated = state
                rotated.keys = [next.generation: next]
                rotated.entriesGeneration = next.generation
                rotated.entries = entries
                rotated.verifiedCounter = counter
                rotated.pulledSequence = highest
                rotated.rosterPin = roster.pin
                return rotated
            }
            guard let rotated else {
                throw SyncError(.serverUnreachable, "Another device pushed or changed the membership while the circle key was being replaced; nothing changed. Run the removal again.")
            }
            state = rotated
            try SyncStateStore.save(state, in: keychain)
            return members.map { SyncStatus.Member($0, thisDevice: state.deviceID) }
        }
    }

    /// The one current member whose id or name is `device`.
    private static func member(named device: String, in roster: Roster) throws(SyncError) -> Roster.Member {
        let matching = roster.members.values.filter { $0.deviceID.uuidString.lowercased() == device.lowercased() || $0.name == device }
        guard matching.count == 1, let member = matching.first else {
            throw SyncError(.invalidState, matching.isEmpty ? "No member of the circle has that id or name (see `keychain sync status`)."
                            : "Several members have that name; give the device id instead (see `keychain sync status`).")
        }
        return member
    }
}
