import Foundation

/// The storage API shared by the keychain-backed ``SecureStorage`` and the in-memory
/// ``VolatileSecureStorage``: primitives a store implements, and typed accessors built on them.
///
/// The accessors come in pairs: `set(_:for:sensitivity:)` writes (strings as UTF-8, `Data` as
/// is, other `Codable` values as JSON) and `insert(_:for:sensitivity:)` adds only; `data(for:)`, `string(for:)`, ``value(_:for:)`` (and
/// `bool`, `integer`, `double`) read, returning `nil` when nothing is stored;
/// ``removeValue(for:)`` and ``removeAll()`` delete.
///
/// ```swift
/// let storage = SecureStorage(service: "com.acme.app")
/// try storage.set(Data(token.utf8), for: "auth.token")                 // .secret by default
/// try storage.set("refresh-…", for: "auth.refresh", sensitivity: .private)
/// try storage.set(Session(user: "alice", expires: .now), for: "session")
/// let session = try storage.value(Session.self, for: "session")
/// try storage.removeValue(for: "session")
/// ```
public protocol SecureStore: Sendable {
    /// Stores `value` under `key`, replacing what is there, never leaving a moment without a value.
    func set(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError)
    /// Stores `value` under `key` only if nothing is stored there (`.duplicate` otherwise).
    func insert(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError)
    /// The value stored under `key`, or `nil`.
    func storedValue(for key: String) throws(SecureStorageError) -> StoredValue?
    /// Deletes the value under `key`; returns whether there was one.
    @discardableResult
    func removeValue(for key: String) throws(SecureStorageError) -> Bool
    /// Whether a value is stored under `key`.
    func contains(_ key: String) throws(SecureStorageError) -> Bool
    /// Every key with a value, in the order they were first stored.
    func allKeys() throws(SecureStorageError) -> [String]
    /// Deletes every value.
    func removeAll() throws(SecureStorageError)
}

// MARK: - Data

extension SecureStore {
    /// Stores `value` under `key`, replacing what is there: the former name of the requirement
    /// `set(_:for:sensitivity:)`.
    @available(*, deprecated, renamed: "set(_:for:sensitivity:)")
    public func store(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError) {
        try set(value, for: key, sensitivity: sensitivity)
    }

    /// Stores raw bytes.
    @available(*, deprecated, renamed: "set(_:for:sensitivity:)", message: "set(_:for:sensitivity:) stores Data as is.")
    public func storeSecret(_ data: Data, for key: String, sensitivity: Sensitivity? = nil) throws(SecureStorageError) {
        try set(StoredValue(data: data, kind: .data), for: key, sensitivity: sensitivity)
    }

    /// Reads raw bytes; `.notFound` when nothing is stored.
    @available(*, deprecated, message: "Use data(for:), which returns nil when nothing is stored.")
    public func readSecret(for key: String) throws(SecureStorageError) -> Data {
        guard let value = try storedValue(for: key) else { throw .notFound }
        return value.data
    }

    /// Deletes the value under `key`; returns whether there was one.
    @available(*, deprecated, renamed: "removeValue(for:)")
    @discardableResult
    public func deleteSecret(for key: String) throws(SecureStorageError) -> Bool {
        try removeValue(for: key)
    }

    /// The raw bytes stored under `key`, whatever type wrote them, or `nil`.
    public func data(for key: String) throws(SecureStorageError) -> Data? {
        try storedValue(for: key)?.data
    }

    /// The raw bytes under `key`, or `nil`: `try storage["token"]`. There is no setter, because a
    /// setter cannot report a failure; use `set(_:for:sensitivity:)`.
    public subscript(key: String) -> Data? {
        get throws(SecureStorageError) { try data(for: key) }
    }
}

// MARK: - Strings and Codable values

extension SecureStore {
    /// Stores a value: strings as UTF-8, `Data` as is, anything else `Codable` as JSON.
    public func set<Value: Encodable>(_ value: Value, for key: String, sensitivity: Sensitivity? = nil)
        throws(SecureStorageError)
    {
        try set(Self.encode(value), for: key, sensitivity: sensitivity)
    }

    /// Stores a value, as `set(_:for:sensitivity:)` does, only if nothing is stored under
    /// `key` yet.
    /// - Throws: `.duplicate` when a value is already stored (it is left as it was).
    public func insert<Value: Encodable>(_ value: Value, for key: String, sensitivity: Sensitivity? = nil)
        throws(SecureStorageError)
    {
        try insert(Self.encode(value), for: key, sensitivity: sensitivity)
    }

    /// Reads a value stored with `set(_:for:sensitivity:)`, or `nil` when none is stored.
    /// - Throws: `.decodingFailed` when the stored value is not a `Value`.
    public func value<Value: Decodable>(_ type: Value.Type, for key: String) throws(SecureStorageError) -> Value? {
        guard let stored = try storedValue(for: key) else { return nil }
        return try Self.decode(type, from: stored)
    }

    /// The string under `key`, or `nil`; `.decodingFailed` for a value that is not a string.
    public func string(for key: String) throws(SecureStorageError) -> String? {
        try value(String.self, for: key)
    }

    /// The string under `key`, or `nil`: `try storage[string: "username"]`.
    public subscript(string key: String) -> String? {
        get throws(SecureStorageError) { try string(for: key) }
    }

    /// The value of type `Value` under `key`, or `nil`: `try storage["profile", as: Profile.self]`.
    /// - Throws: `.decodingFailed` when the stored value is not a `Value`.
    public subscript<Value: Decodable>(key: String, as type: Value.Type) -> Value? {
        get throws(SecureStorageError) { try value(type, for: key) }
    }

    /// The boolean under `key`, or `nil`.
    public func bool(for key: String) throws(SecureStorageError) -> Bool? { try value(Bool.self, for: key) }

    /// The integer under `key`, or `nil`.
    public func integer(for key: String) throws(SecureStorageError) -> Int? { try value(Int.self, for: key) }

    /// The number under `key`, or `nil`.
    public func double(for key: String) throws(SecureStorageError) -> Double? { try value(Double.self, for: key) }

    static func encode<Value: Encodable>(_ value: Value) throws(SecureStorageError) -> StoredValue {
        if let text = value as? String { return StoredValue(data: Data(text.utf8), kind: .string) }
        if let bytes = value as? Data { return StoredValue(data: bytes, kind: .data) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            return StoredValue(data: try encoder.encode(value), kind: .json)
        } catch {
            throw .encodingFailed(type: "\(Value.self)")
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from stored: StoredValue) throws(SecureStorageError)
        -> Value
    {
        if Value.self == Data.self, let bytes = stored.data as? Value { return bytes }
        if Value.self == String.self {
            guard stored.kind != .json,
                let text = String(data: stored.data, encoding: .utf8), let value = text as? Value
            else {
                throw .decodingFailed(type: "String")
            }
            return value
        }
        guard stored.kind == .json || stored.kind == .untagged else { throw .decodingFailed(type: "\(Value.self)") }
        do {
            return try JSONDecoder().decode(Value.self, from: stored.data)
        } catch {
            throw .decodingFailed(type: "\(Value.self)")
        }
    }
}
