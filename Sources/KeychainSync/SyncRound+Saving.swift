import Foundation
import KeychainCore

// A round's last phase: apply the changes and save the state in one keychain transaction,
// then acknowledge how far this device merged.
extension SyncRound {
    /// Tells the circle how far this device merged every record, so deletions all members have
    /// can be compacted. Best effort: a missing acknowledgement only holds compaction back.
    func acknowledge(key: CircleKey) {
        guard state.mergedCounter > 0 else { return }
        let acknowledgement = SyncAcknowledgement(deviceID: state.deviceID, counter: state.mergedCounter)
        try? server.writeAcknowledgement(state.deviceID, body: acknowledgement.sealed(key: key))
    }

    /// Saves `saved` with `changes` in one keychain transaction. Changes that found their class
    /// locked, or the local item changed by an app meanwhile, are given back to the next round:
    /// the state saved in that same transaction does not count them as agreed.
    mutating func save(
        _ saved: SyncState, _ changes: [SynchronizedChange], key: CircleKey, sawEverything: Bool,
        seenMarker: Int64?
    ) throws(SyncError) {
        let previous = state
        var final = saved
        let (outcomes, layout) = try SyncStateStore.save(
            applying: changes, in: keychain, sawEverything: sawEverything, seenMarker: seenMarker
        ) { outcomes in
            var adjusted = saved
            var reverted = false
            for (change, outcome) in zip(changes, outcomes) where outcome != .applied && outcome != .keptLocal {
                let recordID = change.item.identifier(key: key.identifierKey)
                adjusted.entries[recordID] = previous.entries[recordID]
                reverted = true
            }
            if reverted {
                adjusted.pulledSequence = previous.pulledSequence
                adjusted.mergedCounter = previous.mergedCounter
                adjusted.verifiedManifestHash = Data()
            }
            final = adjusted
            return adjusted
        }
        for outcome in outcomes where outcome != .applied && outcome != .keptLocal {
            if outcome == .locked { report.deferredWhileLocked += 1 }
            report.applied -= 1
        }
        state = final
        // What is stored now, for the next save of this round to rewrite only what it changes.
        state.layout = layout
        state.loadedEntries = state.entries
        state.loadedRows = state.localRows
    }
}
