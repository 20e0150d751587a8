import Foundation
import KeychainCore

/// Where a keychain keeps its ``SyncState``: generic-password items in the library's own
/// namespace (``LibraryOwner/sync``; service `KeychainSync`, access group
/// `com.securestorage.sync`), `AfterFirstUnlockThisDeviceOnly` so sync runs while the keychain
/// is locked after its first unlock, and never synchronizable.
///
/// Since format 4 the state is a header item (account `state`) and shards
/// (``SyncStateLayout``): `state.entries.N` with what this device agreed with the circle, and
/// `state.rows.N` with what the syncs read of the keychain (``LocalItemCache``). A save writes
/// the header and only the shards that changed, all in the transaction that applies the
/// round's changes. A keychain whose state is one item (formats 2 and 3, written by earlier
/// versions) is read as it is and moves to shards at its next save.
///
/// An item an app, the `keychain` tool or a backup import writes under the same names is an
/// ordinary item in the apps' namespace: this store never reads, replaces or deletes it.
enum SyncStateStore {
    /// The access group of the state items.
    static let accessGroup = "com.securestorage.sync"
    /// The service of the state items.
    static let service = "KeychainSync"
    /// The account of the header item (of the whole state before format 4).
    static let account = "state"

    /// The accessibility the state items are created with, and the only one they are read with.
    static let accessibility = Accessibility.afterFirstUnlockThisDeviceOnly

    /// The query that finds the state's header item.
    static var query: Query { query(account: account) }

    /// The query that finds the state item of `account` (every state item when `nil`).
    static func query(account: String?) -> Query {
        var attributes: [AttributeKey: AttributeValue] = [
            .service: .string(service), .accessible: .string(accessibility.rawValue)
        ]
        if let account { attributes[.account] = .string(account) }
        var query = Query(
            .genericPassword, attributes, synchronizable: .no, accessGroups: [accessGroup],
            limit: account == nil ? .all : .one)
        query.owner = .sync
        return query
    }

    /// The state item of `account` holding `data`.
    static func item(account: String, data: Data) -> NewItem {
        var item = NewItem(
            .genericPassword,
            attributes: [
                .service: .string(service), .account: .string(account), .accessGroup: .string(accessGroup),
                .label: .string("Sync circle state"), .synchronizable: .number(0)
            ],
            data: data, accessibility: accessibility)
        item.owner = .sync
        return item
    }

    /// The data of the state item of `account`; `nil` when there is none.
    private static func data(of account: String, in keychain: Keychain) throws(SyncError) -> Data? {
        do {
            return try keychain.find(query(account: account), returning: [.data]).first?.data
        } catch  where error.code == .itemNotFound {
            return nil
        } catch {
            throw SyncError(error)
        }
    }

    /// The keychain's sync state, or `nil` when it belongs to no circle.
    ///
    /// An entries shard that is missing or does not match the header makes the state
    /// unreadable (what this device agreed with is not known); a local-rows shard that cannot
    /// be read or does not match only drops the rows it remembers, and the next sync reads
    /// every item.
    /// - Throws: ``SyncError/Code/keychain`` (locked before the first unlock, damaged),
    ///   ``SyncError/Code/invalidState`` for a state that cannot be decoded.
    static func load(from keychain: Keychain) throws(SyncError) -> SyncState? {
        guard var state = try loadHeader(from: keychain) else { return nil }
        state.isHeaderOnly = false
        guard state.layout.isSharded else {
            state.loadedEntries = state.entries
            return state
        }
        let bits = state.layout.bits
        for index in 0..<state.layout.shardCount {
            guard let data = try data(of: SyncStateShard.Kind.entries.account(index), in: keychain),
                SyncStateLayout.hash(data) == state.layout.entryHashes[index],
                let entries = SyncStateShard.decodeEntries(data, bits: bits, index: index)
            else {
                throw SyncError.unreadableSyncState
            }
            for (recordID, entry) in entries { state.entries[recordID] = entry }
        }
        state.loadedEntries = state.entries
        state.localRows = loadRows(state.layout, in: keychain) ?? [:]
        if state.localRows.isEmpty && state.localRowsGeneration != nil {
            // Rows that could not be read are written again whole by the next save.
            state.layout.rowHashes = state.layout.rowHashes.map { _ in Data(count: 32) }
            state.localRowsGeneration = nil
        }
        state.loadedRows = state.localRows
        return state
    }

    /// The local rows the layout names; `nil` when a shard is missing, unreadable (a keychain
    /// error: edited, from another keychain) or not the one the header names (an older copy).
    private static func loadRows(_ layout: SyncStateLayout, in keychain: Keychain) -> [Int64: LocalItemCache.Row]? {
        var rows: [Int64: LocalItemCache.Row] = [:]
        for index in 0..<layout.shardCount {
            guard let data = try? data(of: SyncStateShard.Kind.rows.account(index), in: keychain),
                SyncStateLayout.hash(data) == layout.rowHashes[index],
                let shard = SyncStateShard.decodeRows(data, bits: layout.bits, index: index)
            else {
                return nil
            }
            for (rowID, row) in shard { rows[rowID] = row }
        }
        return rows
    }

    /// The state's header alone (for a format 2 or 3 state, the whole state): enough to tell
    /// whether a sync has anything to do, never to be saved (``SyncState/isHeaderOnly``).
    /// - Throws: as ``load(from:)``.
    static func loadHeader(from keychain: Keychain) throws(SyncError) -> SyncState? {
        guard let data = try data(of: account, in: keychain) else { return nil }
        guard var state = SyncState(encoded: data) else {
            throw SyncError.unreadableSyncState
        }
        state.isHeaderOnly = state.layout.isSharded
        return state
    }

