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

/// The file a private directory's lock is taken on (``PlatformIO/withExclusiveLock(onDirectory:waitingAtMost:_:)``):
/// `directory.lock`, empty, mode 0600, created exclusively by the directory's owner inside the
/// 0700 directory. No other user can open it, so no other user can hold its lock, whatever
/// descriptors of the directory they kept from before it was private.
///
/// It is opened relative to a descriptor of the directory (opened without following a link),
/// never following a symbolic link itself, without blocking (a FIFO cannot hang the open), and
/// used only when it is a regular file of this user that no one else may read or write.
/// Keychain directories of earlier versions, whose lock was the directory itself, get the file
/// at their first opening; nothing else changes in them.
struct DirectoryLockFile {
    /// The file's name in the directory.
    static let name = "directory.lock"

    /// The open file.
    let descriptor: Int32
    /// Its path, for messages.
    let path: String

    /// Opens the lock file of `directory`, creating it when missing; `nil` when it is missing and
    /// cannot be created because the file system is read-only (no process can write there, so
    /// there is nothing to take turns with).
    static func open(in directory: URL) throws(KeychainError) -> DirectoryLockFile? {
        let directoryPath = directory.path
        let path = directory.appendingPathComponent(name).path
        let directoryDescriptor = try PlatformIO.openDirectory(directoryPath, role: "directory")
        defer { close(directoryDescriptor) }
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var fd: Int32 = -1
        while fd < 0 {
            fd = openat(directoryDescriptor, name, flags)
            if fd >= 0 { break }
            var code = errno
            if code == EINTR { continue }
            if code == ENOENT {
                fd = openat(directoryDescriptor, name, flags | O_CREAT | O_EXCL, mode_t(0o600))
                if fd >= 0 { break }
                code = errno
                if code == EEXIST || code == EINTR { continue }   // another process made it first: open that one
                if code == EROFS { return nil }
            }
            if code == ELOOP {
                throw KeychainError.lockFileSymbolicLink(path: path)
            }
            errno = code
            throw PlatformIO.posixError("Cannot open or create the lock file \(path)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            errno = code
            throw PlatformIO.posixError("Cannot check the lock file \(path)")
        }
        let mode = UInt32(info.st_mode) & 0o7777
        guard (info.st_mode & S_IFMT) == S_IFREG, UInt32(info.st_uid) == PlatformIO.currentUserID, mode & 0o077 == 0 else {
            close(fd)
            throw KeychainError.lockFileNotPrivate(path: path, owner: info.st_uid, mode: mode)
        }
        return DirectoryLockFile(descriptor: fd, path: path)
    }
}
