import Foundation
import GRDB
import LockedState

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
            let first = try ItemTable.nextID(in: db)
            let sealed = try self.seal(prepared, firstRowID: first)
            for row in sealed { try self.store(row, db) }
            try self.keys.stateDigest.record(adding: sealed.map(\.fingerprint), db)
        }
        logger.debug("added items", metadata: ["count": "\(prepared.count)"])
        return prepared.count
    }

    /// Seals the items of a batch for the row ids `firstRowID…`, on every core when the batch is
    /// large enough to be worth it (sealing is pure computation; inserting stays in order, in
    /// the caller's transaction). The first failing item's error is thrown, as a sequential
    /// run would throw it, before anything is inserted.
    private func seal(_ items: [PreparedItem], firstRowID: Int64) throws -> [SealedRow] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let chunk = 128
        guard cores > 1, items.count >= 2 * chunk else {
            return try items.enumerated().map { index, item in
                try seal(item.itemClass, attributes: item.attributes, data: item.data, rowID: firstRowID + Int64(index))
            }
        }
        let chunks = (items.count + chunk - 1) / chunk
        let results = Locked<[Int: Result<[SealedRow], any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: chunks) { part in
            let range = (part * chunk)..<min(items.count, (part + 1) * chunk)
            let result = Result { () throws -> [SealedRow] in
                try range.map { index in
                    try self.seal(items[index].itemClass, attributes: items[index].attributes, data: items[index].data, rowID: firstRowID + Int64(index))
                }
            }
            results.withLock { $0[part] = result }
        }
        let finished = results.withLock { $0 }
        return try (0..<chunks).flatMap { part in try finished[part]!.get() }
    }
}
