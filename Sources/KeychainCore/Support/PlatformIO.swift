import Foundation
import SecureStorageFoundation

/// Thin wrappers over POSIX calls the keychain needs for private files: exclusive creation with
/// mode 0600 (``createSecretFile(_:)``), ownership and mode checks (``makePrivateDirectory(_:role:)``),
/// bounded reads, fsync, and bounded advisory locks (``withExclusiveLock(onDirectory:waitingAtMost:_:)``).
enum PlatformIO {
    /// The effective user id of this process.
    static var currentUserID: UInt32 { UInt32(geteuid()) }

    /// Owner and permission bits of a path, without following a final symbolic link.
    static func ownerAndMode(of path: String) -> (owner: UInt32, mode: UInt32, isSymlink: Bool)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let isSymlink = (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFLNK)
        return (UInt32(info.st_uid), UInt32(info.st_mode) & 0o7777, isSymlink)
    }

    /// Whether `path` (not followed when it is a symbolic link) is neither a regular file nor a
    /// directory: a FIFO, socket or device, which the keychain never creates.
    static func isSpecialFile(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR && type != S_IFLNK
    }

    static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates an empty file with mode 0600 if it does not exist yet; returns whether it did.
    /// It goes through ``createSecretFile(_:)``, like every file that will hold a secret.
    @discardableResult
    static func createPrivateFileIfMissing(_ path: String) throws(KeychainError) -> Bool {
        guard let fd = try createSecretFile(path) else { return false }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw posixError("Cannot write \(path)") }
        return true
    }

    /// Writes `data` to a new file at `path` atomically and durably, through ``PrivateFileWriter``
    /// (a temporary file written and synced, then hard-linked into place, which fails if `path`
    /// appeared meanwhile). Returns `false` when another writer won the race.
    static func writeNewPrivateFile(_ data: Data, to path: String) throws(KeychainError) -> Bool {
        let writer = try PrivateFileWriter(path: path)
        try writer.write(data)
        do {
            try writer.commit(replacingExisting: false)
        } catch  where error.code == .invalidParameter {  // another process's file is already there
            return false
        }
        return true
    }

    /// Removes the temporary files ``writeNewPrivateFile(_:to:)`` left next to `path` when its
    /// process was killed between creating and unlinking them (they may hold a copy of a key).
    /// Files of processes still running are left alone: they may be mid-write.
    static func removeAbandonedTemporaryFiles(of path: String) {
        let url = URL(fileURLWithPath: path)
        removeAbandonedTemporaryFiles(in: url.deletingLastPathComponent().path) { $0 == url.lastPathComponent }
    }

    /// Removes the ``PrivateFileWriter`` temporary files (`<name>.tmp-<pid>-<random>`) in
    /// `directory` whose `<name>` passes `matches` and whose writer process is gone.
    static func removeAbandonedTemporaryFiles(in directory: String, matching matches: (Substring) -> Bool) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let marker = name.range(of: ".tmp-", options: .backwards), matches(name[..<marker.lowerBound]),
                let pid = name[marker.upperBound...].split(separator: "-").first.flatMap({ Int32($0) })
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// Removes a file if it exists.
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// Reads a small file whole, without following a symbolic link and without blocking: a FIFO,
    /// device or directory planted in its place is refused (opening a FIFO for reading would
    /// wait for a writer forever), and so is a file longer than `maximumSize` (a sparse 20 GB
    /// file must not be read into memory).
    /// Who may own and read a file holding a secret, checked on its open descriptor.
    enum SecretFileAccess {
        /// Anyone may (files whose type and size alone are checked).
        case unchecked
        /// Only the current user: owned by them, no group or other permission bits.
        case ownerOnly
        /// A systemd credential: owned by the current user or by root, readable by nobody but
        /// its owner and the current user (group bits only as the mask of an ACL that grants
        /// nobody else anything: see `CredentialFileAccess`).
        case systemdCredential
    }

    static func readFile(_ path: String, maximumSize: Int, access: SecretFileAccess = .unchecked) throws(KeychainError)
        -> Data
    {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw posixError("Cannot read \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw posixError("Cannot read \(path)") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw KeychainError.notARegularFile(path: path)
        }
        // Checked on the open descriptor, so the file read is the file checked.
        if access == .systemdCredential {
            try CredentialFileAccess.check(fd: fd, info: info, path: path, currentUser: currentUserID)
        } else if access == .ownerOnly && (info.st_uid != currentUserID || info.st_mode & 0o077 != 0) {
            throw info.st_uid != currentUserID
                ? KeychainError.passphraseFileNotYours(path: path, owner: info.st_uid, currentUser: currentUserID)
                : KeychainError.passphraseFileReadableByOthers(path: path, mode: info.st_mode & 0o777)
        }
        guard Int(info.st_size) <= maximumSize else {
            throw KeychainError.fileTooLarge(path: path, size: info.st_size, maximumSize: maximumSize)
        }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { SecretWiping.wipe(&buffer) }  // held a secret
        while result.count <= maximumSize {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 { throw posixError("Cannot read \(path)") }
            if count == 0 { break }
            result.append(contentsOf: buffer[0..<count])
        }
        guard result.count <= maximumSize else {
            throw KeychainError.fileGrewTooLarge(path: path, maximumSize: maximumSize)
        }
        return result
    }

    /// Makes a rename or link in the file's directory durable.
    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Makes a file's data durable (`fdatasync` through a descriptor of its own: the sync is the
    /// file's, whichever descriptor wrote it).
    static func syncData(of path: String) throws(KeychainError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw posixError("open \(path)") }
        defer { close(fd) }
        guard fdatasync(fd) == 0 else { throw posixError("fdatasync \(path)") }
    }

    static func posixError(_ what: String) -> KeychainError {
        let code = errno
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return KeychainError.systemCallDiskFull(what: what, reason: reason)
        case EACCES, EPERM:
            return KeychainError.systemCallPermissionDenied(what: what, reason: reason)
        case EROFS:
            return KeychainError.systemCallReadOnly(what: what, reason: reason)
        case ELOOP:
            return KeychainError.systemCallSymbolicLink(what: what)
        default:
            return KeychainError.systemCallFailed(what: what, reason: reason)
        }
    }
}
