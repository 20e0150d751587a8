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
    /// Creates a new, empty file that will hold a secret, and returns its descriptor (open for
    /// writing), or `nil` when something already has that name (the caller decides whether that
    /// is a lost race or an attack; nothing is written to what is there).
    ///
    /// The one way this library creates such a file — the device key, the database, the PIN file,
    /// unlock tickets, format anchors and backups (through ``PrivateFileWriter``) — so that no
    /// byte of a secret is ever in a file another user can open:
    /// - `open(O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)`: a file, FIFO or symbolic link
    ///   planted under the name is never opened, truncated or followed;
    /// - `fchmod(0600)` on the descriptor, checked: the umask or a default ACL cannot widen it;
    /// - `fstat`, checked: a regular file with one link, owned by this user, mode 0600.
    ///
    /// On any failure the new file is closed and removed, and the error says why.
    static func createSecretFile(_ path: String) throws(KeychainError) -> Int32? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return nil }
            throw posixError("Cannot create \(path)")
        }
        func discard(_ error: KeychainError) -> KeychainError {
            close(fd)
            unlink(path)
            return error
        }
        guard fchmod(fd, 0o600) == 0 else { throw discard(posixError("Cannot make \(path) private (fchmod 0600)")) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw discard(posixError("Cannot check \(path) after creating it")) }
        guard info.st_mode & S_IFMT == S_IFREG, UInt32(info.st_uid) == currentUserID, info.st_mode & 0o7777 == 0o600, info.st_nlink == 1 else {
            throw discard(KeychainError.createdFileNotPrivate(path: path, owner: info.st_uid, mode: info.st_mode & 0o7777, linkCount: info.st_nlink))
        }
        return fd
    }
}
