#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore

extension SecureStorageError {
    /// The error for one of the keychain engine's, with the engine's message (which file, what
    /// to do) as its ``message``.
    package init(_ error: KeychainError) {
        self = (SecureStorageError(status: error.code.osStatus) ?? .underlying(error.code.osStatus)).explained(error.message)
    }
}
#endif
