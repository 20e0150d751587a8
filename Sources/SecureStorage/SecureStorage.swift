import Foundation
import KeychainServices
import Logging

/// Secure storage for one service: values in the keychain, each protected as its
/// ``Sensitivity`` says. Written once against the SecItem API, so the same code runs on Apple
/// platforms (the real Keychain) and on Linux (SecureStorage's encrypted keychain).
///
/// ```swift
/// let storage = SecureStorage(service: "com.acme.app")
/// try storage.set(Data("eyJhbGciOi…".utf8), for: "auth.token")              // .secret
/// try storage.set(refreshToken, for: "auth.refresh", sensitivity: .private)  // readable in background
/// let token = try storage.data(for: "auth.token")                            // nil when absent
/// try storage.removeValue(for: "auth.token")
/// ```
///
/// Writes never lose the previous value: `set(_:for:sensitivity:)` updates in place
/// and adds only when nothing exists, so while the device is locked it fails with `.locked` and
/// the old value stays (unlike delete-then-add, which deletes it). Values are never
/// logged or printed.
public struct SecureStorage: SecureStore, Hashable, CustomStringConvertible {
    /// What to do when a ``Sensitivity/topSecret`` value cannot be stored because no passcode is set.
    public enum PasscodeFallback: Sendable, Hashable {
        /// Fail with ``SecureStorageError/passcodeRequired`` (the default).
        case fail
        /// Store the value as ``Sensitivity/secret`` instead.
        case storeAsSecret
    }

    /// The service all keys belong to (`kSecAttrService`).
    public let service: String
    /// The access group shared with other apps or extensions.
    ///
    /// With `nil`, new values go to the app's default group (its first entitled group) and reads,
    /// ``allKeys()`` and ``removeAll()`` cover this service in *every* group the app is entitled
    /// to, as Apple's keychain searches do. Give a group to confine a storage to it, e.g. so a
    /// logout in the app does not remove an extension's values.
    public let accessGroup: String?
    /// The sensitivity of values stored without one.
    public let defaultSensitivity: Sensitivity
    /// What happens to ``Sensitivity/topSecret`` values without a passcode.
    public let passcodeFallback: PasscodeFallback
    /// The SecureStorage component whose own keys this storage keeps (``libraryOwned(by:)``),
    /// or `nil` for an app's storage.
    package internal(set) var libraryOwner: LibraryComponent?

    /// Creates storage for a service.
    public init(
        service: String, accessGroup: String? = nil, defaultSensitivity: Sensitivity = .secret,
        passcodeFallback: PasscodeFallback = .fail
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.defaultSensitivity = defaultSensitivity
        self.passcodeFallback = passcodeFallback
    }

    /// The service and group; never any value.
    public var description: String {
        "SecureStorage(service: \(service)\(accessGroup.map { ", accessGroup: \($0)" } ?? ""), default: \(defaultSensitivity))"
    }

    // MARK: - SecureStore

    /// Stores `value`, replacing any previous one atomically: an update of the existing item, or
    /// an add when there is none.
    ///
    /// With a `sensitivity`, the value is (re)protected accordingly in the same transaction.
    /// Without one, an existing value keeps its protection (a token refresh never weakens a
    /// `.topSecret` value or makes a `.private` one unreadable in the background) and a new value
    /// gets ``defaultSensitivity``.
    public func set(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError) {
        try write(value, for: key, sensitivity: sensitivity, insertOnly: false)
    }

    /// Stores `value` so that reading it needs the user: biometry or the device passcode on
    /// Apple platforms (`kSecAccessControlUserPresence`); elsewhere the keychain's
    /// `SecItemEnvironment.authenticator` (KeychainServices' article "Access Control").
    /// Replacing the value later keeps that requirement; writing never prompts.
    ///
    /// ```swift
    /// try storage.set(recoveryCode, for: "recovery", requireUserPresence: true)
    /// let code = try storage.data(for: "recovery")   // prompts; .userCanceled if dismissed
    /// ```
    ///
    /// With `requireUserPresence` false it is `set(_:for:sensitivity:)`.
    public func set(_ value: StoredValue, for key: String, sensitivity: Sensitivity?, requireUserPresence: Bool)
        throws(SecureStorageError)
    {
        try write(
            value, for: key, sensitivity: sensitivity, insertOnly: false, requireUserPresence: requireUserPresence)
    }

