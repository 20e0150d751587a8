import SecureStorageFoundation
import Logging

/// Where SecureStorage's libraries (KeychainCore, KeychainServices, the SecureStorage facade)
/// send their logs: nowhere, unless the application hands them a logger.
///
/// A library that logged through `Logger(label:)` would print on standard error in every
/// program that did not bootstrap swift-log (its default handler), so these libraries follow
/// swift-nio's and AsyncHTTPClient's convention instead: they log only to the logger set here,
/// a no-op logger by default. Set it once at start-up, after `LoggingSystem.bootstrap`:
///
/// ```swift
/// LoggingSystem.bootstrap(StreamLogHandler.standardError)
/// LibraryLogging.logger = Logger(label: "com.acme.app.secure-storage")
/// ```
///
/// Every message carries the metadata `component` (`KeychainCore`, `KeychainServices`,
/// `SecureStorage`, …). Messages never contain secrets: no item data, passphrase or key.
/// The facade's `SecureStorage.logger` is the same setting.
public enum LibraryLogging {
    private static let configured = Locked<Logger?>(nil)

    /// The logger the libraries write to; a logger that discards everything until the
    /// application sets one. Thread-safe; setting it applies to messages logged afterwards.
    public static var logger: Logger {
        get { configured.withLock { $0 } ?? disabled }
        set { configured.withLock { $0 = newValue } }
    }

    /// Whether an application set a logger (``logger`` is not the no-op default).
    public static var isEnabled: Bool { configured.withLock { $0 != nil } }

    /// Forgets the logger set: the libraries log nowhere again.
    public static func disable() { configured.withLock { $0 = nil } }

    /// The no-op default.
    private static let disabled = Logger(label: "SecureStorage", factory: { _ in SwiftLogNoOpLogHandler() })

    /// ``logger`` with `component` in its metadata, for one of the libraries' own messages.
    package static func logger(component: String) -> Logger {
        guard var logger = configured.withLock({ $0 }) else { return disabled }
        logger[metadataKey: "component"] = "\(component)"
        return logger
    }
}
