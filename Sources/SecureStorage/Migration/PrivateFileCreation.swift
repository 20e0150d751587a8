import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the files a migration writes next to a source — the scrubbed rewrite and the
/// `--backup-copy` — so that no other user can read a byte of them or have them written into
/// their own file, even in a directory they can write (such as a sticky `/tmp`).
///
/// The same rules as KeychainCore's `PlatformIO.createSecretFile`, in a POSIX helper of its own:
/// on Apple platforms `SecureStorage` sits on the system Keychain and does not link KeychainCore.
/// 1. `open(O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)`: a file or link planted under the
///    name is never opened, truncated or followed; the migration stops instead.
/// 2. `fchown` to the requested owner when it differs (a migration run as root keeps the
///    source's owner), checked.
/// 3. `fchmod(0600)`, checked, then `fstat`: a regular file with one link, mode 0600, owned as
///    requested — all before the first byte is written.
enum PrivateFileCreation {
    /// Creates `path` and returns its descriptor, open for writing.
    ///
    /// - Parameters:
    ///   - owner: the user and group the file must belong to, or `nil` for this process's.
    ///   - source: the file being migrated, named in errors.
    ///   - role: what the file is ("temporary file", "backup copy"), for errors.
    /// - Throws: ``MigrationError/fileError(file:reason:)`` when the name is taken (nothing is
    ///   written to what is there) or any step fails (the new file is removed).
    static func create(_ path: String, owner: (uid: uid_t, gid: gid_t)?, source: String, role: String) throws(MigrationError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST { throw nameTaken(path, source: source, role: role) }
            throw .fileError(file: source, reason: "cannot create the \(role) \(path): \(String(cString: strerror(code)))")
        }
        func discard(_ what: String) -> MigrationError {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(path)
            return .fileError(file: source, reason: "cannot create the \(role) \(path): \(what) failed (\(reason)); nothing was written to it")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw discard("fstat") }
        if let owner, info.st_uid != owner.uid || info.st_gid != owner.gid {
            guard fchown(fd, owner.uid, owner.gid) == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(path)
                throw .fileError(file: source, reason: "cannot give the \(role) \(path) the source's owner and group (\(owner.uid):\(owner.gid)): \(reason); nothing was written to it. Run the migration as the file's owner, or as root")
            }
        }
        guard fchmod(fd, 0o600) == 0 else { throw discard("fchmod 0600") }
        guard fstat(fd, &info) == 0 else { throw discard("fstat") }
        let expectedOwner = owner?.uid ?? geteuid()
        guard info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o7777 == 0o600, info.st_uid == expectedOwner, info.st_nlink == 1 else {
            close(fd)
            unlink(path)
            throw .fileError(file: source, reason: "the \(role) \(path) was created but is not a private file (owner \(info.st_uid), mode \(String(info.st_mode & 0o7777, radix: 8))); nothing was written to it. Check the directory's permissions, ACLs and mount options")
        }
        return fd
    }

    /// Writes all of `data` to `fd`, retrying short writes and interruptions; `false` on an error.
    static func writeAll(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
    }

    /// The error for a name that is already taken, saying whose file is in the way.
    private static func nameTaken(_ path: String, source: String, role: String) -> MigrationError {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_uid != geteuid() else {
            return .fileError(file: source, reason: "cannot create the \(role) \(path): a file of that name is already there (left by an interrupted run?); nothing was written to it. Check it, remove it, and run the migration again")
        }
        return .fileError(file: source, reason: "cannot create the \(role) \(path): another user (user id \(info.st_uid)) already has a file of that name there, which could be a trap to capture the secrets; it was left untouched and nothing was written to it. Remove it (ask its owner or an administrator), or move the source to a directory only you can write, then run the migration again")
    }
}
