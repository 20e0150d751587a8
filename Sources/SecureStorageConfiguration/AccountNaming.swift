public import Configuration

/// How a configuration key (`database.password`) names the keychain item that holds its value:
/// the item's account within the provider's service.
///
/// ```swift
/// // keychain add-generic-password -s com.acme.api -a database.password -w
/// KeychainConfigProvider(service: "com.acme.api")                                     // .dotted
///
/// // keychain migrate --from .env --service com.acme.api --apply  (accounts DATABASE_URL, …)
/// KeychainConfigProvider(service: "com.acme.api", accountNaming: .environmentVariable)
///
/// // Anything else: return nil for keys the keychain does not serve.
/// KeychainConfigProvider(service: "com.acme.api", accountNaming: .custom { key in
///     key.components.first == "secrets" ? key.components.dropFirst().joined(separator: "/") : nil
/// })
/// ```
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct AccountNaming: Sendable {
    /// The account for a key, or `nil` when the keychain does not serve the key (the reader then
    /// asks its next provider).
    public let account: @Sendable (AbsoluteConfigKey) -> String?

    /// Names accounts with `account`.
    public init(_ account: @escaping @Sendable (AbsoluteConfigKey) -> String?) {
        self.account = account
    }

    /// The key's components joined with dots, as written: `database.password` → `database.password`.
    public static let dotted = AccountNaming { key in key.components.joined(separator: ".") }

    /// The name `EnvironmentVariablesProvider` would read: components joined with `_`, upper-cased,
    /// `.` and `-` inside a component made `_` (`database.password` → `DATABASE_PASSWORD`). Use it
    /// for the items `keychain migrate --from .env` wrote, so the keychain takes the place of the
    /// environment without renaming anything.
    public static let environmentVariable = AccountNaming { key in
        key.components
            .map { component in String(component.uppercased().map { $0 == "." || $0 == "-" ? "_" : $0 }) }
            .joined(separator: "_")
    }

    /// A mapping of your own; return `nil` for keys that the keychain does not serve.
    public static func custom(_ account: @escaping @Sendable (AbsoluteConfigKey) -> String?) -> AccountNaming {
        AccountNaming(account)
    }
}
