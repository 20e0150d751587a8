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

/// Writes a new 0600 file in pieces and puts it in place atomically: the bytes go to a temporary
/// file beside the destination, which ``commit(replacingExisting:)`` syncs and moves into place.
/// Until then the destination is untouched; ``abandon()`` (or deinit) removes the temporary file.
final class PrivateFileWriter {
    let path: String
    private let temporary: String
    private var fd: Int32

    init(path: String) throws(KeychainError) {
        self.path = path
        temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PlatformIO.posixError("Cannot create \(temporary)") }
        _ = fchmod(fd, 0o600)
    }

    deinit { abandon() }

    /// Appends bytes to the temporary file.
    func write(_ data: Data) throws(KeychainError) {
        try PlatformIO.writeAll(data, to: fd, path: path)
    }

    /// Syncs the file and moves it to ``path``. Without `replacingExisting`, an existing file at
    /// ``path`` is left alone and `.invalidParameter` is thrown.
    func commit(replacingExisting: Bool) throws(KeychainError) {
        guard fsync(fd) == 0 else { throw PlatformIO.posixError("Cannot write \(path)") }
        close(fd)
        fd = -1
        if replacingExisting {
            guard rename(temporary, path) == 0 else { throw PlatformIO.posixError("Cannot replace \(path)") }
        } else {
            guard link(temporary, path) == 0 else {
                if errno == EEXIST {
                    throw KeychainError(.invalidParameter, "\(path) already exists; choose another name or allow replacing it.")
                }
                throw PlatformIO.posixError("Cannot create \(path)")
            }
            unlink(temporary)
        }
        PlatformIO.syncDirectory(of: path)
    }

    /// Removes the temporary file; the destination is untouched.
    func abandon() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        unlink(temporary)
    }
}
