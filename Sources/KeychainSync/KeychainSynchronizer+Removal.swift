import Crypto
import Foundation
import KeychainCore

extension KeychainSynchronizer {
    /// Removes a device from the circle (a lost or stolen one, or one that left without
    /// `leave`), and ends its access to everything written from now on.
    ///
    /// The circle moves to a new random key generation, wrapped to each remaining member only;
    /// every record is sealed again under it, with new record ids, in one server transaction.
    /// The removed device keeps what it already had (nothing can take that back) but cannot
    /// read, or tell apart, anything after the removal. Other members pick up the new key at
    /// their next sync.
    ///
    /// Check the members it returns: the new key went to each of them, so a device that is not
    /// one of yours (one the removed device could have listed before it was removed) must be
    /// removed too.
    ///
    /// - Parameter device: the device's id or its name, as ``status()`` lists them.
    /// - Returns: the members that received the new key.
    /// - Throws: ``SyncError/Code/invalidState`` when the name matches no other member or
    ///   several; ``SyncError/Code/tampered`` when the server's records fail verification.
    @discardableResult
    public func removeDevice(_ device: String) throws(SyncError) -> [SyncStatus.Member] {
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
            let members = try connection.members(generation: key.generation).map { (member) throws(SyncError) -> MemberEntry in
                try MemberEntry.open(member.body, deviceID: member.deviceID, key: key)
            }
            var matching = members.filter { $0.deviceID.uuidString.lowercased() == device.lowercased() || $0.name == device }
            // A device the server leaves out of the list can still be removed by its id.
            if matching.isEmpty, let id = UUID(uuidString: device) {
                matching = [MemberEntry(deviceID: id, name: "", publicKey: Data(), joined: 0)]
            }
            guard matching.count == 1, let removed = matching.first else {
                throw SyncError(.invalidState, matching.isEmpty ? "No member of the circle has that id or name (see `keychain sync status`)."
                                : "Several members have that name; give the device id instead (see `keychain sync status`).")
            }
            guard removed.deviceID != state.deviceID else {
                throw SyncError(.invalidState, "This device cannot remove itself; use `keychain sync leave`.")
            }
            let next = key.next()
            let rotated = try connection.connection.transaction { () throws(SyncError) -> SyncState? in
                guard let row = try connection.manifest(forUpdate: true), row.counter == state.verifiedCounter else { return nil }
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
                                                        isTombstone: content.kind == .tombstone)
                }
                let counter = manifest.counter + 1
                for member in members where member.deviceID != removed.deviceID {
                    try connection.writeMember(member.deviceID, generation: next.generation, body: member.sealed(key: next))
                    let publicKey: Curve25519.KeyAgreement.PublicKey
                    do { publicKey = try .init(rawRepresentation: member.publicKey) } catch {
                        throw SyncError.tampered("a member entry whose public key is invalid")
                    }
                    try connection.writeKeyWrap(member.deviceID, generation: next.generation,
                                                body: KeyWrap.wrap(next, counterFloor: counter, proof: KeyWrap.rotationProof(of: next, by: key),
                                                                   to: publicKey, device: member.deviceID))
                }
                try connection.deleteMember(removed.deviceID)
                try connection.deleteMembers(before: next.generation)
                let rotatedManifest = Manifest(counter: counter, generation: next.generation, digest: digest, recordCount: Int64(entries.count), author: state.deviceID)
                try connection.writeManifest(counter: counter, body: rotatedManifest.sealed(key: next))
                var rotated = state
                rotated.keys = [next.generation: next]
                rotated.entriesGeneration = next.generation
                rotated.entries = entries
                rotated.verifiedCounter = counter
                rotated.pulledSequence = highest
                return rotated
            }
            guard let rotated else {
                throw SyncError(.serverUnreachable, "Another device pushed while the circle key was being replaced; nothing changed. Run the removal again.")
            }
            state = rotated
            try SyncStateStore.save(state, in: keychain)
            return members.filter { $0.deviceID != removed.deviceID }.map { member in
                SyncStatus.Member(deviceID: member.deviceID, name: PrintableText.sanitized(member.name, limit: 64),
                                  joined: Date(timeIntervalSince1970: member.joined), isThisDevice: member.deviceID == state.deviceID)
            }
        }
    }
}
