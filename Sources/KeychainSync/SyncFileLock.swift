#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KeychainCore

/// An exclusive advisory lock (`flock`) on `<keychain database>-sync.lock`, held for the whole
/// of a sync operation, so that two processes syncing the same keychain (a `keychain sync
/// watch` and a `keychain sync now`, say) take turns: each reads the sync state, merges and
/// saves it whole, and one must not save a state derived from what the other already replaced.
///
/// The file holds nothing. It is opened `O_NOFOLLOW | O_NONBLOCK` in the keychain's own 0700
/// directory and must be a regular file owned by this user. The lock is tried without blocking
/// and retried for at most ``timeout``, so a process that holds it forever (stopped or hung)
/// makes this fail, naming the file, instead of hanging the caller.
struct SyncFileLock: ~Copyable {
    /// How long to wait for another process's sync.
    static let timeout: Duration = .seconds(300)

    private let descriptor: Int32

    /// Takes the lock of `location`'s keychain, waiting for another process's sync to end.
    /// - Throws: ``SyncError/Code/invalidState`` when the file cannot be used or stays locked.
    init(for location: KeychainLocation) throws(SyncError) {
        let path = location.databaseURL.path + "-sync.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SyncError(.invalidState, "The sync lock file \(path) cannot be opened (\(String(cString: strerror(errno)))); nothing was changed.")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else {
            close(fd)
            throw SyncError(.invalidState, "The sync lock file \(path) is not a regular file of this user; remove it. Nothing was changed.")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.timeout)
        var pause = Duration.milliseconds(1)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard (code == EWOULDBLOCK || code == EAGAIN), clock.now < deadline else {
                close(fd)
                throw SyncError(.invalidState, "Another process has been syncing this keychain for over \(Self.timeout.components.seconds) s (it holds \(path)); nothing was changed. Find it with `fuser -v \(path)`.")
            }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds))
            pause = min(pause * 2, .milliseconds(50))
        }
        descriptor = fd
    }

    deinit {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
