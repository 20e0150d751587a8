import Foundation

/// Checks that a keychain file belongs to the current user and is private to them.
enum FilePermissions {
    /// Throws unless the file at `path` is owned by the current user with no group or other
    /// permission bits, and is not a symbolic link, FIFO, socket or device (SQLite or a read
    /// would block on a FIFO for ever). A missing file passes (it will be created with 0600).
    static func requirePrivate(_ path: String, role: String) throws(KeychainError) {
        guard let info = PlatformIO.ownerAndMode(of: path) else { return }
        if info.isSymlink {
            throw KeychainError(.keychainUnavailable, "The \(role) at \(path) is a symbolic link, which the keychain refuses to follow. Replace it with the file it points to.")
        }
        if PlatformIO.isSpecialFile(path) {
            throw KeychainError(.keychainUnavailable, "The \(role) at \(path) is not a regular file (a pipe, socket or device is in its place), so the keychain does not open it. Remove it, and restore the file from a backup if it was replaced.")
        }
        if info.owner != PlatformIO.currentUserID {
            throw KeychainError(.keychainUnavailable, "The \(role) at \(path) is owned by user id \(info.owner), not by the current user (\(PlatformIO.currentUserID)). Run as its owner, or fix it with `chown $(id -u) \(path)`.")
        }
        if info.mode & 0o077 != 0 {
            throw KeychainError(.keychainUnavailable, "The \(role) at \(path) is accessible to other users (mode \(String(info.mode, radix: 8))). Fix it with `chmod 600 \(path)` and reopen.")
        }
    }
}
