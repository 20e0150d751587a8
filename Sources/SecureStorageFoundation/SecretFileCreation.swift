import Foundation

/// Why ``SecretFile/create(_:in:owner:)`` made no file. Each caller turns it into its own error
/// and message; none of them carries a byte of what the file was to hold.
package enum SecretFileCreationFailure: Error, Equatable {
    /// Something already has the name (nothing was opened, truncated or followed): a lost race,
    /// a file left by an interrupted run, or a trap; the caller decides which.
    case nameTaken
    /// `open` failed with this `errno`.
    case cannotCreate(errno: Int32)
    /// `fchown` to the requested owner failed with this `errno` (the new file was removed).
    case cannotChangeOwner(errno: Int32)
    /// `fchmod(0600)` failed with this `errno` (the new file was removed).
    case cannotRestrictMode(errno: Int32)
    /// `fstat` of the new file failed with this `errno` (the new file was removed).
    case cannotCheck(errno: Int32)
    /// The new file is not a private regular file of the expected owner (a default ACL, a
    /// mount option or a file system that ignores modes); it was removed.
    case notPrivate(owner: UInt32, mode: UInt32, links: UInt64)
}

/// The one way this package creates a file that will hold a secret — the device key, the
/// database, the PIN file, unlock tickets, format anchors, backups, protected files and a
/// migration's rewrite and backup copy — so that no byte of a secret is ever in a file another
/// user can open, even in a directory they can write (a sticky `/tmp`):
/// 1. `open(O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)`: a file, FIFO or symbolic link
///    planted under the name is never opened, truncated or followed;
/// 2. `fchown` to the requested owner when it differs (a migration run as root keeps the
///    source's owner), checked;
/// 3. `fchmod(0600)` on the descriptor, checked: the umask or a default ACL cannot widen it;
/// 4. `fstat`, checked: a regular file with one link, mode 0600, owned by the requested owner
///    (this process's effective user by default) — all before the first byte is written.
///
/// On any failure after the file was made it is closed and removed.
package enum SecretFile {
    /// Creates `name` (a path, or a name relative to the directory descriptor `directory`) and
    /// returns its descriptor, open for writing.
    ///
    /// - Parameters:
    ///   - directory: the directory `name` is relative to, or `AT_FDCWD` for a path.
    ///   - owner: the user and group the file must belong to, or `nil` for this process's user.
    package static func create(
        _ name: String, in directory: Int32 = AT_FDCWD,
        owner: (uid: uid_t, gid: gid_t)? = nil
    ) throws(SecretFileCreationFailure) -> Int32 {
        let fd = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
        guard fd >= 0 else {
            let code = errno
            throw code == EEXIST ? .nameTaken : .cannotCreate(errno: code)
        }
        func discard(_ failure: SecretFileCreationFailure) -> SecretFileCreationFailure {
            close(fd)
            unlinkat(directory, name, 0)
            return failure
        }
        var info = stat()
        if let owner {
            guard fstat(fd, &info) == 0 else { throw discard(.cannotCheck(errno: errno)) }
            if info.st_uid != owner.uid || info.st_gid != owner.gid {
                guard fchown(fd, owner.uid, owner.gid) == 0 else { throw discard(.cannotChangeOwner(errno: errno)) }
            }
        }
        guard fchmod(fd, 0o600) == 0 else { throw discard(.cannotRestrictMode(errno: errno)) }
        guard fstat(fd, &info) == 0 else { throw discard(.cannotCheck(errno: errno)) }
        let mode = UInt32(info.st_mode) & 0o7777
        let ownerMatches = owner.map { info.st_uid == $0.uid && info.st_gid == $0.gid } ?? (info.st_uid == geteuid())
        guard info.st_mode & S_IFMT == S_IFREG, mode == 0o600, ownerMatches, info.st_nlink == 1 else {
            throw discard(.notPrivate(owner: UInt32(info.st_uid), mode: mode, links: UInt64(info.st_nlink)))
        }
        return fd
    }

    /// Writes all of `data` to `fd`, retrying short writes and interruptions.
    ///
    /// - Returns: `0` when every byte was written, else the `errno` of the failed write (`EIO`
    ///   for a write that wrote nothing, which would otherwise be retried for ever).
    package static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
        data.withUnsafeBytes { buffer -> Int32 in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { return errno }
                if count == 0 { return EIO }
                offset += count
            }
            return 0
        }
    }
}
