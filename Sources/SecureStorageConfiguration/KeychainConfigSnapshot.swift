public import Configuration
import Foundation
import SecureStorage

/// Every item of a ``KeychainConfigProvider``'s service as read at one moment, for
/// `ConfigReader.snapshot()` and `watchSnapshot`: several keys read from one snapshot come from
/// the same state of the keychain.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct KeychainConfigSnapshot: ConfigSnapshot, Equatable {
    /// The provider's name.
    public let providerName: String
    let service: String
    let accountNaming: AccountNaming
    /// The items by account, or why the service could not be listed (a locked keychain).
    let items: Result<[String: Result<Data, SecureStorageError>], SecureStorageError>

    /// Reads every item of `storage`'s service now.
    init(providerName: String, storage: SecureStorage, accountNaming: AccountNaming) {
        self.providerName = providerName
        self.service = storage.service
        self.accountNaming = accountNaming
        items = Result { () throws(SecureStorageError) in
            var items: [String: Result<Data, SecureStorageError>] = [:]
            for account in try storage.allKeys() {
                items[account] = Result { () throws(SecureStorageError) in try storage.readSecret(for: account) }
            }
            return items
        }
    }

    /// The value of `key` in this snapshot, converted to `type` and marked secret; `value: nil`
    /// when the service held no item for it.
    /// - Throws: ``KeychainConfigError``.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        guard let account = accountNaming.account(key) else { return LookupResult(encodedKey: key.description, value: nil) }
        let found: Data?
        do {
            found = try items.get()[account]?.get()
        } catch .notFound {
            found = nil                                 // deleted between listing and reading
        } catch {
            throw KeychainConfigError.unreadable(key: key.description, service: service, account: account, error)
        }
        return try KeychainConfigProvider.lookupResult(found, key: key, type: type, service: service, account: account)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.providerName == rhs.providerName && lhs.items == rhs.items
    }
}
