import Foundation
import SecureStorageFoundation

/// Writes a new 0600 file in pieces and puts it in place atomically: the bytes go to a temporary
/// file beside the destination, which ``commit(replacingExisting:)`` syncs and moves into place.
/// Until then the destination is untouched; ``abandon()`` (or deinit) removes the temporary file.
///
/// The temporary file (`<path>.tmp-<pid>-<random>`, a name another user cannot predict) is made
/// by ``PlatformIO/createSecretFile(_:)``: exclusive, never through a link, 0600 and checked
/// before the first byte is written. The destination is never opened: it is replaced by
/// `rename` or `link`, so a file or link planted there is never written through.
final class PrivateFileWriter {
    let path: String
    private let temporary: String
    private var fd: Int32
    /// Set once the temporary file has become ``path``: its name is no longer this writer's.
    private var committed = false

    init(path: String) throws(KeychainError) {
        self.path = path
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard let fd = try PlatformIO.createSecretFile(temporary) else {
            throw KeychainError.temporaryFileExists(temporary: temporary)
        }
        self.temporary = temporary
        self.fd = fd
    }

    deinit { abandon() }

    /// Appends bytes to the temporary file.
    func write(_ data: Data) throws(KeychainError) {
        try PlatformIO.writeAll(data, to: fd, path: path)
    }

    /// Syncs the file and moves it to ``path``. Without `replacingExisting`, an existing file at
    /// ``path`` is left alone and `.invalidParameter` is thrown. A file of another user at
    /// ``path`` (in a sticky directory such as `/tmp`, where only its owner may replace it) is
    /// left alone too, with an error that says so.
    func commit(replacingExisting: Bool) throws(KeychainError) {
        guard fsync(fd) == 0 else { throw PlatformIO.posixError("Cannot write \(path)") }
        close(fd)
        fd = -1
        if replacingExisting {
            guard rename(temporary, path) == 0 else {
                let failure = PlatformIO.posixError("Cannot replace \(path)")
                if failure.code == .keychainUnavailable, let owner = PlatformIO.ownerAndMode(of: path)?.owner,
                    owner != PlatformIO.currentUserID
                {
                    throw KeychainError.fileOwnedByAnotherUser(path: path, owner: owner)
                }
                throw failure
            }
        } else {
            guard link(temporary, path) == 0 else {
                if errno == EEXIST {
                    throw KeychainError.fileExists(path: path)
                }
                throw PlatformIO.posixError("Cannot create \(path)")
            }
            unlink(temporary)
        }
        committed = true
        PlatformIO.syncDirectory(of: path)
    }

    /// Removes the temporary file; the destination is untouched.
    func abandon() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        if !committed { unlink(temporary) }
    }
}
