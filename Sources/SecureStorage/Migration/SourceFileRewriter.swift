import Foundation
import SecureStorageFoundation

/// Rewrites a source file atomically and durably, keeping its permissions and owner: a temporary file in
/// the same directory is written, synced and renamed over the original, then the directory is
/// synced. A crash leaves either the old or the new file, never a mix. Every file it creates goes
/// through ``SecretFile/create(_:in:owner:)``.
enum SourceFileRewriter {
    /// Refuses sources whose rewrite would leave the secrets elsewhere: a symbolic link (the
    /// rename would replace the link, not its target) or a file with other hard links.
    static func requireSingleRegularFile(_ path: String) throws(MigrationError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // a missing file is reported by the reader
        if (info.st_mode & S_IFMT) == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "its target"
            throw .fileError(
                file: path,
                reason:
                    "is a symbolic link; migrate \(target) instead, so the file that holds the secrets is the one scrubbed"
            )
        }
        if info.st_nlink > 1 {
            throw .fileError(
                file: path,
                reason: "has \(info.st_nlink) hard links; the other names would keep the secrets. Remove them first")
        }
    }

    /// Replaces `path` with `contents`, keeping its owner, group and mode. The temporary file
    /// `<path>.migrating-<pid>` is made by ``SecretFile/create(_:in:owner:)`` (exclusive, 0600, owner set and
    /// checked before the first byte); if anything has that name already — another user's trap
    /// in a shared directory — the migration stops and writes nothing to it.
    static func replace(_ path: String, with contents: Data) throws(MigrationError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw failure(path, "cannot read its permissions") }
        let temporary = path + ".migrating-\(getpid())"
        let fd = try createPrivateFile(
            temporary, owner: (info.st_uid, info.st_gid), source: path, role: "temporary file")
        var ok = SecretFile.writeAll(contents, to: fd) == 0
        // The scrubbed file gets the source's mode only now, as it is about to take its place.
        ok = ok && fchmod(fd, info.st_mode & 0o7777) == 0 && fsync(fd) == 0
        let error = ok ? nil : failure(path, "cannot write the scrubbed file")
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let error = error ?? failure(path, "cannot put the scrubbed file in place")
            unlink(temporary)
            throw error
        }
        syncDirectory(of: path)
    }

    /// Writes `contents` (the source's bytes, as verified) to `copy` — the optional
    /// pre-migration backup — readable by the source's owner only (0600) from its first byte.
    ///
    /// The bytes go to a new file with an unpredictable name made by ``SecretFile/create(_:in:owner:)``,
    /// which is then renamed to `copy`; nothing is ever opened or written at `copy` itself. An
    /// existing `copy` is replaced only when it is a regular file of this user or of the source's
    /// owner (an earlier run's copy); anything else there — another user's file, a link, a pipe —
    /// stops the migration before any write.
    static func copy(_ contents: Data, of path: String, to copy: String) throws(MigrationError) {
        var source = stat()
        guard lstat(path, &source) == 0 else { throw failure(path, "cannot read its permissions") }
        var existing = stat()
        if lstat(copy, &existing) == 0 {
            let problem: String? =
                if existing.st_mode & S_IFMT != S_IFREG {
                    "is already taken by something that is not a regular file (a link, pipe or directory)"
                } else if existing.st_uid != geteuid() && existing.st_uid != source.st_uid {
                    "already exists and belongs to another user (user id \(existing.st_uid))"
                } else {
                    nil  // an earlier run's copy: replaced below
                }
            if let problem {
                throw .fileError(
                    file: path,
                    reason:
                        "the backup copy \(copy) \(problem); it was left untouched, nothing was written to it, and the source was not scrubbed. Remove it (ask its owner or an administrator), or run without --backup-copy, then run the migration again"
                )
            }
        }
        let temporary = copy + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = try createPrivateFile(
            temporary, owner: (source.st_uid, source.st_gid), source: path, role: "backup copy")
        let ok = SecretFile.writeAll(contents, to: fd) == 0 && fsync(fd) == 0
        let error = ok ? nil : failure(path, "cannot write the backup copy \(copy)")
        close(fd)
        guard ok, rename(temporary, copy) == 0 else {
            let error =
                error
                ?? failure(
                    path,
                    "cannot put the backup copy in place at \(copy) (in a shared directory, a file of another user there cannot be replaced)"
                )
            unlink(temporary)
            throw error
        }
        syncDirectory(of: copy)
    }

    /// Creates `path` for writing with ``SecretFile/create(_:in:owner:)``, owned by `owner`;
    /// `source` and `role` name it in errors.
    private static func createPrivateFile(
        _ path: String, owner: (uid: uid_t, gid: gid_t), source: String,
        role: String
    ) throws(MigrationError) -> Int32 {
        do throws(SecretFileCreationFailure) {
            return try SecretFile.create(path, owner: owner)
        } catch {
            throw .cannotCreate(role, at: path, source: source, owner: owner, error)
        }
    }

    private static func syncDirectory(of path: String) {
        let fd = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    private static func failure(_ path: String, _ what: String) -> MigrationError {
        .fileError(file: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
