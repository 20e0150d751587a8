#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore
import KeychainServices

extension SecureStorageError {
    /// The error for one of the keychain engine's, with the engine's message (which file, what
    /// to do) as its ``message``, followed by the path of the keychain in use when the message
    /// does not name it already: every error says which keychain it is about.
    package init(_ error: KeychainError) {
        self = (SecureStorageError(status: error.code.osStatus) ?? .underlying(error.code.osStatus))
            .explained(Self.naming(SecItemEnvironment.openedKeychain?.location.databaseURL.path, in: error.message))
    }

    /// `message`, followed by ` (keychain <path>)` unless it names `path` already.
    static func naming(_ path: String?, in message: String) -> String {
        guard let path, !message.contains(path) else { return message }
        return "\(message) (keychain \(path))"
    }
}
#endif
