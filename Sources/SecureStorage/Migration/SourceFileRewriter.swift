import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rewrites a source file atomically and durably, keeping its permissions: a temporary file in
/// the same directory is written, synced and renamed over the original, then the directory is
/// synced. A crash leaves either the old or the new file, never a mix.
enum SourceFileRewriter {
    static func replace(_ path: String, with contents: Data) throws(MigrationError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure(path, "cannot read its permissions") }
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

    static func remove(_ path: String) {
        unlink(path)
        syncDirectory(of: path)
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