    /// The former name of `set(_:for:sensitivity:requireUserPresence:)` for a ``StoredValue``.
    @available(*, deprecated, renamed: "set(_:for:sensitivity:requireUserPresence:)")
    public func store(_ value: StoredValue, for key: String, sensitivity: Sensitivity?, requireUserPresence: Bool)
        throws(SecureStorageError)
    {
        try set(value, for: key, sensitivity: sensitivity, requireUserPresence: requireUserPresence)
    }

    /// `set(_:for:sensitivity:requireUserPresence:)` for raw bytes.
    @available(*, deprecated, renamed: "set(_:for:sensitivity:requireUserPresence:)", message: "set stores Data as is.")
    public func storeSecret(_ data: Data, for key: String, sensitivity: Sensitivity? = nil, requireUserPresence: Bool)
        throws(SecureStorageError)
    {
        try set(
            StoredValue(data: data, kind: .data), for: key, sensitivity: sensitivity,
            requireUserPresence: requireUserPresence)
    }

    /// `set(_:for:sensitivity:requireUserPresence:)` for any `Encodable` value (strings as UTF-8).
    public func set<Value: Encodable>(
        _ value: Value, for key: String, sensitivity: Sensitivity? = nil,
        requireUserPresence: Bool
    ) throws(SecureStorageError) {
        try set(Self.encode(value), for: key, sensitivity: sensitivity, requireUserPresence: requireUserPresence)
    }

    /// Stores `value` only if nothing is stored under `key` yet.
    public func insert(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError) {
        try write(value, for: key, sensitivity: sensitivity, insertOnly: true)
    }

    /// Stores `value` only if nothing is stored under `key` yet, requiring the user to read it
    /// when `requireUserPresence` (see `set(_:for:sensitivity:requireUserPresence:)`).
    /// - Throws: ``SecureStorageError/duplicate`` when a value is already stored.
    public func insert(_ value: StoredValue, for key: String, sensitivity: Sensitivity?, requireUserPresence: Bool)
        throws(SecureStorageError)
    {
        try write(value, for: key, sensitivity: sensitivity, insertOnly: true, requireUserPresence: requireUserPresence)
    }

    /// The value stored under `key` with its kind, or `nil` when there is none.
    public func storedValue(for key: String) throws(SecureStorageError) -> StoredValue? {
        try entry(for: key)?.value
    }

    /// Deletes the value under `key`.
    /// - Returns: `false` when there was nothing to delete.
    @discardableResult
    public func removeValue(for key: String) throws(SecureStorageError) -> Bool {
        let outcome = inNamespace { SecItemDelete(query(key) as CFDictionary) }
        if outcome.status == errSecItemNotFound { return false }
        try check(outcome)
        return true
    }

    /// Whether a value is stored under `key`, without decrypting it. Throws `.locked` when the
    /// value's protection needs the device unlocked and it is locked.
    public func contains(_ key: String) throws(SecureStorageError) -> Bool {
        let outcome = inNamespace { SecItemCopyMatching(query(key) as CFDictionary, nil) }
        if outcome.status == errSecItemNotFound { return false }
        try check(outcome)
        return true
    }

    /// Every key of this service (in ``accessGroup``, or in every entitled group when it is
    /// `nil`), in the order the keychain returns them: the order first stored on Linux.
    /// Throws `.locked` while any of them needs the device unlocked.
    public func allKeys() throws(SecureStorageError) -> [String] {
        try allAttributes().compactMap(Self.key(of:))
    }

