public import Configuration
public import Foundation
public import SecureStorage

/// Why the keychain could not serve a configuration value. The description names the key, the
/// service and account and says what to do; it never contains the value, because
/// swift-configuration's access loggers print provider errors as they are.
///
/// Match on ``code``; later versions may add codes, so a `switch` keeps a `default`.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct KeychainConfigError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What kind of failure a ``KeychainConfigError`` is. Later versions may add codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for example `"unreadable"`.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name.
        public var description: String { rawValue }

        /// The keychain refused the read: see ``KeychainConfigError/unreadable(key:service:account:_:)``.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The bytes are not a value of the requested type: see
        /// ``KeychainConfigError/notConvertible(key:service:account:type:)``.
        public static let notConvertible = Code(rawValue: "notConvertible")

        /// Matches any error that is a `KeychainConfigError` with this code, whatever else it carries:
        /// `catch KeychainConfigError.Code.unreadable`, the pattern every error type of the package offers.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? KeychainConfigError)?.code == pattern
        }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The configuration key asked for.
    public let key: String
    /// The keychain service the value was read from.
    public let service: String
    /// The keychain account the value was read from.
    public let account: String
    /// For ``Code/unreadable``: the keychain's error.
    public let keychainError: SecureStorageError?
    /// For ``Code/notConvertible``: the type the value was asked for as.
    public let type: ConfigType?

    private init(
        _ code: Code, key: String, service: String, account: String,
        keychainError: SecureStorageError? = nil, type: ConfigType? = nil
    ) {
        self.code = code
        self.key = key
        self.service = service
        self.account = account
        self.keychainError = keychainError
        self.type = type
    }

    /// The keychain refused the read: locked (`.locked`: unlock it first, e.g. with
    /// `SecureStorage.unlock(from:)`), not entitled to the access group, tampered with, ….
    /// The reader does not fall back to later providers: a locked keychain is an error, not a
    /// missing value.
    public static func unreadable(key: String, service: String, account: String, _ error: SecureStorageError)
        -> KeychainConfigError
    {
        KeychainConfigError(.unreadable, key: key, service: service, account: account, keychainError: error)
    }

    /// The item exists, but its bytes are not a value of the requested type (text that is not
    /// UTF-8, `8o8o` read as an `int`, …).
    public static func notConvertible(key: String, service: String, account: String, type: ConfigType)
        -> KeychainConfigError
    {
        KeychainConfigError(.notConvertible, key: key, service: service, account: account, type: type)
    }

    /// Matches any error against one of the errors above.
    public static func ~= (pattern: KeychainConfigError, error: any Error) -> Bool {
        (error as? KeychainConfigError) == pattern
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// What went wrong and what to do.
    public var description: String {
        switch code {
        case .notConvertible:
            "configuration key '\(key)': the keychain item (service \(service), account \(account)) is not a valid \(type?.rawValue ?? "value"); "
                + "store it again as text, e.g. keychain add-generic-password -U -s \(service) -a \(account) -w"
        default:
            "configuration key '\(key)': the keychain item (service \(service), account \(account)) could not be read: \(keychainError.map(String.init(describing:)) ?? code.rawValue)"
        }
    }
}