    /// Saves `state`, together with `changes` from other devices, in one keychain transaction.
    @discardableResult
    static func save(_ state: SyncState, applying changes: [SynchronizedChange] = [], in keychain: Keychain)
        throws(SyncError) -> [SynchronizedOutcome]
    {
        try save(applying: changes, in: keychain) { _ in state }.outcomes
    }

    /// Applies `changes` and saves the state `finalState` makes from their outcomes, in one
    /// keychain transaction. With `sawEverything` false (some items could not be read), the
    /// state records no change marker, so the next sync reads the keychain again.
    ///
    /// Writes the header and the shards whose content changed since the state was loaded,
    /// provided the keychain still holds the layout it was loaded with; every shard otherwise.
    /// - Returns: the outcomes, and the layout now stored (for a later save of the same state).
    @discardableResult
    static func save(
        applying changes: [SynchronizedChange], in keychain: Keychain, sawEverything: Bool = false,
        seenMarker: Int64? = nil,
        finalState: ([SynchronizedOutcome]) -> SyncState
    ) throws(SyncError) -> (outcomes: [SynchronizedOutcome], layout: SyncStateLayout) {
        let stored = try loadHeader(from: keychain)?.layout ?? SyncStateLayout()
        var prepared: (outcomes: [SynchronizedOutcome], state: SyncState, shards: [(String, Data)])?
        var written = SyncStateLayout()
        var invalid = false
        let outcomes: [SynchronizedOutcome]
        do {
            outcomes = try keychain.applySynchronized(changes, seenMarker: seenMarker) {
                outcomes, marker -> [NewItem] in
                if prepared == nil || prepared?.outcomes != outcomes {
                    let state = finalState(outcomes)
                    guard !state.isHeaderOnly else {
                        invalid = true
                        return []
                    }
                    let (layout, shards) = self.shards(of: state, stored: stored)
                    (prepared, written) = ((outcomes, state, shards), layout)
                }
                guard var state = prepared?.state else { return [] }
                state.localMarker = sawEverything ? marker ?? -1 : -1
                return [item(account: account, data: state.encodedHeader(layout: written))]
                    + (prepared?.shards ?? []).map { item(account: $0.0, data: $0.1) }
            }
        } catch {
            throw SyncError(error)
        }
        // A state read without its entries is never written (it would drop them).
        if invalid { throw SyncError.unreadableSyncState }
        return (outcomes, written)
    }

    /// The layout `state` is stored under and the shards to write: those that changed since it
    /// was loaded when the keychain still holds the layout it was loaded with, every one otherwise.
    private static func shards(of state: SyncState, stored: SyncStateLayout) -> (SyncStateLayout, [(String, Data)]) {
        let records = max(state.entries.count, state.localRows.count)
        let bits = SyncStateLayout.bits(for: records, atLeast: stored.isSharded ? stored.bits : 0)
        var layout = stored
        var dirtyEntries = Set<Int>()
        var dirtyRows = Set<Int>()
        if !stored.isSharded || stored != state.layout || bits != stored.bits {
            layout = SyncStateLayout()
            layout.bits = bits
            layout.entryHashes = Array(repeating: Data(), count: 1 << Int(bits))
            layout.rowHashes = layout.entryHashes
            dirtyEntries = Set(0..<(1 << Int(bits)))
            dirtyRows = dirtyEntries
        } else {
            for (recordID, entry) in state.entries where state.loadedEntries[recordID] != entry {
                dirtyEntries.insert(SyncStateLayout.shard(of: recordID, bits: bits))
            }
            for recordID in state.loadedEntries.keys where state.entries[recordID] == nil {
                dirtyEntries.insert(SyncStateLayout.shard(of: recordID, bits: bits))
            }
            for (rowID, row) in state.localRows {
                let before = state.loadedRows[rowID]
                if before != row {
                    dirtyRows.insert(SyncStateLayout.shard(of: row.recordID, bits: bits))
                    if let before { dirtyRows.insert(SyncStateLayout.shard(of: before.recordID, bits: bits)) }
                }
            }
            for (rowID, row) in state.loadedRows where state.localRows[rowID] == nil {
                dirtyRows.insert(SyncStateLayout.shard(of: row.recordID, bits: bits))
            }
        }
        var shards: [(String, Data)] = []
        for (index, data) in SyncStateShard.encodeEntries(state.entries, bits: bits, shards: dirtyEntries) {
            layout.entryHashes[index] = SyncStateLayout.hash(data)
            shards.append((SyncStateShard.Kind.entries.account(index), data))
        }
        for (index, data) in SyncStateShard.encodeRows(state.localRows, bits: bits, shards: dirtyRows) {
            layout.rowHashes[index] = SyncStateLayout.hash(data)
            shards.append((SyncStateShard.Kind.rows.account(index), data))
        }
        return (layout, shards.sorted { $0.0 < $1.0 })
    }

    /// Deletes the state, header and shards (leaving the circle); the synced items stay.
    static func remove(from keychain: Keychain) throws(SyncError) {
        do {
            try keychain.delete(query(account: nil))
        } catch  where error.code == .itemNotFound {
            return
        } catch {
            throw SyncError(error)
        }
    }
}
