import Foundation

/// Checks that a keychain file belongs to the current user and is private to them.
enum FilePermissions {
    /// Throws unless the file at `path` is owned by the current user with no group or other
    /// permission bits, and is not a symbolic link, FIFO, socket or device (SQLite or a read
    /// would block on a FIFO for ever). A missing file passes (it will be created with 0600).
    static func requirePrivate(_ path: String, role: String) throws(KeychainError) {
        guard let info = PlatformIO.ownerAndMode(of: path) else { return }
        if info.isSymlink {
            throw KeychainError.protectedFileIsSymbolicLink(role: role, path: path)
        }
        if PlatformIO.isSpecialFile(path) {
            throw KeychainError.protectedFileNotRegular(role: role, path: path)
        }
        if info.owner != PlatformIO.currentUserID {
            throw KeychainError.protectedFileOwnedByAnotherUser(role: role, path: path, owner: info.owner)
        }
        if info.mode & 0o077 != 0 {
            throw KeychainError.protectedFileAccessibleToOthers(role: role, path: path, mode: info.mode)
        }
    }
}
