#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import SecureStorageFoundation

/// The store's keys as last taken from the keychain — the name key, the wrapping keys derived
/// from the class keys, the `completeUnlessOpen` private keys — so that opening a file costs no
/// keychain read. Kept only while the keychain is unlocked, and only as `SymmetricKey` and
/// `Curve25519` key values, whose storage swift-crypto zeroes when the last reference goes.
///
/// A key is used from here only while all of these hold, else the cache is emptied and the key
/// read from the keychain again (with every check it had):
/// - the keychain in use is the instance the key came from, and it is unlocked;
/// - the instance has dropped no keys since ( ``KeychainLockEvents``): not locked, no passphrase
///   set, changed or removed here, none noticed from another process;
/// - the key was taken less than ``lifetime`` ago, so that what another process did to the
///   keychain (its passphrase change, its deletion of the store's keys) reaches the cache within
///   that time even when this process makes no other keychain call.
///
/// The cache is emptied at once when the keychain locks (an observer of its lock events), by
/// ``ProtectedFiles/destroy()`` and ``ProtectedFiles/rekey()`` through any value of the store, and
/// when the last ``ProtectedFiles`` value of the store goes. Writes never take a key from it.
final class FileKeyCache: Sendable {
    /// How long a key is used without reading it again from the keychain.
    static let lifetime: Duration = .seconds(1)

    /// What is cached: which key.
    enum Name: Hashable {
        /// The store's name key (``FileKeySet/namesKey()``).
        case names
        /// The wrapping key of a class and generation (complete, untilFirstAuth, none).
        case wrapping(protection: UInt8, generation: UInt32)
        /// The `completeUnlessOpen` private key of a generation.
        case unlessOpenPrivate(generation: UInt32)
    }

    /// A cached key.
    enum Key: Sendable {
        case symmetric(SymmetricKey)
        /// A private key with its public key's raw bytes (computing them is a scalar multiplication).
        case agreement(Curve25519.KeyAgreement.PrivateKey, publicKey: Data)
    }

    private struct State {
        /// The lock events of the keychain instance the keys came from, held so that no other
        /// instance's can be allocated at the same address while the keys are kept.
        var events: KeychainLockEvents?
        /// Its lock-event version when the first key was taken.
        var version: UInt64 = 0
        /// When the keys stop being used.
        var expiry: ContinuousClock.Instant = .now
        var keys: [Name: Key] = [:]
        /// How many times the cache was emptied: a key loaded across an emptying is not kept.
        var clears: UInt64 = 0
        /// Empties the cache when the keychain locks.
        var observation: KeychainLockObservation?
    }

    private let state = Locked(State())

    init() {}

    /// The cache of the store whose keys live under `store` (its keychain service and access
    /// group): one per store in the process, shared by every ``ProtectedFiles`` value of it, so
    /// that ``ProtectedFiles/destroy()`` or ``ProtectedFiles/rekey()`` through any of them empties
    /// it for all.
    static func shared(for store: Store) -> FileKeyCache {
        registry.withLock { caches in
            if let cache = caches[store]?.cache { return cache }
            caches = caches.filter { $0.value.cache != nil }
            let cache = FileKeyCache()
            caches[store] = WeakCache(cache: cache)
            return cache
        }
    }

    /// Empties the cache of every store whose keys live under `service`, whatever its access
    /// group: a store opened without one reads and deletes the keys of every group it may use,
    /// so its `destroy()` reaches a value of the same store opened with an explicit group.
    static func clearAll(service: String) {
        let caches = registry.withLock { caches in caches.filter { $0.key.service == service }.compactMap(\.value.cache)
        }
        for cache in caches { cache.clear() }
    }

    /// Where a store's keys live: their keychain service and access group.
    struct Store: Hashable, Sendable {
        var service: String
        var accessGroup: String?
    }

    private struct WeakCache: @unchecked Sendable {
        weak var cache: FileKeyCache?
    }

    private static let registry = Locked<[Store: WeakCache]>([:])

    /// The key `name`: from the cache when it is still valid and `forWriting` is false, else from
    /// `load`, which is then kept while the keychain stays unlocked. A write always reads its keys
    /// from the keychain: a key the store no longer has (deleted by another process within
    /// ``lifetime``) must never seal a new file, which could not be opened again.
    func key(_ name: Name, forWriting: Bool = false, load: () throws(SecureStorageError) -> Key)
        throws(SecureStorageError) -> Key
    {
        guard let keychain = try? SecItemEnvironment.keychain(), keychain.lockState == .unlocked else {
            clear()
            return try load()
        }
        let events = keychain.lockEvents
        let version = events.version
        let now = ContinuousClock.now
        let (hit, clears) = state.withLock { state -> (Key?, UInt64) in
            guard !forWriting, state.events === events, state.version == version, now < state.expiry else {
                return (nil, state.clears)
            }
            return (state.keys[name], state.clears)
        }
        if let hit { return hit }
        let loaded = try load()
        state.withLock { state in
            // Emptied while the key loaded (a destroy or rekey deleting keys): not kept.
            guard state.clears == clears else { return }
            if state.events !== events || state.version != version || now >= state.expiry {
                state.keys = [:]
                state.events = events
                state.version = version
                state.expiry = now + Self.lifetime
                state.observation = events.observe { [weak self] in self?.clear() }
            }
            // Kept only when no key was dropped while it loaded; a lock from now on empties
            // the cache through the observer.
            guard events.version == version, keychain.lockState == .unlocked else { return }
            state.keys[name] = loaded
        }
        return loaded
    }

    /// The number of keys held (for tests).
    var count: Int { state.withLock { $0.keys.count } }

    /// Forgets every key.
    func clear() {
        state.withLock { state in
            state.clears &+= 1
            state.keys = [:]
            state.events = nil
            state.observation = nil
        }
    }
}
#endif
