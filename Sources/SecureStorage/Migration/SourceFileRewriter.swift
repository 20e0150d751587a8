import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rewrites a source file atomically and durably, keeping its permissions and owner: a temporary file in
/// the same directory is written, synced and renamed over the original, then the directory is
/// synced. A crash leaves either the old or the new file, never a mix.
enum SourceFileRewriter {
    /// Refuses sources whose rewrite would leave the secrets elsewhere: a symbolic link (the
    /// rename would replace the link, not its target) or a file with other hard links.
    static func requireSingleRegularFile(_ path: String) throws(MigrationError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }     // a missing file is reported by the reader
        if (info.st_mode & S_IFMT) == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "its target"
            throw .fileError(file: path, reason: "is a symbolic link; migrate \(target) instead, so the file that holds the secrets is the one scrubbed")
        }
        if info.st_nlink > 1 {
            throw .fileError(file: path, reason: "has \(info.st_nlink) hard links; the other names would keep the secrets. Remove them first")
        }
    }

    static func replace(_ path: String, with contents: Data) throws(MigrationError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw failure(path, "cannot read its permissions") }
        let temporary = path + ".migrating-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path, "cannot create a temporary file beside it") }
        var ok = contents.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        _ = fchown(fd, info.st_uid, info.st_gid)     // keeps the owner when run as root; a no-op otherwise
        ok = ok && fchmod(fd, info.st_mode & 0o7777) == 0 && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let error = failure(path, "cannot write the scrubbed file")
            unlink(temporary)
            throw error
        }
        syncDirectory(of: path)
    }

    /// Copies `path` to `copy` with mode 0600 (the optional pre-migration backup).
    static func copy(_ path: String, to copy: String) throws(MigrationError) {
        guard let contents = FileManager.default.contents(atPath: path),
              FileManager.default.createFile(atPath: copy, contents: contents, attributes: [.posixPermissions: 0o600]) else {
            throw failure(path, "cannot write the backup copy \(copy)")
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
