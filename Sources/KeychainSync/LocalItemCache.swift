import Foundation
import KeychainCore

/// What the syncs remember of the synchronizable items they read, by keychain row, so that a
/// sync after a write reads only the rows that changed (``Keychain/synchronizableItems(skipping:)``)
/// instead of opening every item, in this process or any later one.
///
/// It holds no secret: per row, the stamp it was read at, the item's record id, value digest
/// and modification date. It is kept in the device's sync state (``SyncState/localRows``, in
/// the keychain's own sealed items, ``SyncStateStore``) for one circle key generation (record
/// ids depend on the key). Every fact in it stays true for as long as the row keeps its stamp,
/// whatever a round does afterwards and whichever copy of the state it comes from: the stamp
/// names the row's ciphertexts (their GCM tags), so a row whose stamp is unchanged holds the
/// item that was read. A row whose stamp moved (any process wrote it) is read again; a cache
/// that is missing, edited or does not match its state's header is dropped, and the sync reads
/// every item.
enum LocalItemCache {
    /// One row as last read.
    struct Row: Sendable, Hashable {
        /// The row's stamp when it was read.
        var stamp: Keychain.SynchronizedRowStamp
        /// The item's record id under the generation's key.
        var recordID: Data
        /// The item's value digest.
        var digest: Data
        /// The item's modification date.
        var modificationDate: Date
    }
}
