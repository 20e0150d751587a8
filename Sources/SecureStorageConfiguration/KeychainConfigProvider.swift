public import Configuration
import Foundation
import SecureStorageFoundation
public import SecureStorage

/// A swift-configuration provider that serves secrets from the keychain: each configuration key
/// names a generic-password item of one service (``AccountNaming`` says which account), and every
/// value it returns is marked secret, so `ConfigReader`'s access logging prints `<REDACTED>`.
///
/// Put it before the providers that hold the rest of the configuration; keys it has no item for
/// fall through to them:
///
/// ```swift
/// import Configuration
/// import SecureStorageConfiguration
///
/// // Once:  keychain add-generic-password -s com.acme.api -a database.password -w
/// let config = ConfigReader(providers: [
///     KeychainConfigProvider(service: "com.acme.api"),
///     EnvironmentVariablesProvider(),
/// ])
/// let password = try config.requiredString(forKey: "database.password", isSecret: true)
/// let host = config.string(forKey: "database.host", default: "localhost")   // from the environment
/// ```
///
/// Reads go to the keychain every time, so a value changed with `keychain add-generic-password -U`
/// is what the next read returns; `watchString` and the other watches poll the items'
/// modification dates every ``pollInterval`` and read and deliver a value when it changed. The `fetch` and `watch` calls read
/// off the caller's executor (a keychain read may wait for an unlock or a prompt); the
/// synchronous `string(forKey:)` reads on the calling thread.
///
/// A keychain that cannot be read (locked, no entitlement, tampered with) is an error,
/// ``KeychainConfigError/unreadable(key:service:account:_:)``, not a missing value: the reader does
/// not quietly fall back to a stale value in the environment. `required…` and `fetch…` calls throw
/// it; swift-configuration's optional getters (`string(forKey:)`, `string(forKey:default:)`)
/// report it to the access reporter and return `nil` or the default, so read secrets with
/// `required…`. Unlock a server's keychain at start-up
/// with `SecureStorage.unlock(from:)` or a systemd credential.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct KeychainConfigProvider: ConfigProvider {
    /// The facade that reads the items: its service and access group.
    public let storage: SecureStorage
    /// How configuration keys name accounts.
    public let accountNaming: AccountNaming
    /// How often a watch reads the keychain again.
    public let pollInterval: Duration

    /// Serves the items of `service` (in `accessGroup`, or every group the app is entitled to).
    /// - Parameters:
    ///   - service: The service of the items, e.g. `com.acme.api`.
    ///   - accessGroup: The access group; `nil` reads from every group the app may read.
    ///   - accountNaming: How a key names its item's account; ``AccountNaming/dotted`` by default.
    ///   - pollInterval: How often watches read again; 10 seconds by default.
    public init(
        service: String, accessGroup: String? = nil, accountNaming: AccountNaming = .dotted,
        pollInterval: Duration = .seconds(10)
    ) {
        self.init(
            storage: SecureStorage(service: service, accessGroup: accessGroup), accountNaming: accountNaming,
            pollInterval: pollInterval)
    }

    /// Serves the items `storage` reads.
    public init(storage: SecureStorage, accountNaming: AccountNaming = .dotted, pollInterval: Duration = .seconds(10)) {
        self.storage = storage
        self.accountNaming = accountNaming
        self.pollInterval = pollInterval
    }

    /// `KeychainConfigProvider[service: com.acme.api]`.
    public var providerName: String { "KeychainConfigProvider[service: \(storage.service)]" }

    /// The value of `key`, read from the keychain now.
    /// - Throws: ``KeychainConfigError``.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try read(key, type: type)
    }

    /// The value of `key`, read from the keychain off the caller's executor.
    /// - Throws: ``KeychainConfigError``.
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try await fetch(key, type: type)
    }

    /// Delivers the value of `key` now, and again whenever a poll finds its item changed (written,
    /// deleted, or the keychain locked or unlocked). Polls read only modification dates, so a
    /// value stored with `requireUserPresence` asks the user when it is first delivered and after
    /// it changed, never merely because time passed.
    public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (
                _ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>
            ) async throws -> Return
    ) async throws -> Return {
        let (updates, continuation) = AsyncStream<Result<LookupResult, any Error>>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let account = accountNaming.account(key)
        let poller = poll(continuation: continuation) { dates in
            account.map { account in dates.map { $0[account] } }
        } deliver: {
            do { return .success(try await fetch(key, type: type)) } catch { return .failure(error) }
        }
        defer { poller.cancel() }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(updates))
    }

    /// Every item of the service as read now, without asking the user (see ``KeychainConfigSnapshot``).
    public func snapshot() -> any ConfigSnapshot { currentSnapshot() }

    private func currentSnapshot() -> KeychainConfigSnapshot {
        KeychainConfigSnapshot(providerName: providerName, storage: storage, accountNaming: accountNaming)
    }

    /// Delivers a snapshot now, and a new one whenever a poll finds any item of the service
    /// written, added or deleted. Polls read only modification dates and never ask the user.
    public func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws ->
            Return
    ) async throws -> Return {
        let (updates, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let poller = poll(continuation: continuation) { dates in
            dates
        } deliver: {
            await offloaded { currentSnapshot() }
        }
        defer { poller.cancel() }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(updates))
    }

    // MARK: - Reading

    private func fetch(_ key: AbsoluteConfigKey, type: ConfigType) async throws(KeychainConfigError) -> LookupResult {
        guard let account = accountNaming.account(key) else {
            return LookupResult(encodedKey: key.description, value: nil)
        }
        let read: Result<Data?, SecureStorageError>
        do { read = .success(try await storage.data(for: account)) } catch { read = .failure(error) }
        return try Self.lookupResult(read, key: key, type: type, service: storage.service, account: account)
    }

    private func read(_ key: AbsoluteConfigKey, type: ConfigType) throws(KeychainConfigError) -> LookupResult {
        guard let account = accountNaming.account(key) else {
            return LookupResult(encodedKey: key.description, value: nil)
        }
        let read = Result { () throws(SecureStorageError) in try storage.data(for: account) }
        return try Self.lookupResult(read, key: key, type: type, service: storage.service, account: account)
    }

    /// The lookup result for reading an item's bytes (`nil`: no item): converted to `type` and
    /// marked secret, or the read's failure as ``KeychainConfigError/unreadable(key:service:account:_:)``.
    static func lookupResult(
        _ read: Result<Data?, SecureStorageError>, key: AbsoluteConfigKey, type: ConfigType, service: String,
        account: String
    ) throws(KeychainConfigError) -> LookupResult {
        let encodedKey = "\(service)/\(account)"
        let data: Data?
        switch read {
        case .success(let found): data = found
        case .failure(let error): throw .unreadable(key: key.description, service: service, account: account, error)
        }
        guard let data else { return LookupResult(encodedKey: encodedKey, value: nil) }
        guard let content = ConfigContent(keychainData: data, as: type) else {
            throw .notConvertible(key: key.description, service: service, account: account, type: type)
        }
        return LookupResult(encodedKey: encodedKey, value: ConfigValue(content, isSecret: true))
    }

    // MARK: - Watching

    /// Reads the service's modification dates now and every ``pollInterval`` until cancelled;
    /// whenever the part of them that `relevant` picks changed (the first time included), yields
    /// what `deliver` reads.
    private func poll<Marker: Equatable & Sendable, Element: Sendable>(
        continuation: AsyncStream<Element>.Continuation,
        relevant: @escaping @Sendable (Result<[String: Date], SecureStorageError>) -> Marker,
        deliver: @escaping @Sendable () async -> Element
    ) -> Task<Void, Never> {
        let interval = pollInterval
        let storage = storage
        return Task {
            var last: Marker?
            while !Task.isCancelled {
                let dates = await offloaded {
                    Result { () throws(SecureStorageError) in try storage.modificationDates() }
                }
                let marker = relevant(dates)
                if marker != last {
                    continuation.yield(await deliver())
                    last = marker
                }
                do { try await Task.sleep(for: interval) } catch { break }
            }
            continuation.finish()
        }
    }
}
