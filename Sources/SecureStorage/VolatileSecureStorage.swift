import Crypto
import Foundation
import SecureStorageFoundation
import KeychainServices

/// Secure storage that lives only in memory: the same API as ``SecureStorage``, values sealed
/// with AES-GCM under a random key that exists only in this process (one per instance, replaced
/// by ``clear()``), wiped on ``clear()`` and when the storage is released. It never touches the disk. Use it for session tokens and
/// values under construction; ``persist()`` and ``load(replacingValuesInMemory:)`` copy to and from a permanent store.
///
/// ```swift
/// let session = VolatileSecureStorage(persistingTo: SecureStorage(service: "com.acme.app"))
/// try session.set(otpSeed, for: "otp.seed", sensitivity: .secret)
/// try session.persist()          // now also in the keychain
/// session.clear()                // gone from memory
/// ```
public final class VolatileSecureStorage: SecureStore, CustomStringConvertible, Sendable {
    private struct Entry {
        var sealed: Data
        var kind: StoredValue.Kind
        var sensitivity: Sensitivity
    }

    private struct Contents {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        /// The key sealing this instance's values; it never leaves memory, and ``wipeAll()``
        /// replaces it so nothing sealed before a clear can be opened again.
        var key = SymmetricKey(size: .bits256)

        /// Removes one entry, overwriting its ciphertext; returns whether there was one.
        @discardableResult
        mutating func wipe(_ key: String) -> Bool {
            guard var entry = entries.removeValue(forKey: key) else { return false }
            SecretWiping.wipe(&entry.sealed)
            order.removeAll { $0 == key }
            return true
        }

        /// Removes every entry, overwriting each ciphertext, and replaces the sealing key.
        mutating func wipeAll() {
            for key in order { wipe(key) }
            key = SymmetricKey(size: .bits256)
        }
    }

    private let contents = Locked(Contents())
    /// The permanent store ``persist()`` writes to and ``load(replacingValuesInMemory:)`` reads from.
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
    public func set(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError) {
        try contents.withLock { (contents: inout Contents) throws(SecureStorageError) in
            let entry = try Self.seal(
                value, name: key, sensitivity: sensitivity ?? defaultSensitivity, with: contents.key)
            let position = contents.order.firstIndex(of: key)
            contents.wipe(key)
            contents.order.insert(key, at: position ?? contents.order.endIndex)
            contents.entries[key] = entry
        }
    }

    /// Seals `value` only if nothing is stored under `key`; otherwise throws `.duplicate`.
    public func insert(_ value: StoredValue, for key: String, sensitivity: Sensitivity?) throws(SecureStorageError) {
        try contents.withLock { (contents: inout Contents) throws(SecureStorageError) in
            guard contents.entries[key] == nil else { throw .duplicate }
            let entry = try Self.seal(
                value, name: key, sensitivity: sensitivity ?? defaultSensitivity, with: contents.key)
            contents.order.append(key)
            contents.entries[key] = entry
        }
    }

    /// Opens the value under `key`, or returns `nil`.
    public func storedValue(for key: String) throws(SecureStorageError) -> StoredValue? {
        try entry(for: key)?.value
    }

    /// The opened value and sensitivity under `key`.
    private func entry(for key: String) throws(SecureStorageError) -> (value: StoredValue, sensitivity: Sensitivity)? {
        try contents.withLock { (contents: inout Contents) throws(SecureStorageError) in
            guard let entry = contents.entries[key] else { return nil }
            return (try Self.open(entry, name: key, with: contents.key), entry.sensitivity)
        }
    }

    /// Wipes the value under `key`.
    /// - Returns: `false` when there was nothing to wipe.
    @discardableResult
    public func removeValue(for key: String) throws(SecureStorageError) -> Bool {
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
    ///
    /// Every value is attempted even when one fails (e.g. `.locked` for a `.secret` value while
    /// the device is locked, when `.private` ones can still be written); then the first failure
    /// is thrown. Each write either replaced the stored value or left it as it was, so calling
    /// `persist()` again after unlocking completes the copy.
    /// - Returns: the keys that were written.
    @discardableResult
    public func persist() throws(SecureStorageError) -> [String] {
        let store = try requirePermanentStore()
        var written: [String] = []
        var firstFailure: SecureStorageError?
        for key in try allKeys() {
            do {
                guard let (value, sensitivity) = try entry(for: key) else { continue }
                try store.set(value, for: key, sensitivity: sensitivity)
                written.append(key)
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        if let firstFailure { throw firstFailure }
        return written
    }

    /// Copies the values of the permanent store into memory, keeping each one's protection.
    ///
    /// A key already held in memory keeps its in-memory value (it is the newer one) unless
    /// `replacingValuesInMemory` is `true`; keys held only in memory stay.
    /// - Returns: the number of values loaded.
    @discardableResult
    public func load(replacingValuesInMemory: Bool = false) throws(SecureStorageError) -> Int {
        let store = try requirePermanentStore()
        var loaded = 0
        for key in try store.allKeys() {
            if !replacingValuesInMemory, try contains(key) { continue }
            guard let (value, protection) = try store.entry(for: key) else { continue }
            try self.set(value, for: key, sensitivity: protection.map(Sensitivity.custom) ?? defaultSensitivity)
            loaded += 1
        }
        return loaded
    }

    private func requirePermanentStore() throws(SecureStorageError) -> SecureStorage {
        guard let permanentStore else {
            SecureStorage.log.error("persist() or load() on a VolatileSecureStorage created without persistingTo:")
            throw .underlying(errSecNoDefaultKeychain)
        }
        return permanentStore
    }

    // MARK: - Sealing

    private static func seal(_ value: StoredValue, name: String, sensitivity: Sensitivity, with key: SymmetricKey)
        throws(SecureStorageError) -> Entry
    {
        do {
            let box = try AES.GCM.seal(
                value.data, using: key, authenticating: associatedData(name: name, kind: value.kind))
            return Entry(sealed: box.combined!, kind: value.kind, sensitivity: sensitivity)
        } catch {
            throw .underlying(errSecAllocate)
        }
    }

    private static func open(_ entry: Entry, name: String, with key: SymmetricKey) throws(SecureStorageError)
        -> StoredValue
    {
        do {
            let data = try AES.GCM.open(
                AES.GCM.SealedBox(combined: entry.sealed), using: key,
                authenticating: associatedData(name: name, kind: entry.kind))
            return StoredValue(data: data, kind: entry.kind)
        } catch {
            throw .integrityViolation
        }
    }

    /// Binds each ciphertext to its key and kind, so values cannot be swapped in memory.
    private static func associatedData(name: String, kind: StoredValue.Kind) -> Data {
        Data("SSV1\u{0}\(kind.rawValue)\u{0}\(name)".utf8)
    }
}
