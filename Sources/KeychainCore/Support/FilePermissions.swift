import Foundation

/// Checks that a keychain file belongs to the current user and is private to them (decision 8).
enum FilePermissions {
    /// Throws unless the file at `path` is a regular file owned by the current user with no
    /// group or other permission bits. A missing file passes (it will be created with 0600).
    static func requirePrivate(_ path: String, role: String) throws(KeychainError) {
        guard let info = PlatformIO.ownerAndMode(of: path) else { return }
        if info.isSymlink {
            throw KeychainError(.keychainUnavailable, "The \(role) at \(path) is a symbolic link, which the keychain refuses to follow. Replace it with the file it points to.")
        }
        if info.owner != PlatformIO.currentUserID {
            throw KeychainError(.keychainUnavailable, "The \(role) at \(path) is owned by user id \(info.owner), not by the current user (\(PlatformIO.currentUserID)). Run as its owner, or fix it with `chown $(id -u) \(path)`.")
        }
        if info.mode & 0o077 != 0 {
            throw KeychainError(.keychainUnavailable, "The \(role) at \(path) is accessible to other users (mode \(String(info.mode, radix: 8))). Fix it with `chmod 600 \(path)` and reopen.")
        }
    }
}