    /// Deletes every value of this service (in ``accessGroup``, or in every entitled group when
    /// it is `nil`), in one transaction. Works while locked.
    public func removeAll() throws(SecureStorageError) {
        let outcome = inNamespace { SecItemDelete(query(nil) as CFDictionary) }
        if outcome.status != errSecItemNotFound { try check(outcome) }
    }

    // MARK: - Protection

    /// Moves the value under `key` to another protection in one update: there is exactly one
    /// item before and after, and never a moment without it. While locked, a move that needs
    /// the device unlocked fails with `.locked` and changes nothing.
    public func changeProtection(of key: String, to sensitivity: Sensitivity) throws(SecureStorageError) {
        try withPasscodeFallback(sensitivity) { (protection) throws(SecureStorageError) in
            try check(
                inNamespace {
                    SecItemUpdate(
                        query(key) as CFDictionary,
                        [kSecAttrAccessible as String: protection.secAttrAccessible] as CFDictionary)
                },
                protection: protection)
        }
    }

    /// Moves every value of this service stored with `old` protection (e.g. the deprecated
    /// `.always`) to `sensitivity`, in one transaction.
    /// - Returns: `false` when no value had the old protection.
    @discardableResult
    public func migrateProtection(from old: Protection, to sensitivity: Sensitivity) throws(SecureStorageError) -> Bool
    {
        var query = self.query(nil)
        query[kSecAttrAccessible as String] = old.secAttrAccessible
        return try withPasscodeFallback(sensitivity) { (protection) throws(SecureStorageError) -> Bool in
            let outcome = inNamespace {
                SecItemUpdate(
                    query as CFDictionary, [kSecAttrAccessible as String: protection.secAttrAccessible] as CFDictionary)
            }
            if outcome.status == errSecItemNotFound { return false }
            try check(outcome, protection: protection)
            return true
        }
    }

    /// The protection the value under `key` is stored with, or `nil`. Reads attributes only, so
    /// it never prompts for a value stored with `requireUserPresence`.
    public func protection(of key: String) throws(SecureStorageError) -> Protection? {
        guard let attributes = try attributes(of: key) else { return nil }
        return (attributes[kSecAttrAccessible as String] as? String).flatMap(Protection.init(secAttrAccessible:))
    }

    /// The attributes of the value under `key` (no data), or `nil`.
    private func attributes(of key: String) throws(SecureStorageError) -> NSDictionary? {
        var query = self.query(key)
        query[kSecReturnAttributes as String] = true
        var result: CFTypeRef?
        let outcome = inNamespace { SecItemCopyMatching(query as CFDictionary, &result) }
        if outcome.status == errSecItemNotFound { return nil }
        try check(outcome)
        return result as? NSDictionary
    }

    // MARK: - Internals

    /// The value and protection under `key`.
    func entry(for key: String) throws(SecureStorageError) -> (value: StoredValue, protection: Protection?)? {
        var query = self.query(key)
        query[kSecReturnData as String] = true
        query[kSecReturnAttributes as String] = true
        guard let result = try copyMatching(query) else { return nil }
        // Read the three keys straight from the dictionary: bridging all of it to
        // `[String: Any]` would cost more than the keychain lookup itself.
        guard let attributes = result as? NSDictionary else { throw .underlying(errSecInternalComponent) }
        let typeCode = (attributes[kSecAttrType as String] as? NSNumber)?.int64Value
        let value = StoredValue(
            data: attributes[kSecValueData as String] as? Data ?? Data(), kind: StoredValue.Kind(typeCode: typeCode))
        return (
            value, (attributes[kSecAttrAccessible as String] as? String).flatMap(Protection.init(secAttrAccessible:))
        )
    }

    /// How many times a write retries when another writer adds or deletes the same key between
    /// its update and its add.
    private static let writeAttempts = 8

