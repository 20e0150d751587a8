import Crypto
import Foundation
import KeychainServices

/// Secure storage that lives only in memory: the same API as ``SecureStorage``, values sealed
/// with AES-GCM under a random key that exists only in this process, wiped on ``clear()`` and
/// when the storage is released. It never touches the disk. Use it for session tokens and
/// values under construction; ``persist()`` and ``load()`` copy to and from a permanent store.
///
/// ```swift
/// let session = VolatileSecureStorage(persistingTo: SecureStorage(service: "com.acme.app"))
/// try session.set(otpSeed, for: "otp.seed", sensitivity: .secret)
/// try session.persist()          // now also in the keychain
/// session.clear()                // gone from memory
/// ```
public final class VolatileSecureStorage: SecureStore, CustomStringConvertible, Sendable {
    /// The per-process key; it never leaves memory and dies with the process.
    private static let processKey = SymmetricKey(size: .bits256)

    private struct Entry {
        var sealed: Data
        var kind: StoredValue.Kind
        var sensitivity: Sensitivity
    }

    private struct Contents {
        var entries: [String: Entry] = [:]
        var order: [String] = []

        /// Removes one entry, overwriting its ciphertext; returns whether there was one.
        @discardableResult
        mutating func wipe(_ key: String) -> Bool {
            guard var entry = entries.removeValue(forKey: key) else { return false }
            entry.sealed.resetBytes(in: 0..<entry.sealed.count)
            order.removeAll { $0 == key }
            return true
        }

        /// Removes every entry, overwriting each ciphertext.
        mutating func wipeAll() {
            for key in order { wipe(key) }
        }
    }

    private let contents = LockedValue(Contents())
    /// The permanent store ``persist()`` writes to and ``load()`` reads from.
    public let permanentStore: SecureStorage?
    /// The sensitivity of values stored without one (the permanent store's default, else `.secret`).
    public let defaultSensitivity: Sensitivity

    /// Creates an empty volatile store, optionally paired with a permanent one.
    public init(persistingTo permanentStore: SecureStorage? = nil) {
        self.permanentStore = permanentStore
        self.defaultSensitivity = permanentStore?.defaultSensitivity ?? .secret
    }

    deinit { clear() }

    /// The number of values; never any value.
    public var description: String { "VolatileSecureStorage(\(contents.withLock { $0.order.count }) values, redacted)" }

    // MARK: - SecureStore

    /// Seals `value` under the per-process key, replacing any previous value in place.
    public func store(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError) {
        let entry = try seal(value, key: key, sensitivity: sensitivity ?? defaultSensitivity)
        contents.withLock { contents in
            let position = contents.order.firstIndex(of: key)
            contents.wipe(key)
            contents.order.insert(key, at: position ?? contents.order.endIndex)
            contents.entries[key] = entry
        }
    }

    /// Seals `value` only if nothing is stored under `key`; otherwise throws `.duplicate`.
    public func insert(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError) {
        let entry = try seal(value, key: key, sensitivity: sensitivity ?? defaultSensitivity)
        try contents.withLock { (contents: inout Contents) throws(SecureStorageError) in
            guard contents.entries[key] == nil else { throw .duplicate }
            contents.order.append(key)
            contents.entries[key] = entry
        }
    }

    /// Opens the value under `key`, or returns `nil`.
    public func storedValue(for key: String) throws(SecureStorageError) -> StoredValue? {
        guard let entry = contents.withLock({ $0.entries[key] }) else { return nil }
        return try open(entry, key: key)
    }

    /// Wipes the value under `key`.
    /// - Returns: `false` when there was nothing to wipe.
    @discardableResult
    public func deleteSecret(for key: String) throws(SecureStorageError) -> Bool {
        contents.withLock { $0.wipe(key) }
    }

    /// Whether a value is held under `key`.
    public func contains(_ key: String) throws(SecureStorageError) -> Bool {
        contents.withLock { $0.entries[key] != nil }
    }

    /// Every key held, in the order first stored.
    public func allKeys() throws(SecureStorageError) -> [String] {
        contents.withLock { $0.order }
    }

    /// Wipes every value; the same as ``clear()``.
    public func removeAll() throws(SecureStorageError) { clear() }

    /// Wipes every value from memory.
    public func clear() {
        contents.withLock { $0.wipeAll() }
    }

    // MARK: - Permanent store

    /// Writes every value to the permanent store, each atomically, with its sensitivity.
    /// Stops at the first failure (e.g. `.locked`); values written before it stay written.
    public func persist() throws(SecureStorageError) {
        let store = try requirePermanentStore()
        for key in try allKeys() {
            guard let entry = contents.withLock({ $0.entries[key] }) else { continue }
            try store.store(try open(entry, key: key), for: key, sensitivity: entry.sensitivity)
        }
    }

    /// Copies every value of the permanent store into memory, keeping each one's protection.
    /// - Returns: the number of values loaded.
    @discardableResult
    public func load() throws(SecureStorageError) -> Int {
        let store = try requirePermanentStore()
        var loaded = 0
        for key in try store.allKeys() {
            guard let (value, protection) = try store.entry(for: key) else { continue }
            try self.store(value, for: key, sensitivity: protection.map(Sensitivity.custom) ?? defaultSensitivity)
            loaded += 1
        }
        return loaded
    }

    private func requirePermanentStore() throws(SecureStorageError) -> SecureStorage {
        guard let permanentStore else { throw .underlying(errSecNoDefaultKeychain) }
        return permanentStore
    }

    // MARK: - Sealing

    private func seal(_ value: StoredValue, key: String, sensitivity: Sensitivity) throws(SecureStorageError) -> Entry {
        do {
            let box = try AES.GCM.seal(value.data, using: Self.processKey, authenticating: Self.associatedData(key: key, kind: value.kind))
            return Entry(sealed: box.combined!, kind: value.kind, sensitivity: sensitivity)
        } catch {
            throw .underlying(errSecAllocate)
        }
    }

    private func open(_ entry: Entry, key: String) throws(SecureStorageError) -> StoredValue {
        do {
            let data = try AES.GCM.open(AES.GCM.SealedBox(combined: entry.sealed), using: Self.processKey,
                                        authenticating: Self.associatedData(key: key, kind: entry.kind))
            return StoredValue(data: data, kind: entry.kind)
        } catch {
            throw .integrityViolation
        }
    }

    /// Binds each ciphertext to its key and kind, so values cannot be swapped in memory.
    private static func associatedData(key: String, kind: StoredValue.Kind) -> Data {
        Data("SSV1\u{0}\(kind.rawValue)\u{0}\(key)".utf8)
    }
}
