public import Configuration
public import SecureStorage

/// Why the keychain could not serve a configuration value. The description names the key, the
/// service and account and says what to do; it never contains the value, because
/// swift-configuration's access loggers print provider errors as they are.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public enum KeychainConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The keychain refused the read: locked (`.locked`: unlock it first, e.g. with
    /// `SecureStorage.unlock(from:)`), not entitled to the access group, tampered with, ….
    /// The reader does not fall back to later providers: a locked keychain is an error, not a
    /// missing value.
    case unreadable(key: String, service: String, account: String, SecureStorageError)
    /// The item exists, but its bytes are not a value of the requested type (text that is not
    /// UTF-8, `8o8o` read as an `int`, …).
    case notConvertible(key: String, service: String, account: String, type: ConfigType)

    public var description: String {
        switch self {
        case .unreadable(let key, let service, let account, let error):
            "configuration key '\(key)': the keychain item (service \(service), account \(account)) could not be read: \(error)"
        case .notConvertible(let key, let service, let account, let type):
            "configuration key '\(key)': the keychain item (service \(service), account \(account)) is not a valid \(type.rawValue); "
                + "store it again as text, e.g. keychain add-generic-password -U -s \(service) -a \(account) -w"
        }
    }
}
