import Foundation
import SecureStorageFoundation

extension PlatformIO {
    /// Creates the directory at `url` with mode 0700 if it is missing, and checks it whether it
    /// was just made or found: see ``requirePrivateDirectory(_:role:)``. Missing parents are
    /// created with the default mode.
    ///
    /// - Parameter role: what the directory is, for error messages ("data directory", …).
    static func makePrivateDirectory(_ url: URL, role: String = "keychain directory") throws(KeychainError) {
        let path = url.path
        let parent = url.deletingLastPathComponent()
        if !fileExists(path) && !fileExists(parent.path) {
            do { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) } catch {
                throw KeychainError.directoryCreationFailed(directory: parent.path, reason: error.localizedDescription)
            }
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw posixError("Cannot create the \(role) \(path)")
        }
        try requirePrivateDirectory(url, role: role)
    }

    /// Checks an existing directory through a descriptor opened with `O_DIRECTORY | O_NOFOLLOW`
    /// (so what is checked is what is there, never a link's target):
    /// - a symbolic link, a file in its place, or a directory of another user is refused;
    /// - one that other users can write (a shared or 0777 directory: its files may have been
    ///   planted or replaced) is refused;
    /// - one of this user that others can only read or enter (0755) is made 0700 with `fchmod`
    ///   on the descriptor, checked.
    ///
    /// The errors say what to do, and never ask the user to take over a directory of someone else.
    static func requirePrivateDirectory(_ url: URL, role: String) throws(KeychainError) {
        let path = url.path
        let fd = try openDirectory(path, role: role)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw posixError("Cannot check the \(role) \(path)") }
        let owner = UInt32(info.st_uid)
        let mode = UInt32(info.st_mode) & 0o7777
        guard owner == currentUserID else {
            throw KeychainError.directoryOwnedByAnotherUser(
                role: role, path: path, owner: owner, currentUserID: currentUserID)
        }
        if mode & 0o022 != 0 {
            throw KeychainError.directoryWritableByOthers(role: role, path: path, mode: mode)
        }
        if mode & 0o077 != 0 {
            guard fchmod(fd, 0o700) == 0 else {
                throw posixError("Cannot make the \(role) \(path) private (chmod 700)")
            }
        }
    }

    /// Opens a directory for checking and locking, without following a final symbolic link.
    static func openDirectory(_ path: String, role: String) throws(KeychainError) -> Int32 {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0 { return fd }
        let code = errno
        var info = stat()
        if code == ELOOP || code == ENOTDIR || code == EMLINK, lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK {
                throw KeychainError.directoryIsSymbolicLink(role: role, path: path)
            }
            throw KeychainError.directoryIsAFile(role: role, path: path)
        }
        errno = code
        throw posixError("Cannot open the \(role) \(path)")
    }
}
