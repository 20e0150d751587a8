import Foundation
import KeychainCore

// Part of the pull when a member removed a device: move to the circle's new key generation.
extension SyncRound {
    /// When a member removed a device, the circle moved to a new key generation and every record
    /// got a new id: takes the new key wrapped to this device, checks that the roster sealed
    /// under it continues what this device verified, records the removal that made the
    /// generation, and is signed by the member that made it; carries what this device agreed
    /// over to the new ids, and pulls everything again (verified as ever).
    ///
    /// - Throws: ``SyncError/Code/removed`` when no key of that generation is wrapped to this
    ///   device, or the roster no longer lists it; ``SyncError/Code/tampered`` for a key or
    ///   roster no member of the circle vouched for.
    mutating func adoptKeyGeneration(_ generation: UInt32) throws(SyncError) {
        guard let old = state.keys[state.entriesGeneration] else {
            throw SyncError.noCircleKey(generation: state.entriesGeneration)
        }
        guard let wrapped = try server.keyWrap(for: state.deviceID, generation: generation) else {
            throw SyncError.newCircleKeyNotWrapped
        }
        let unwrapped = try KeyWrap.unwrap(
            wrapped, with: state.agreementKey, circleID: state.circleID, device: state.deviceID)
        let next = unwrapped.key
        let roster = try server.roster(key: next, continuing: state.rosterPin)
        guard next.generation == generation, roster.generation == generation,
            let rotator = roster.rotatedBy[generation], let signingKey = roster.signingKeys[rotator],
            unwrapped.isSigned(by: signingKey)
        else {
            throw SyncError.tampered(
                "a new circle key that the circle's roster does not show a member making (no signed removal for it)")
        }
        guard roster.members[state.deviceID] != nil else {
            throw SyncError.removedFromCircle
        }
        // What this device agreed with carries over by item, read from the records themselves, so
        // an item deleted here and not yet pushed is still known as agreed (and its deletion is
        // pushed) rather than taken for new. The full pull that follows verifies every record.
        var entries: [Data: SyncState.Entry] = [:]
        for record in try server.allRecords() {
            guard
                let content = try? RecordSealer.open(
                    record.body, recordID: record.recordID, version: record.version, key: next),
                var agreed = state.entries[content.item.identifier(key: old.identifierKey)]
            else { continue }
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
}
