import Foundation
import SecureStorageFoundation

/// A stored setting that is secret, as a property:
///
/// ```swift
/// struct Credentials {
///     @SecureSetting("auth.token", store: SecureStorage(service: "com.acme.app"), sensitivity: .secret)
///     var token: String?
/// }
/// credentials.token = "eyJ…"                 // stores (never loses the old value on failure)
/// try credentials.$token.write("eyJ…")       // the same, reporting failures
/// let token = try credentials.$token.read()   // reading, reporting failures
/// ```
///
/// Property getters and setters cannot throw: reading gives `nil` on failure and a failed write
/// leaves the previous value in place; ``SecureSettingAccess/lastError`` tells what went wrong.
/// Use the projected value (`$token`) where failures matter. Setting `nil` deletes the value if
/// it is readable now (a read that failed while locked must not turn into a delete);
/// `$token.remove()` deletes it regardless.
@propertyWrapper
public struct SecureSetting<Value: Codable & Sendable>: Sendable {
    /// The throwing view of the setting (`$name`).
    public let projectedValue: SecureSettingAccess<Value>

    /// A setting stored under `key` in `store`.
    public init(_ key: String, store: any SecureStore, sensitivity: Sensitivity? = nil) {
        projectedValue = SecureSettingAccess(key: key, store: store, sensitivity: sensitivity)
    }

    /// The value, or `nil` when none is stored or it cannot be read.
    ///
    /// Setting `nil` deletes the value only when it is readable now: `token = token.map(refresh)`
    /// while the device is locked reads `nil` and must not delete the stored token (the
    /// delete-then-add loss). Use `$token.remove()` to delete regardless.
    public var wrappedValue: Value? {
        get { try? projectedValue.read() }
        nonmutating set {
            if let newValue {
                try? projectedValue.write(newValue)
            } else {
                try? projectedValue.removeIfReadable()
            }
        }
    }
}

/// Throwing access to a ``SecureSetting``.
public struct SecureSettingAccess<Value: Codable & Sendable>: Sendable {
    /// The key the value is stored under.
    public let key: String
    /// Where it is stored.
    public let store: any SecureStore
    /// Its sensitivity (`nil`: the store's default).
    public let sensitivity: Sensitivity?
    private let failure = Locked<SecureStorageError?>(nil)

    init(key: String, store: any SecureStore, sensitivity: Sensitivity?) {
        self.key = key
        self.store = store
        self.sensitivity = sensitivity
    }

    /// The last error of a read or write through the property (cleared by a success).
    public var lastError: SecureStorageError? { failure.withLock { $0 } }

    /// Reads the value; `nil` when none is stored.
    public func read() throws(SecureStorageError) -> Value? {
        try recording { () throws(SecureStorageError) in try store.value(Value.self, for: key) }
    }

    /// Stores the value, or deletes it for `nil`.
    public func write(_ value: Value?) throws(SecureStorageError) {
        try recording { () throws(SecureStorageError) in
            if let value {
                try store.set(value, for: key, sensitivity: sensitivity)
            } else {
                try store.removeValue(for: key)
            }
        }
    }

    /// Deletes the value, even while it cannot be read (deletes work on a locked device).
    public func remove() throws(SecureStorageError) {
        try write(nil)
    }

    /// Deletes the value only if it can be read now; throws `.locked` (and keeps it) otherwise.
    func removeIfReadable() throws(SecureStorageError) {
        try recording { () throws(SecureStorageError) in
            _ = try store.storedValue(for: key)
            try store.removeValue(for: key)
        }
    }

    private func recording<T>(_ body: () throws(SecureStorageError) -> T) throws(SecureStorageError) -> T {
        do {
            let result = try body()
            failure.withLock { $0 = nil }
            return result
        } catch {
            failure.withLock { $0 = error }
            SecureStorage.log.warning("secure setting access failed", metadata: ["error": "\(error)"])
            throw error
        }
    }
}
