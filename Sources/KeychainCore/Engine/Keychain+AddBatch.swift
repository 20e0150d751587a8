import Foundation
import GRDB

extension Keychain {
    /// Adds many items in one transaction: all of them, or none.
    ///
    /// The batch form of ``add(_:returning:)`` for imports and first runs: one commit (one
    /// `fsync`) and one state-digest update for the whole batch instead of one per item. Each
    /// item gets Apple's defaults and its own keys exactly as ``add(_:returning:)`` gives them.
    ///
    /// ```swift
    /// let items = accounts.map { NewItem(.genericPassword, attributes: [.service: "api", .account: .string($0.name)],
    ///                                    data: $0.token) }
    /// try keychain.add(contentsOf: items)
    /// ```
    ///
    /// Other writers wait while the batch runs (up to their busy timeout): split very large
    /// imports into batches of some thousands.
    ///
    /// - Returns: how many items were added.
    /// - Throws: `.duplicateItem` when an item duplicates a stored one or another item of the
    ///   batch; `.interactionNotAllowed` when a class is locked; `.authFailed` for a
    ///   passcode-set item without a passphrase; `.noSuchAttribute`, `.invalidParameter` for an
    ///   identity or bad attributes. Nothing is added then.
    @discardableResult
    public func add(contentsOf items: [NewItem]) throws(KeychainError) -> Int {
        let now = Date()
        var prepared: [PreparedItem] = []
        prepared.reserveCapacity(items.count)
        for item in items { prepared.append(try prepareForAdd(item, now: now)) }
        guard !prepared.isEmpty else { return 0 }
        try write { db in
            var added: [[UInt8]] = []
            added.reserveCapacity(prepared.count)
            for (itemClass, attributes, data) in prepared {
                let stored = try self.insert(itemClass, attributes: attributes, data: data, recordingState: false, db)
                added.append(try self.fingerprint(ofWritten: stored.row, db))
            }
            try self.keys.stateDigest.record(adding: added, db)
        }
        logger.debug("added items", metadata: ["count": "\(prepared.count)"])
        return prepared.count
    }
}