    private func write(
        _ value: StoredValue, for key: String, sensitivity: Sensitivity?, insertOnly: Bool,
        requireUserPresence: Bool = false
    ) throws(SecureStorageError) {
        var contents: [String: Any] = [kSecValueData as String: value.data]
        if let code = value.kind.typeCode { contents[kSecAttrType as String] = NSNumber(value: code) }
        try withPasscodeFallback(sensitivity ?? defaultSensitivity) { (protection) throws(SecureStorageError) in
            var created = contents
            if requireUserPresence {
                guard
                    let control = SecAccessControlCreateWithFlags(nil, protection.secAttrAccessible, .userPresence, nil)
                else {
                    throw .underlying(errSecParam)
                }
                created[kSecAttrAccessControl as String] = control
            } else {
                created[kSecAttrAccessible as String] = protection.secAttrAccessible
            }
            // Without an explicit sensitivity an existing value keeps its protection, unless
            // user presence is asked for.
            let changes = sensitivity == nil && !requireUserPresence ? contents : created
            for _ in 0..<Self.writeAttempts {
                if !insertOnly {
                    let outcome = inNamespace { SecItemUpdate(query(key) as CFDictionary, changes as CFDictionary) }
                    if outcome.status != errSecItemNotFound { return try check(outcome, protection: protection) }
                }
                let outcome = inNamespace { SecItemAdd(query(key).merging(created) { $1 } as CFDictionary, nil) }
                // Another writer added it between our update and add: update theirs.
                if outcome.status == errSecDuplicateItem && !insertOnly { continue }
                return try check(outcome, protection: protection, adding: true)
            }
            throw .underlying(errSecDuplicateItem)
        }
    }

    /// Runs `body` with the protection of `sensitivity`; when that is `.topSecret`, no passcode
    /// is set and ``passcodeFallback`` allows it, runs it again with `.secret`'s.
    private func withPasscodeFallback<T>(
        _ sensitivity: Sensitivity, _ body: (Protection) throws(SecureStorageError) -> T
    ) throws(SecureStorageError) -> T {
        do {
            return try body(sensitivity.protection)
        } catch .passcodeRequired where passcodeFallback == .storeAsSecret {
            Self.log.notice("no passcode: storing a topSecret value as secret", metadata: ["service": "\(service)"])
            return try body(Sensitivity.secret.protection)
        }
    }

    /// The attributes of every item of this service (no data, so nobody is asked).
    func allAttributes() throws(SecureStorageError) -> [NSDictionary] {
        var query = self.query(nil)
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        query[kSecReturnAttributes as String] = true
        return (try copyMatching(query) ?? nil) as? [NSDictionary] ?? []
    }

    /// The key (account) of an item's attributes; `nil` for an account that is not text.
    static func key(of attributes: NSDictionary) -> String? {
        let account = attributes[kSecAttrAccount as String]
        return account as? String ?? (account as? Data).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// `SecItemCopyMatching`'s result for `query` (itself `nil` when the query asked for none),
    /// or `nil` when nothing matches.
    func copyMatching(_ query: [String: Any]) throws(SecureStorageError) -> CFTypeRef?? {
        var result: CFTypeRef?
        let outcome = inNamespace { SecItemCopyMatching(query as CFDictionary, &result) }
        if outcome.status == errSecItemNotFound { return nil }
        try check(outcome)
        return result
    }

    /// The query naming one key (or, with `nil`, every key) of this service.
    func query(_ key: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecUseDataProtectionKeychain as String: true
        ]
        if let key { query[kSecAttrAccount as String] = key }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// Throws the error for a status; a missing passcode for a passcode-only protection is
    /// reported as ``SecureStorageError/passcodeRequired`` (iOS says `errSecAuthFailed`; before
    /// iOS 9.2 an add said `errSecDecode`, which for an add cannot mean a damaged item).
    func check(_ outcome: SecItemOutcome, protection: Protection? = nil, adding: Bool = false)
        throws(SecureStorageError)
    {
        guard let error = outcome.error else { return }
        if protection == .whenPasscodeSetThisDeviceOnly
            && (error == .authenticationFailed || (adding && error == .integrityViolation))
        {
            throw SecureStorageError.passcodeRequired.explained(outcome.message)
        }
        Self.log.debug("keychain call failed", metadata: ["service": "\(service)", "status": "\(outcome.status)"])
        throw error
    }
}
