#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
@preconcurrency import Android
#endif
import Foundation

extension PlatformIO {
    /// Holds an exclusive advisory lock (`flock`) on a directory's lock file while `body` runs, so
    /// that two processes creating the same keychain (or changing the same PIN file) do it one
    /// after the other.
    ///
    /// The lock is on ``DirectoryLockFile`` (`directory.lock` in the directory), not on the
    /// directory itself: another user who opened the directory while it could still be read
    /// (before it was made 0700) keeps that descriptor and could hold its lock for ever, but can
    /// never open the lock file, which only this user can. The lock is tried without blocking and
    /// retried with short pauses for at most `timeout`: a process of this user that holds it
    /// forever (stopped, hung) makes this fail with `.busy`, naming the file, instead of hanging
    /// the caller.
    static func withExclusiveLock<T>(onDirectory url: URL, waitingAtMost timeout: Duration,
                                      _ body: () throws(KeychainError) -> T) throws(KeychainError) -> T {
        // A read-only file system has no lock file to make, and no writer to wait for.
        guard let lockFile = try DirectoryLockFile.open(in: url) else { return try body() }
        defer { close(lockFile.descriptor) }
        try lockExclusively(lockFile.descriptor, path: lockFile.path, waitingAtMost: timeout)
        defer { _ = flock(lockFile.descriptor, LOCK_UN) }
        return try body()
    }

    private static func lockExclusively(_ fd: Int32, path: String, waitingAtMost timeout: Duration) throws(KeychainError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: max(timeout, .zero))
        var pause = Duration.milliseconds(1)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK || code == EAGAIN else {
                errno = code
                throw posixError("Cannot lock \(path)")
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw KeychainError.lockTimeout(path: path, timeout: seconds(timeout))
            }
            let nap = min(pause, remaining)
            usleep(useconds_t(clamping: nap.components.seconds * 1_000_000 + nap.components.attoseconds / 1_000_000_000_000))
            pause = min(pause * 2, .milliseconds(25))
        }
    }

    /// `"10 s"`, `"0.5 s"`.
    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int64(value)) s" : "\(value) s"
    }
}
