import Foundation
import KeychainServices
#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore
#endif

/// The SecureStorage components that keep keys of their own through a ``SecureStorage``.
package enum LibraryComponent: String, Sendable {
    /// Database sealers' keys (SecureStorageGRDB).
    case databaseSealer = "database-sealer"
    /// Protected files' class and name keys.
    case protectedFiles = "protected-files"
    /// The journals of migrations from insecure stores (what was imported, verified, scrubbed).
    case migrationJournal = "migration-journal"
}

extension SecureStorage {
    /// This storage as SecureStorage's own `component` uses it for the keys it keeps for
    /// itself (a database sealer's key, protected files' keys): on Linux its values live in the
    /// keychain's library-owned namespace, where no app, `keychain` command, backup import or
    /// sync can create, replace or read an item, and where nothing of the apps' items is seen.
    /// On Apple platforms the Keychain has no such namespace and this is the storage itself.
    package func libraryOwned(by component: LibraryComponent) -> SecureStorage {
        var owned = self
        owned.libraryOwner = component
        return owned
    }

    /// Runs one SecItem call in this storage's namespace; on Linux a failure comes back with
    /// the engine's message.
    func inNamespace(_ call: () -> OSStatus) -> SecItemOutcome {
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        let (status, failure) = SecItemEnvironment.capturingFailure { () -> OSStatus in
            guard let libraryOwner else { return call() }
            return SecItemEnvironment.$libraryOwner.withValue(LibraryOwner(libraryOwner.rawValue)) { call() }
        }
        return SecItemOutcome(status: status, failure: failure)
        #else
        return SecItemOutcome(status: call(), message: nil)
        #endif
    }
}

/// What one SecItem call of the facade returned: its status and, on Linux, the engine's message
/// when it failed (what, which path, what to do). Apple's Security framework gives a status only.
struct SecItemOutcome {
    /// The call's status.
    let status: OSStatus
    /// The engine's account of a failure, or `nil`.
    let message: String?

    /// Runs a SecItem call outside any storage's namespace (a ``SigningKey``'s).
    static func of(_ call: () -> OSStatus) -> SecItemOutcome {
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        let (status, failure) = SecItemEnvironment.capturingFailure(call)
        return SecItemOutcome(status: status, failure: failure)
        #else
        return SecItemOutcome(status: call(), message: nil)
        #endif
    }

    #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
    /// The outcome of a call that returned `status`, with the engine's error behind it. The
    /// message names the keychain's file when the engine's does not (an item that fails its
    /// integrity check, say), so that every error says which keychain it is about.
    init(status: OSStatus, failure: KeychainError?) {
        self.status = status
        guard status != errSecSuccess, let failure else {
            message = nil
            return
        }
        message = SecureStorageError.naming(
            SecItemEnvironment.openedKeychain?.location.databaseURL.path, in: failure.message)
    }
    #endif

    /// Creates an outcome.
    init(status: OSStatus, message: String?) {
        self.status = status
        self.message = message
    }

    /// The error the status stands for, with the engine's message; `nil` for `errSecSuccess`.
    var error: SecureStorageError? {
        SecureStorageError(status: status)?.explained(message)
    }
}
