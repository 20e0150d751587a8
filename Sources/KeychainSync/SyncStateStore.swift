import Foundation
import KeychainCore

/// Where a keychain keeps its ``SyncState``: one generic-password item in the library's own
/// namespace (``LibraryOwner/sync``; service `KeychainSync`, access group
/// `com.securestorage.sync`), `AfterFirstUnlockThisDeviceOnly` so sync runs while the keychain
/// is locked after its first unlock, and never synchronizable.
///
/// An item an app, the `keychain` tool or a backup import writes under the same names is an
/// ordinary item in the apps' namespace: this store never reads, replaces or deletes it.
enum SyncStateStore {
    /// The access group of the state item.
    static let accessGroup = "com.securestorage.sync"
    /// The service of the state item.
    static let service = "KeychainSync"
    private static let account = "state"

    /// The query that finds the state item.
    /// The accessibility the state item is created with, and the only one it is read with.
    static let accessibility = Accessibility.afterFirstUnlockThisDeviceOnly

    /// The query that finds the state item.
    static var query: Query {
        var query = Query(
            .genericPassword,
            [.service: .string(service), .account: .string(account), .accessible: .string(accessibility.rawValue)],
            synchronizable: .no, accessGroups: [accessGroup], limit: .one)
        query.owner = .sync
        return query
    }

    /// The state item holding `state`.
    static func item(_ state: SyncState) -> NewItem {
        var item = NewItem(
            .genericPassword,
            attributes: [
                .service: .string(service), .account: .string(account), .accessGroup: .string(accessGroup),
                .label: .string("Sync circle state"), .synchronizable: .number(0)
            ],
            data: state.encoded, accessibility: accessibility)
        item.owner = .sync
        return item
    }

    /// The keychain's sync state, or `nil` when it belongs to no circle.
    /// - Throws: ``SyncError/Code/keychain`` (locked before the first unlock, damaged).
    static func load(from keychain: Keychain) throws(SyncError) -> SyncState? {
        let found: [FoundItem]
        do {
            found = try keychain.find(query, returning: [.data])
        } catch  where error.code == .itemNotFound {
            return nil
        } catch {
            throw SyncError(error)
        }
        guard let data = found.first?.data else { return nil }
        guard let state = SyncState(encoded: data) else {
            throw SyncError.unreadableSyncState
        }
        return state
    }

    /// Saves `state`, together with `changes` from other devices, in one keychain transaction.
    @discardableResult
    static func save(_ state: SyncState, applying changes: [SynchronizedChange] = [], in keychain: Keychain)
        throws(SyncError) -> [SynchronizedOutcome]
    {
        try save(applying: changes, in: keychain) { _ in state }
    }

    /// Applies `changes` and saves the state `finalState` makes from their outcomes, in one
    /// keychain transaction. With `sawEverything` false (some items could not be read), the
    /// state records no change marker, so the next sync reads the keychain again.
    @discardableResult
    static func save(
        applying changes: [SynchronizedChange], in keychain: Keychain, sawEverything: Bool = false,
        seenMarker: Int64? = nil,
        finalState: ([SynchronizedOutcome]) -> SyncState
    ) throws(SyncError) -> [SynchronizedOutcome] {
        do {
            return try keychain.applySynchronized(changes, seenMarker: seenMarker) { outcomes, marker in
                var state = finalState(outcomes)
                state.localMarker = sawEverything ? marker ?? -1 : -1
                return item(state)
            }
        } catch {
            throw SyncError(error)
        }
    }

    /// Deletes the state (leaving the circle); the synced items stay.
    static func remove(from keychain: Keychain) throws(SyncError) {
        do {
            try keychain.delete(query)
        } catch  where error.code == .itemNotFound {
            return
        } catch {
            throw SyncError(error)
        }
    }
}
