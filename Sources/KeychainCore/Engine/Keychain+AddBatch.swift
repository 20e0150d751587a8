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
        let prepared = try ConcurrentMap.map(items.count) { index throws(KeychainError) in
            try self.prepareForAdd(items[index], now: now)
        }
        guard !prepared.isEmpty else { return 0 }
        try write { db in
            let first = try ItemTable.nextID(in: db)
            // Every item sealed (a failure kept, not thrown), then stored in order: the error is
            // the first failing item's, whether it failed sealing or storing (a duplicate).
            let sealed = ConcurrentMap.map(prepared.count) { index in
                Result {
                    try self.seal(
                        prepared[index].itemClass, attributes: prepared[index].attributes, data: prepared[index].data,
                        rowID: first + Int64(index))
                }
            }
            var fingerprints: [[UInt8]] = []
            fingerprints.reserveCapacity(sealed.count)
            for result in sealed {
                let row = try result.get()
                try self.store(row, db)
                fingerprints.append(row.fingerprint)
            }
            try self.keys.stateDigest.record(adding: fingerprints, db)
        }
        logger.debug("added items", metadata: ["count": "\(prepared.count)"])
        return prepared.count
    }
}
