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
    static func withExclusiveLock<T>(onDirectory url: URL, waitingAtMost timeout: Duration,
                                      _ body: () throws(KeychainError) -> T) throws(KeychainError) -> T {
        let path = url.appendingPathComponent(directoryLockFileName).path
        let directory = try openDirectory(url.path, role: "directory")
        defer { close(directory) }
        return try LockFile.withExclusiveLock(directoryLockFileName, in: directory, path: path, waitingAtMost: timeout,
                                              failure: { lockError($0, path: path, timeout: timeout) }, body)
    }

    /// The keychain's error for a lock file that could not be locked; `nil` (run unlocked) for a
    /// read-only file system.
    private static func lockError(_ failure: LockFileFailure, path: String, timeout: Duration) -> KeychainError? {
        switch failure {
        case .readOnlyFileSystem:
            return nil
        case .symbolicLink:
            return KeychainError(.keychainUnavailable, "The lock file \(path) is a symbolic link, which the keychain does not follow; nothing was changed. Remove the link (the keychain creates the file again).")
        case .notPrivate(let owner, let mode):
            return KeychainError(.keychainUnavailable, "The lock file \(path) is not a regular file of yours that only you can open (owner \(owner), mode \(String(mode, radix: 8))): another process may hold its lock for ever, so the keychain does not use it; nothing was changed. Remove it (it holds nothing; the keychain creates it again).")
        case .timedOut:
            return KeychainError(.busy, "The lock \(path) is held by another process and was still held after \(seconds(timeout)) (that process is creating, opening or upgrading the keychain there, or it is stuck); nothing was changed. Try again; if it keeps happening, find that process with `lslocks` or `fuser -v \(path)` and stop it.")
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
