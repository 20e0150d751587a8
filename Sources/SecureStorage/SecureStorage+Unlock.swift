#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices

/// **Linux only.** Unlocking and locking the keychain the storage uses, for services: a
/// keychain with a passphrase opens before its first unlock, and values of the
/// `whenUnlocked…` and `afterFirstUnlock…` protections answer ``SecureStorageError/locked``
/// until one of these calls. On Apple platforms the device's lock state decides instead.
///
/// ```swift
/// // A systemd service with LoadCredential=secure-storage-passphrase:/etc/acme/keychain-passphrase
/// try SecureStorage.unlockFromCredentialsIfPresent()
/// let password = try SecureStorage(service: "com.acme.app").string(for: "db")
/// ```
extension SecureStorage {
    /// Unlocks with the passphrase.
    /// - Throws: ``SecureStorageError/authenticationFailed`` for a wrong passphrase.
    public static func unlock(passphrase: String) throws(SecureStorageError) {
        try mapped { () throws(KeychainError) in try SecItemEnvironment.keychain().unlock(passphrase: passphrase) }
    }

    /// Unlocks with the passphrase a file or systemd credential holds (`PassphraseSource` of `KeychainCore`:
    /// the file must be the user's and unreadable by others).
    public static func unlock(from source: PassphraseSource) throws(SecureStorageError) {
        try mapped { () throws(KeychainError) in try SecItemEnvironment.keychain().unlock(from: source) }
    }

    /// Unlocks from the systemd credential `secure-storage-passphrase` when the process has one.
    /// - Returns: whether it did.
    @discardableResult
    public static func unlockFromCredentialsIfPresent() throws(SecureStorageError) -> Bool {
        try mapped { () throws(KeychainError) in try SecItemEnvironment.keychain().unlockFromCredentialsIfPresent() }
    }

    /// Locks the keychain: `whenUnlocked…` values answer ``SecureStorageError/locked`` until
    /// the next unlock.
    public static func lock() throws(SecureStorageError) {
        try mapped { () throws(KeychainError) in try SecItemEnvironment.keychain().lock() }
    }

    /// Whether the keychain is unlocked (always, without a passphrase).
    public static var isUnlocked: Bool {
        (try? SecItemEnvironment.keychain().lockState) == .unlocked
    }

    private static func mapped<T>(_ body: () throws(KeychainError) -> T) throws(SecureStorageError) -> T {
        do {
            return try body()
        } catch {
            Self.log.notice("keychain unlock or lock failed", metadata: ["status": "\(error.code.osStatus)"])
            throw SecureStorageError(error)
        }
    }
}
#endif
