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

    /// Runs one SecItem call in this storage's namespace.
    func inNamespace(_ call: () -> OSStatus) -> OSStatus {
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        guard let libraryOwner else { return call() }
        return SecItemEnvironment.$libraryOwner.withValue(LibraryOwner(libraryOwner.rawValue)) { call() }
        #else
        return call()
        #endif
    }
}
