import Foundation
import KeychainCore
import SecureStorageFoundation

/// What this process remembers of the synchronizable items its syncs read, by keychain row, so
/// that a sync after a write reads only the rows that changed (``Keychain/synchronizableItems(skipping:)``)
/// instead of opening every item.
///
/// It holds no secret: per row, the stamp it was read at, the item's record id, value digest
/// and modification date, and it is kept per keychain file and circle key generation (record ids
/// depend on the key). A row whose stamp moved (any process wrote it) is read again; the facts
/// stay true whatever a round does afterwards, so a failed round leaves the cache valid.
enum LocalItemCache {
    /// One row as last read.
    struct Row: Sendable {
        /// The row's stamp when it was read.
        var stamp: Keychain.SynchronizedRowStamp
        /// The item's record id under the generation's key.
        var recordID: Data
        /// The item's value digest.
        var digest: Data
        /// The item's modification date.
        var modificationDate: Date
    }

    /// Which keychain and key generation a cache is for.
    struct Scope: Hashable, Sendable {
        var database: String
        var circleID: UUID
        var generation: UInt32
    }

    private static let rows = Locked<[Scope: [Int64: Row]]>([:])

    /// The rows remembered for `scope`.
    static func rows(for scope: Scope) -> [Int64: Row] {
        rows.withLock { $0[scope] ?? [:] }
    }

    /// Replaces what is remembered for `scope` (and forgets other generations of its keychain).
    static func remember(_ remembered: [Int64: Row], for scope: Scope) {
        rows.withLock { all in
            all = all.filter { $0.key.database != scope.database }
            all[scope] = remembered
        }
    }

    /// Forgets `scope`: the next sync reads every item.
    static func forget(_ scope: Scope) {
        _ = rows.withLock { $0.removeValue(forKey: scope) }
    }
}
