import Foundation
import SecureStorageFoundation

extension PlatformIO {
    /// The file a private directory's lock is taken on: `directory.lock`, empty, mode 0600,
    /// created exclusively by the directory's owner inside the 0700 directory (see ``LockFile``).
    /// Keychain directories of earlier versions, whose lock was the directory itself, get the
    /// file at their first opening; nothing else changes in them.
    static let directoryLockFileName = "directory.lock"

    /// Holds an exclusive advisory lock (`flock`) on a directory's lock file while `body` runs, so
    /// that two processes creating the same keychain (or changing the same PIN file) do it one
    /// after the other.
    ///
    /// The lock is on ``directoryLockFileName`` in the directory, a ``LockFile``: no other user can
    /// open it, so no other user can hold its lock, whatever descriptors of the directory they
    /// kept from before it was private. The lock is tried without blocking and retried with short
    /// pauses for at most `timeout`: a process of this user that holds it forever (stopped, hung)
    /// makes this fail with `.busy`, naming the file, instead of hanging the caller. On a
    /// read-only file system without the file, `body` runs unlocked: no process can write there.
    static func withExclusiveLock<T>(
        onDirectory url: URL, waitingAtMost timeout: Duration,
        _ body: () throws(KeychainError) -> T
    ) throws(KeychainError) -> T {
        let path = url.appendingPathComponent(directoryLockFileName).path
        let directory = try openDirectory(url.path, role: "directory")
        defer { close(directory) }
        return try LockFile.withExclusiveLock(
            directoryLockFileName, in: directory, path: path, waitingAtMost: timeout,
            failure: { lockError($0, path: path, timeout: timeout) }, body)
    }

    /// The keychain's error for a lock file that could not be locked; `nil` (run unlocked) for a
    /// read-only file system.
    private static func lockError(_ failure: LockFileFailure, path: String, timeout: Duration) -> KeychainError? {
        switch failure {
        case .readOnlyFileSystem:
            return nil
        case .symbolicLink:
            return KeychainError.lockFileSymbolicLink(path: path)
        case .notPrivate(let owner, let mode):
            return KeychainError.lockFileNotPrivate(path: path, owner: owner, mode: mode)
        case .timedOut:
            return KeychainError.lockTimeout(path: path, timeout: seconds(timeout))
        case .cannotOpenDirectory(let code), .cannotOpen(let code):
            errno = code
            return posixError("Cannot open or create the lock file \(path)")
        case .cannotCheck(let code):
            errno = code
            return posixError("Cannot check the lock file \(path)")
        case .cannotLock(let code):
            errno = code
            return posixError("Cannot lock \(path)")
        }
    }

    /// `"10 s"`, `"0.5 s"`.
    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int64(value)) s" : "\(value) s"
    }
}
