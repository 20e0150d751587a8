import Foundation
import KeychainCore
import SecureStorageFoundation

extension KeychainSynchronizer {
    /// How long to wait for another process's sync of the same keychain.
    static let syncLockTimeout: Duration = .seconds(300)

    /// Runs `body` holding an exclusive advisory lock on `<keychain database>-sync.lock`, so that
    /// two processes syncing the same keychain (a `keychain sync watch` and a `keychain sync
    /// now`, say) take turns: each reads the sync state, merges and saves it whole, and one must
    /// not save a state derived from what the other already replaced.
    ///
    /// The file holds nothing. It is a ``LockFile`` in the keychain's own 0700 directory: opened
    /// without following a link or blocking, created exclusively with mode 0600, and used only as
    /// a regular file of this user that no one else can open. The lock is retried for at most
    /// ``syncLockTimeout``, so a process that holds it forever (stopped or hung) makes this fail,
    /// naming the file, instead of hanging the caller.
    /// - Throws: ``SyncError/Code/invalidState`` when the file cannot be used or stays locked.
    func syncLock<T>(_ body: () throws(SyncError) -> T) throws(SyncError) -> T {
        let database = keychain.location.databaseURL
        let directoryPath = database.deletingLastPathComponent().path
        let name = database.lastPathComponent + "-sync.lock"
        let path = database.path + "-sync.lock"
        let directory: Int32
        do throws(LockFileFailure) {
            directory = try LockFile.openDirectory(directoryPath)
        } catch {
            throw Self.syncLockError(error, path: path)
        }
        defer { close(directory) }
        return try LockFile.withExclusiveLock(
            name, in: directory, path: path, waitingAtMost: Self.syncLockTimeout,
            failure: { Self.syncLockError($0, path: path) }, body)
    }

    /// The sync error for a lock file that could not be locked (never `nil`: a sync writes, so
    /// a read-only file system is an error too).
    private static func syncLockError(_ failure: LockFileFailure, path: String) -> SyncError {
        switch failure {
        case .timedOut:
            return .syncLockTimedOut(path: path, seconds: Int(syncLockTimeout.components.seconds))
        case .symbolicLink, .notPrivate:
            return .syncLockFileNotPrivate(path: path)
        case .readOnlyFileSystem:
            return .syncLockFileNotCreated(path: path, reason: String(cString: strerror(EROFS)))
        case .cannotOpenDirectory(let code), .cannotOpen(let code), .cannotCheck(let code), .cannotLock(let code):
            return .syncLockFileNotOpened(path: path, reason: String(cString: strerror(code)))
        }
    }
}
