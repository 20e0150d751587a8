import Foundation

/// Why a ``LockFile`` could not be opened or locked. Each caller turns it into its own error and
/// message.
package enum LockFileFailure: Error, Equatable {
    /// The directory could not be opened (`errno`; `ELOOP` or `ENOTDIR`: a link or a file is in
    /// its place, which is never followed).
    case cannotOpenDirectory(errno: Int32)
    /// The lock file is missing and the file system is read-only: no process can write there,
    /// so there is nothing to take turns with.
    case readOnlyFileSystem
    /// The lock file is a symbolic link, which is never followed.
    case symbolicLink
    /// Opening or creating the lock file failed with this `errno`.
    case cannotOpen(errno: Int32)
    /// `fstat` of the open lock file failed with this `errno`.
    case cannotCheck(errno: Int32)
    /// The lock file is not a regular file of this user that only this user can open: another
    /// user could hold its lock for ever.
    case notPrivate(owner: UInt32, mode: UInt32)
    /// `flock` failed with this `errno` (not because another process holds the lock).
    case cannotLock(errno: Int32)
    /// Another process held the lock for the whole of the time allowed.
    case timedOut
}

/// An empty file in a private directory whose exclusive advisory lock (`flock`) makes the
/// processes of one user take turns: creating or opening a keychain, changing a PIN file,
/// syncing a keychain. The one lock idiom across processes in this package.
///
/// The lock is on a file, not on the directory: another user who opened the directory while it
/// could still be read (before it was made 0700) keeps that descriptor and could hold its lock
/// for ever, but can never open the file, which only this user can. The file is opened relative
/// to a descriptor of the directory, never following a symbolic link, without blocking (a FIFO
/// cannot hang the open), created exclusively with mode 0600 when missing, and used only when it
/// is a regular file of this user that no one else may read or write. The lock is tried without
/// blocking and retried with short pauses for at most a given time: a process that holds it for
/// ever (stopped, hung) makes the caller fail instead of hang.
package struct LockFile {
    /// The open file.
    package let descriptor: Int32
    /// Its path, for messages.
    package let path: String

    /// Opens the directory at `path` for ``init(_:in:path:)``, not following a symbolic link.
    package static func openDirectory(_ path: String) throws(LockFileFailure) -> Int32 {
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { throw .cannotOpenDirectory(errno: errno) }
        return directory
    }

    /// Opens the lock file `name` in the open directory `directory`, creating it when missing;
    /// `path` names it in messages.
    package init(_ name: String, in directory: Int32, path: String) throws(LockFileFailure) {
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var fd: Int32 = -1
        while fd < 0 {
            fd = openat(directory, name, flags)
            if fd >= 0 { break }
            var code = errno
            if code == EINTR { continue }
            if code == ENOENT {
                fd = openat(directory, name, flags | O_CREAT | O_EXCL, mode_t(0o600))
                if fd >= 0 { break }
                code = errno
                if code == EEXIST || code == EINTR { continue }  // another process made it first: open that one
                if code == EROFS { throw .readOnlyFileSystem }
            }
            throw code == ELOOP ? .symbolicLink : .cannotOpen(errno: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .cannotCheck(errno: code)
        }
        let mode = UInt32(info.st_mode) & 0o7777
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(), mode & 0o077 == 0 else {
            close(fd)
            throw .notPrivate(owner: UInt32(info.st_uid), mode: mode)
        }
        descriptor = fd
        self.path = path
    }

    /// Takes the exclusive lock, retrying with pauses from 1 ms up to 25 ms for at most `timeout`.
    package func lockExclusively(waitingAtMost timeout: Duration) throws(LockFileFailure) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: max(timeout, .zero))
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK || code == EAGAIN else { throw .cannotLock(errno: code) }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timedOut }
            let nap = min(pause, remaining)
            usleep(
                useconds_t(
                    clamping: nap.components.seconds * 1_000_000 + nap.components.attoseconds / 1_000_000_000_000))
            pause = min(pause * 2, .milliseconds(25))
        }
    }

    /// Releases the lock (when held) and closes the file.
    package func unlockAndClose() {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Runs `body` holding the exclusive lock of the file `name` in the open directory
    /// `directory` (see ``init(_:in:path:)`` and ``lockExclusively(waitingAtMost:)``), then
    /// releases it.
    ///
    /// - Parameter failure: turns a failure to lock into the caller's error, or returns `nil` to
    ///   run `body` without the lock (a caller may do so for ``LockFileFailure/readOnlyFileSystem``,
    ///   where no process can write).
    package static func withExclusiveLock<T, Failure: Error>(
        _ name: String, in directory: Int32, path: String, waitingAtMost timeout: Duration,
        failure: (LockFileFailure) -> Failure?, _ body: () throws(Failure) -> T
    ) throws(Failure) -> T {
        let lockFile: LockFile
        do throws(LockFileFailure) {
            lockFile = try LockFile(name, in: directory, path: path)
        } catch {
            guard let failure = failure(error) else { return try body() }
            throw failure
        }
        defer { lockFile.unlockAndClose() }
        do throws(LockFileFailure) {
            try lockFile.lockExclusively(waitingAtMost: timeout)
        } catch {
            guard let failure = failure(error) else { return try body() }
            throw failure
        }
        return try body()
    }
}
