import Foundation
import SecureStorageFoundation

extension PlatformIO {
    /// Creates a new, empty file that will hold a secret, and returns its descriptor (open for
    /// writing), or `nil` when something already has that name (the caller decides whether that
    /// is a lost race or an attack; nothing is written to what is there).
    ///
    /// The device key, the database, the PIN file, unlock tickets, format anchors and backups
    /// (through ``PrivateFileWriter``) are all made here, by ``SecretFile/create(_:in:owner:)``:
    /// exclusive, never through a link, mode 0600 set and checked, a regular file of this user
    /// with one link, before the first byte is written. On any failure the new file is removed,
    /// and the error says why.
    static func createSecretFile(_ path: String) throws(KeychainError) -> Int32? {
        do throws(SecretFileCreationFailure) {
            return try SecretFile.create(path)
        } catch {
            switch error {
            case .nameTaken:
                return nil
            case .cannotCreate(let code):
                errno = code
                throw posixError("Cannot create \(path)")
            case .cannotRestrictMode(let code), .cannotChangeOwner(let code):
                errno = code
                throw posixError("Cannot make \(path) private (fchmod 0600)")
            case .cannotCheck(let code):
                errno = code
                throw posixError("Cannot check \(path) after creating it")
            case .notPrivate(let owner, let mode, let links):
                throw KeychainError.createdFileNotPrivate(path: path, owner: owner, mode: mode, linkCount: links)
            }
        }
    }

    /// Writes all of `data` to `fd`, retrying short writes and interruptions.
    static func writeAll(_ data: Data, to fd: Int32, path: String) throws(KeychainError) {
        let code = SecretFile.writeAll(data, to: fd)
        guard code == 0 else {
            errno = code
            throw posixError("Cannot write \(path)")
        }
    }
}
