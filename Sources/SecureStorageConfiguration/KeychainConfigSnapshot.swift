public import Configuration
import Foundation
import SecureStorage
import SecureStorageFoundation

/// The items of a ``KeychainConfigProvider``'s service at one moment, for
/// `ConfigReader.snapshot()` and `watchSnapshot`: several keys read from one snapshot come from
/// the same state of the keychain.
///
/// Taking a snapshot never asks the user: values stored with `requireUserPresence` are left out
/// until a key that names one is read from the snapshot, which then asks (once; the value is kept
/// for later reads of the same snapshot). Neither `description` nor a `dump` shows a value.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public final class KeychainConfigSnapshot: ConfigSnapshot, CustomStringConvertible, CustomReflectable {
    /// One item as the snapshot holds it.
    enum Entry: Sendable {
        case value(Data)
        /// Stored with `requireUserPresence`: read (asking the user) when first needed.
        case needsUser
        case failed(SecureStorageError)
    }

    /// The provider's name.
    public let providerName: String
    private let storage: SecureStorage
    private let accountNaming: AccountNaming
    /// The items by account, or why the service could not be listed (a locked keychain).
    private let entries: Locked<Result<[String: Entry], SecureStorageError>>

    /// Reads every item of `storage`'s service now, without asking the user.
    init(providerName: String, storage: SecureStorage, accountNaming: AccountNaming) {
        self.providerName = providerName
        self.storage = storage
        self.accountNaming = accountNaming
        entries = Locked(
            Result { () throws(SecureStorageError) in
                var entries: [String: Entry] = [:]
                for account in try storage.modificationDates().keys {
                    // nil: stored with requireUserPresence, or deleted since the listing (then the
                    // read on demand finds nothing).
                    do throws(SecureStorageError) {
                        entries[account] =
                            try storage.dataWithoutUserInteraction(for: account).map(Entry.value) ?? .needsUser
                    } catch {
                        entries[account] = .failed(error)
                    }
                }
                return entries
            })
    }

    /// The value of `key` in this snapshot, converted to `type` and marked secret; `value: nil`
    /// when the service held no item for it.
    /// - Throws: ``KeychainConfigError``.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        guard let account = accountNaming.account(key) else {
            return LookupResult(encodedKey: key.description, value: nil)
        }
        let read = Result { () throws(SecureStorageError) in try data(for: account) }
        return try KeychainConfigProvider.lookupResult(
            read, key: key, type: type, service: storage.service, account: account)
    }

    private func data(for account: String) throws(SecureStorageError) -> Data? {
        let entry = try entries.withLock { entries throws(SecureStorageError) in try entries.get()[account] }
        switch entry {
        case nil: return nil
        case .value(let data): return data
        case .failed(let error): throw error
        case .needsUser:
            // Read outside the lock: the user may take a while to answer.
            let data = try storage.data(for: account)
            entries.withLock { entries in
                if case .success(var all) = entries {
                    all[account] = data.map(Entry.value)
                    entries = .success(all)
                }
            }
            return data
        }
    }

    /// `KeychainConfigSnapshot(service: com.acme.api, 3 items)`; never a value.
    public var description: String {
        let count = entries.withLock { (try? $0.get().count) ?? 0 }
        return "KeychainConfigSnapshot(service: \(storage.service), \(count) item\(count == 1 ? "" : "s"))"
    }

    /// The provider and service only, so `dump` shows no value.
    public var customMirror: Mirror {
        Mirror(self, children: ["providerName": providerName, "service": storage.service], displayStyle: .class)
    }
}
