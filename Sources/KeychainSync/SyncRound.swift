import Foundation
import KeychainCore

/// One sync of a device with its circle: pull and verify what changed, merge it with what
/// changed here, push what this device has that the circle does not.
///
/// Every decision compares contents, not who sent what, so a round interrupted at any point
/// (a crash, a lost connection) is simply run again: nothing is lost and nothing duplicated.
struct SyncRound {
    let keychain: Keychain
    let server: SyncServer
    var state: SyncState
    var report = SyncReport()
    /// Pull every record, not only those newer than the last pull: a device then also notices a
    /// record it already had being dropped from the server.
    var pullsEverything = false
    /// Whether this round verified roster events beyond what the saved state had verified (the
    /// state must then be saved, even when nothing else changed).
    var rosterMoved = false
    /// Whether this round reads every item rather than only the rows changed since the last
    /// sync (``LocalItemCache``).
    private(set) var readsEveryItem = false

    /// How many times a push starts over when other devices keep pushing first.
    static let attempts = 16

    /// Runs the round, saving the state as it goes, and returns what it did.
    mutating func run() throws(SyncError) -> SyncReport {
        for attempt in 0..<Self.attempts {
            report.retries = attempt
            let result = try pullThatAddsUp()
            let (manifest, key) = (result.manifest, result.key)
            if nothingChanged(since: result) {
                // Nothing arrived and nothing wrote to the keychain since this state was saved.
                report.counter = manifest.counter
                return report
            }
            let reportBefore = report
            var round = try readLocalItems(key: key)
            var merged = try merge(result, round: &round)
            let pushes = try pendingPushes(round: &round, merged: merged, key: key)
            if round.needsEveryItem {
                // A remembered item turned out to be needed whole: read everything and go again.
                readsEveryItem = true
                report = reportBefore
                continue
            }
            if pushes.isEmpty {
                merged.lastSync = Date().timeIntervalSince1970
                try save(
                    merged, round.changes, key: key, sawEverything: !round.someUnreadable, seenMarker: round.marker)
                acknowledge(key: key)
                report.counter = manifest.counter
                return report
            }
            switch try push(pushes, over: manifest, state: merged, key: key, advancesSequence: round.deferred.isEmpty) {
            case .pushed(var saved):
                saved.lastSync = Date().timeIntervalSince1970
                try save(saved, round.changes, key: key, sawEverything: !round.someUnreadable, seenMarker: round.marker)
                acknowledge(key: key)
                report.pushed += pushes.count
                report.counter = saved.verifiedCounter
                return report
            case .raced:
                // Another device pushed between the pull and the push: keep what was pulled, go
                // again (the local changes are still to push, so no marker).
                try save(merged, round.changes, key: key, sawEverything: false, seenMarker: round.marker)
            case .stale:
                // The server's versions are not the ones this device agreed with: read everything again.
                merged.pulledSequence = 0
                try save(merged, round.changes, key: key, sawEverything: false, seenMarker: round.marker)
            }
        }
        throw SyncError.pushRaceLost(attempts: Self.attempts)
    }

    /// Pulls what changed since the last pull, or everything; an incremental pull whose
    /// records do not add up is read again in full (a sequence that went backwards on the
    /// server, after a restore, heals so); only a full pull that does not add up is tampering.
    private mutating func pullThatAddsUp() throws(SyncError) -> PullResult {
        let full = pullsEverything || state.pulledSequence == 0
        var result = try pull(full: full)
        if result == nil && !full { result = try pull(full: true) }
        guard let result else {
            throw SyncError.tampered(
                "records that do not add up to the circle's manifest (a record was dropped, withheld or replayed)")
        }
        return result
    }

    /// Whether nothing arrived with `result` and nothing wrote to the keychain since the state
    /// was saved: the round has nothing to do.
    private func nothingChanged(since result: PullResult) -> Bool {
        guard
            result.pulled.isEmpty && !pullsEverything && !rosterMoved && state.localMarker >= 0
                && result.manifest.counter == state.verifiedCounter
        else {
            return false
        }
        return (try? keychain.changeMarker()) == state.localMarker
    }

    /// Reads this device's synchronizable items for the merge: only the rows that changed since
    /// a sync last read them (``SyncState/localRows``), unless they hold something other than
    /// what this device agreed with. What it read is remembered in the state the round saves.
    private mutating func readLocalItems(key: CircleKey) throws(SyncError) -> Merge {
        let cached = readsEveryItem || state.localRowsGeneration != key.generation ? [:] : state.localRows
        var known: [Int64: Keychain.SynchronizedRowStamp] = [:]
        for (rowID, row) in cached {
            if let agreed = state.entries[row.recordID], agreed.version > 0, !agreed.isTombstone,
                agreed.digest == row.digest
            {
                known[rowID] = row.stamp
            }
        }
        let snapshot: Keychain.SynchronizableSnapshot
        do { snapshot = try keychain.synchronizableItems(skipping: known) } catch { throw SyncError(error) }
        report.protectedItemsNotSynced = snapshot.protectedItems
        report.itemsRead = snapshot.items.count + snapshot.keptItems.count
        let round = Merge(snapshot: snapshot, cached: cached, key: key)
        state.localRows = round.rows
        state.localRowsGeneration = key.generation
        return round
    }
}
