import Logging
#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore
#else
import SecureStorageFoundation
#endif

extension SecureStorage {
    /// The logger SecureStorage writes to: a logger that discards everything until the
    /// application sets one, so that a program that did not set up logging prints nothing.
    ///
    /// ```swift
    /// LoggingSystem.bootstrap(StreamLogHandler.standardError)
    /// SecureStorage.logger = Logger(label: "com.acme.app.secure-storage")
    /// ```
    ///
    /// On Linux it is also the logger of the keychain engine and of the SecItem functions
    /// (`LibraryLogging.logger` of KeychainCore): one setting for all of SecureStorage. Every
    /// message carries the metadata `component`; none contains a stored value or passphrase.
    /// Thread-safe.
    public static var logger: Logger {
        get {
            #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
            LibraryLogging.logger
            #else
            applicationLogger.withLock { $0 } ?? disabledLogger
            #endif
        }
        set {
            #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
            LibraryLogging.logger = newValue
            #else
            applicationLogger.withLock { $0 = newValue }
            #endif
        }
    }

    /// ``logger`` with the facade's `component` metadata, for its own messages.
    static var log: Logger {
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        LibraryLogging.logger(component: "SecureStorage")
        #else
        guard var logger = applicationLogger.withLock({ $0 }) else { return disabledLogger }
        logger[metadataKey: "component"] = "SecureStorage"
        return logger
        #endif
    }

    #if canImport(Security) && !SECURE_STORAGE_FORCE_PORTABLE
    /// The logger the application set, on Apple platforms (elsewhere the engine keeps it).
    private static let applicationLogger = Locked<Logger?>(nil)
    /// The no-op default.
    private static let disabledLogger = Logger(label: "SecureStorage", factory: { _ in SwiftLogNoOpLogHandler() })
    #endif
}
