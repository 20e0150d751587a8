#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorageFoundation

/// The directory of a store of protected files, held open: every file operation is relative to
/// this descriptor (`openat`, `renameat`, `unlinkat`), so replacing the directory or a parent
/// with a link after the store was opened redirects nothing.
///
/// Files are opened with `O_NOFOLLOW` and checked before a byte is used: a regular file with one
/// link, owned by this user, mode 0600. New files are created exclusively (`O_EXCL`) with mode
/// 0600 under a temporary name and renamed into place.
final class StoreDirectory: Sendable {
    let path: String
    private let descriptor: Int32

    /// Opens (and, when missing, creates with mode 0700) the directory at `url`.
    /// - Throws: `.insecureFile` when it is a link, not a directory, not this user's or open to others.
    init(_ url: URL) throws(SecureStorageError) {
        path = url.path
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            let code = errno
            guard code == ENOENT else { throw .fileSystem(errno: code) }
            do {
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .fileSystem(
                    errno: (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : EIO)
            }
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw errno == ELOOP || errno == ENOTDIR ? .insecureFile : .fileSystem(errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            close(fd)
            throw .insecureFile
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    // MARK: - Reading

    /// Opens an existing file for reading, after checking it is private.
    /// - Throws: `.notFound` when there is none; `.insecureFile` for a link, a FIFO or device, a
    ///   file with other links, another owner or a mode open to others.
    func openForReading(_ name: String) throws(SecureStorageError) -> Int32 {
        // O_NONBLOCK: opening a FIFO planted under the name must not wait for a writer.
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: throw .notFound
            case ELOOP: throw .insecureFile
            case let code: throw .fileSystem(errno: code)
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1,
            info.st_uid == geteuid(), info.st_mode & 0o077 == 0
        else {
            close(fd)
            throw .insecureFile
        }
        return fd
    }

    /// Closes a descriptor (a name that no `close()` method of a caller shadows).
    static func closeDescriptor(_ fd: Int32) { close(fd) }

    /// The size of an open file.
    static func size(of fd: Int32) throws(SecureStorageError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileSystem(errno: errno) }
        return Int(info.st_size)
    }

    /// Reads exactly `count` bytes at `offset`; fewer only at the end of the file.
    static func readBytes(_ fd: Int32, count: Int, at offset: Int) throws(SecureStorageError) -> Data {
        var data = Data(count: count)
        var done = 0
        while done < count {
            let result = data.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done))
            }
            if result < 0 && errno == EINTR { continue }
            guard result >= 0 else { throw .fileSystem(errno: errno) }
            if result == 0 { break }
            done += result
        }
        return data.prefix(done)
    }

    // MARK: - Writing

    /// Writes all of `data` at `offset`, retrying short and interrupted writes.
    static func writeAll(_ data: Data, to fd: Int32, at offset: Int) throws(SecureStorageError) {
        let code = data.withUnsafeBytes { buffer -> Int32 in
            var done = 0
            while done < buffer.count {
                let result = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += result
            }
            return 0
        }
        guard code == 0 else { throw .fileSystem(errno: code) }
    }

    /// Creates a new temporary file for `name`, exclusively and private, locked against the
    /// sweep of abandoned temporaries while it is being written.
    func createTemporary(for name: String) throws(SecureStorageError) -> (fd: Int32, name: String) {
        for _ in 0..<8 {
            let suffix = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            let temporary = ".\(name)\(Self.temporaryMarker)\(suffix)"
            let fd: Int32
            do throws(SecretFileCreationFailure) {
                fd = try SecretFile.create(temporary, in: descriptor)
            } catch {
                switch error {
                // taken, or swept (below) before it was checked
                case .nameTaken, .notPrivate(owner: _, mode: _, links: 0):
                    continue
                case .notPrivate:
                    throw .insecureFile
                case .cannotCreate(let code), .cannotChangeOwner(let code), .cannotRestrictMode(let code),
                    .cannotCheck(let code):
                    throw .fileSystem(errno: code)
                }
            }
            guard flock(fd, LOCK_EX) == 0 else {
                let code = errno
                close(fd)
                unlinkat(descriptor, temporary, 0)
                throw .fileSystem(errno: code)
            }
            // The sweep of another store may have taken the file between its creation and the
            // lock: it is then unlinked, and a new one is made.
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_nlink == 1 else {
                close(fd)
                continue
            }
            return (fd, temporary)
        }
        throw .fileSystem(errno: EEXIST)
    }

    /// Writes all of `data`, retrying short writes (``SecretFile/writeAll(_:to:)``).
    static func writeAll(_ data: Data, to fd: Int32) throws(SecureStorageError) {
        let code = SecretFile.writeAll(data, to: fd)
        guard code == 0 else { throw .fileSystem(errno: code) }
    }

    /// Makes a written temporary file the file `name`: `fsync`, `rename` over any previous
    /// file, `fsync` of the directory. A crash at any point leaves the old or the new file whole.
    func commit(_ fd: Int32, temporary: String, as name: String) throws(SecureStorageError) {
        guard fsync(fd) == 0 else { throw .fileSystem(errno: errno) }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else { throw .fileSystem(errno: errno) }
        guard fsync(descriptor) == 0 else { throw .fileSystem(errno: errno) }
    }

    /// Removes a temporary file (after a failed or abandoned write).
    func removeTemporary(_ temporary: String) {
        unlinkat(descriptor, temporary, 0)
    }

    // MARK: - Names

    /// Renames a file, replacing any file of the new name, durably.
    func rename(_ name: String, to newName: String) throws(SecureStorageError) {
        guard renameat(descriptor, name, descriptor, newName) == 0 else {
            throw errno == ENOENT ? .notFound : .fileSystem(errno: errno)
        }
        guard fsync(descriptor) == 0 else { throw .fileSystem(errno: errno) }
    }

    /// Whether `name` is the file open as `fd` (same device and inode).
    func isSameFile(_ fd: Int32, as name: String) throws(SecureStorageError) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(fd, &open) == 0 else { throw .fileSystem(errno: errno) }
        guard fstatat(descriptor, name, &named, Int32(AT_SYMLINK_NOFOLLOW)) == 0 else {
            if errno == ENOENT { return false }
            throw .fileSystem(errno: errno)
        }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Removes a file durably; `false` when there was none.
    func remove(_ name: String) throws(SecureStorageError) -> Bool {
        guard unlinkat(descriptor, name, 0) == 0 else {
            if errno == ENOENT { return false }
            throw .fileSystem(errno: errno)
        }
        guard fsync(descriptor) == 0 else { throw .fileSystem(errno: errno) }
        return true
    }

    /// The names of the directory's entries, without `.` and `..`.
    func entries() throws(SecureStorageError) -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            let code = errno
            if copy >= 0 { close(copy) }
            throw .fileSystem(errno: code)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The names of the directory's regular files (not links, directories or others).
    func regularFiles() throws(SecureStorageError) -> [String] {
        try entries().filter { name in
            var info = stat()
            return fstatat(descriptor, name, &info, Int32(AT_SYMLINK_NOFOLLOW)) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Removes temporary files that no writer holds any more (left by a process that crashed
    /// or was killed mid-write). They hold ciphertext only.
    func removeAbandonedTemporaries() {
        guard let names = try? entries() else { return }
        for name in names where name.hasPrefix(".") && name.contains(Self.temporaryMarker) {
            let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
                flock(fd, LOCK_EX | LOCK_NB) == 0
            {
                unlinkat(descriptor, name, 0)
            }
            close(fd)
        }
    }

    /// What marks a temporary file's name (after a leading dot and the file's name).
    static let temporaryMarker = ".ssf-"
}
#endif
