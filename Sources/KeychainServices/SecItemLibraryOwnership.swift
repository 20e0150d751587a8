#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore

extension SecItemEnvironment {
    /// The library-owned namespace (``LibraryOwner``) SecItem calls act on in this task, or `nil`
    /// — always, outside this package — for the items apps own. Set only by SecureStorage's own
    /// components (database sealers, protected files) around the SecItem calls that keep their
    /// keys: an app cannot name it, so no dictionary it passes reaches those items.
    @TaskLocal package static var libraryOwner: LibraryOwner?
}
#endif
