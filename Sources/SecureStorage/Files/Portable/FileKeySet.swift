#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import SecureStorageFoundation

/// The keys of one store of protected files, kept as generic-password items of the service
/// `SecureStorage.files/<store identifier>` in the keychain's library-owned namespace (no app,
/// `keychain` command, import or sync can plant or replace one), so that the keychain's class keys
/// and lock state decide when each is available, and a passphrase change rewraps them with
/// every other item.
///
/// | Account | Protection (migratable / device-bound) | Used for |
/// |---|---|---|
/// | `names` | `Always` / `…ThisDeviceOnly` | the name MAC of every file |
/// | `none` | `Always` / `…ThisDeviceOnly` | wrapping ``FileProtection/none`` file keys |
/// | `current` | `AfterFirstUnlock` / `…ThisDeviceOnly` | the newest generation, its class-key epoch, its flags |
/// | `g<id>/complete` | `WhenUnlocked` / `…ThisDeviceOnly` | wrapping ``FileProtection/complete`` file keys |
/// | `g<id>/unlessOpen.private` | `WhenUnlocked` / `…ThisDeviceOnly` | X25519 private key: opening ``FileProtection/completeUnlessOpen`` files |
/// | `g<id>/unlessOpen.public` | `AfterFirstUnlock` / `…ThisDeviceOnly` | its public key: creating them, also while locked |
/// | `g<id>/untilFirstAuth` | `AfterFirstUnlock` / `…ThisDeviceOnly` | ``FileProtection/completeUntilFirstUserAuthentication`` |
///
/// Every key is checked to have its protection when read: a key planted with a weaker one (by
/// someone holding the device key, who can forge `Always` items but no others) is refused with
/// `.integrityViolation`, never used.
///
/// Generations have random 32-bit IDs, never reused. When the keychain's
/// ``Keychain/classKeyEpoch`` has moved on since the current generation was made (a passphrase
/// was set, changed or removed) and the keychain is unlocked, the next write makes a new one:
/// files written from then on do not open with an old copy of the keychain and its old
/// passphrase. Older generations stay, so older files keep opening. `none` files need no
/// generation: their key depends on the device key only, which a passphrase change keeps.
struct FileKeySet: Sendable {
    enum Slot: String, CaseIterable {
        case complete
        case unlessOpenPrivate = "unlessOpen.private"
        case unlessOpenPublic = "unlessOpen.public"
        case untilFirstAuth
    }

    /// The generation new files use, as recorded under `current`.
    struct Generation: Equatable {
        var id: UInt32
        var epoch: Data
        /// Whether all of its keys exist (one made while locked lacks those only an unlock allows).
        var isComplete: Bool
        var isDeviceBound: Bool
    }

    /// The generation field of a ``FileProtection/none`` file's header.
    static let noGeneration: UInt32 = 0

    let identifier: String
    let deviceBound: Bool
    /// 16 bytes naming the store inside every file's authenticated data.
    let storeID: Data
    /// The keys taken from the keychain while it is unlocked (shared by every value of the store
    /// in the process).
    let cache: FileKeyCache
    private let storage: SecureStorage

    init(identifier: String, accessGroup: String?, deviceBound: Bool) {
        self.identifier = identifier
        self.deviceBound = deviceBound
        storage = SecureStorage(service: ProtectedFiles.keyService(for: identifier), accessGroup: accessGroup)
            .libraryOwned(by: .protectedFiles)
        storeID = Data(SHA256.hash(data: Data("ssf1/store".utf8) + Data(identifier.utf8)).prefix(16))
        cache = FileKeyCache.shared(
            for: .init(service: ProtectedFiles.keyService(for: identifier), accessGroup: accessGroup))
    }

    // MARK: - Generations

    /// The generation new files use: made when the store has none, and, while unlocked,
    /// renewed when the keychain's class keys were replaced since or the store is now opened
    /// with another `deviceBound`, and completed when it was made while locked. A locked
    /// keychain keeps using the current generation.
    /// - Throws: `.locked` before the first unlock.
    func generationForWriting() throws(SecureStorageError) -> UInt32 {
        let epoch = try Self.currentEpoch()
        let unlocked = Self.isUnlocked
        guard let current = try storedGeneration() else {
            return try makeGeneration(Self.newGenerationID(), epoch: epoch)
        }
        guard unlocked else { return current.id }
        if current.epoch != epoch || current.isDeviceBound != deviceBound {
            return try makeGeneration(Self.newGenerationID(), epoch: epoch)
        }
        if !current.isComplete { return try makeGeneration(current.id, epoch: epoch) }
        return current.id
    }

    /// Makes every key of generation `id` that the lock state allows (the rest are made at the
    /// next write while unlocked), then records it as current. Each key is added only when
    /// absent, so a racing process ends up with the same keys.
    private func makeGeneration(_ id: UInt32, epoch: Data) throws(SecureStorageError) -> UInt32 {
        var isComplete = true
        for slot in [Slot.untilFirstAuth, .complete, .unlessOpenPrivate, .unlessOpenPublic] {
            do {
                _ = try key(slot, generation: id, creating: true)
            } catch .locked {
                isComplete = false
            }
        }
        var value = withUnsafeBytes(of: id.bigEndian) { Data($0) }
        value.append(epoch)
        value.append((isComplete ? 1 : 0) | (deviceBound ? 2 : 0))
        try storage.set(
            StoredValue(data: value, kind: .data), for: "current", sensitivity: .custom(protection(.afterFirstUnlock)))
        return id
    }

    private func storedGeneration() throws(SecureStorageError) -> Generation? {
        guard let value = try checkedValue("current", class: .afterFirstUnlock, size: 37) else { return nil }
        let flags = value[value.startIndex + 36]
        guard flags & ~3 == 0 else { throw .integrityViolation }
        return Generation(
            id: value.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }, epoch: Data(value.dropFirst(4).prefix(32)),
            isComplete: flags & 1 != 0, isDeviceBound: flags & 2 != 0)
    }

    /// A random generation ID (never 0, which marks `none` files).
    private static func newGenerationID() -> UInt32 { UInt32.random(in: 1...UInt32.max) }

    // MARK: - Keys

    /// The key of `slot` in `generation`; made when missing and `creating` (new files), which
    /// fails with `.locked` when the lock state does not allow adding it.
    /// - Throws: `.integrityViolation` when an older file's key is gone, malformed, or stored
    ///   with another protection than its slot's.
    func key(_ slot: Slot, generation: UInt32, creating: Bool) throws(SecureStorageError) -> Data {
        let name = "g\(generation)/\(slot.rawValue)"
        let protectionClass: ProtectionClassOfKey =
            slot == .complete || slot == .unlessOpenPrivate ? .whenUnlocked : .afterFirstUnlock
        if let value = try checkedValue(name, class: protectionClass, size: 32) {
            if slot == .unlessOpenPublic, Self.isUnlocked {
                // While unlocked, the public key must be the private key's: a substituted one
                // would let its maker open files written while locked.
                guard
                    value
                        == (try Self.publicKey(of: try key(.unlessOpenPrivate, generation: generation, creating: false)))
                else {
                    throw .integrityViolation
                }
            }
            return value
        }
        guard creating else { throw .integrityViolation }
        let value: Data
        switch slot {
        case .unlessOpenPublic:
            // Derived from the private key that won any race, so the pair always matches.
            value = try Self.publicKey(of: try key(.unlessOpenPrivate, generation: generation, creating: true))
        case .unlessOpenPrivate:
            value = Curve25519.KeyAgreement.PrivateKey().rawRepresentation
        default:
            value = Self.randomKey()
        }
        return try insert(value, name, class: protectionClass)
    }

    /// The store's key for ``FileProtection/none`` files (class D, never replaced).
    func noneKey() throws(SecureStorageError) -> Data {
        try deviceKey("none")
    }

    /// The store's name key (class D, never replaced: renaming and listing work in every state);
    /// `forWriting` reads it from the keychain whatever the cache holds.
    func namesKey(forWriting: Bool = false) throws(SecureStorageError) -> SymmetricKey {
        let cached = try cache.key(.names, forWriting: forWriting) {
            () throws(SecureStorageError) -> FileKeyCache.Key in
            var bytes = try deviceKey("names")
            return .symmetric(Self.symmetricKey(wiping: &bytes))
        }
        guard case .symmetric(let key) = cached else { throw .integrityViolation }
        return key
    }

    /// A key made of raw bytes taken from the keychain; the bytes are then zeroed where they are
    /// (they are this code's alone: the key holds its own copy).
    static func symmetricKey(wiping bytes: inout Data) -> SymmetricKey {
        defer { SecretWiping.wipe(&bytes) }
        return SymmetricKey(data: bytes)
    }

    /// Deletes the keys of every generation but `current`.
    func removeGenerations(except current: UInt32) throws(SecureStorageError) {
        clearCaches()
        defer { clearCaches() }
        for account in try storage.allKeys() where account.hasPrefix("g") && !account.hasPrefix("g\(current)/") {
            try storage.removeValue(for: account)
        }
    }

    /// Deletes every key of the store in one transaction (also while locked): its files can
    /// never be opened again.
    func removeAll() throws(SecureStorageError) {
        clearCaches()
        defer { clearCaches() }
        try storage.removeAll()
    }

    /// Empties the key caches of this store in the process, before and after its keys are
    /// deleted (a read loading a key meanwhile does not keep it).
    private func clearCaches() {
        FileKeyCache.clearAll(service: ProtectedFiles.keyService(for: identifier))
    }

    /// The X25519 public key of a private key's raw bytes.
    static func publicKey(of privateKey: Data) throws(SecureStorageError) -> Data {
        do {
            return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey).publicKey.rawRepresentation
        } catch {
            throw .integrityViolation
        }
    }

    // MARK: - Items

    /// The protection classes the store's keys are kept in (each migratable or device-bound).
    private enum ProtectionClassOfKey {
        case whenUnlocked, afterFirstUnlock, always

        var accepted: Set<Protection> {
            switch self {
            case .whenUnlocked: [.whenUnlocked, .whenUnlockedThisDeviceOnly]
            case .afterFirstUnlock: [.afterFirstUnlock, .afterFirstUnlockThisDeviceOnly]
            case .always: [.always, .alwaysThisDeviceOnly]
            }
        }
    }

    private func protection(_ protectionClass: ProtectionClassOfKey) -> Protection {
        switch (protectionClass, deviceBound) {
        case (.whenUnlocked, false): .whenUnlocked
        case (.whenUnlocked, true): .whenUnlockedThisDeviceOnly
        case (.afterFirstUnlock, false): .afterFirstUnlock
        case (.afterFirstUnlock, true): .afterFirstUnlockThisDeviceOnly
        case (.always, false): .always
        case (.always, true): .alwaysThisDeviceOnly
        }
    }

    /// The value stored under `name`, checked to be kept in `protectionClass` and `size` bytes long.
    private func checkedValue(_ name: String, class protectionClass: ProtectionClassOfKey, size: Int)
        throws(SecureStorageError) -> Data?
    {
        guard let (value, protection) = try storage.entry(for: name) else { return nil }
        guard let protection, protectionClass.accepted.contains(protection), value.data.count == size else {
            throw .integrityViolation
        }
        return value.data
    }

    private func deviceKey(_ name: String) throws(SecureStorageError) -> Data {
        if let value = try checkedValue(name, class: .always, size: 32) { return value }
        return try insert(Self.randomKey(), name, class: .always)
    }

    /// Adds a key; when a racing process added it first, theirs.
    private func insert(_ value: Data, _ name: String, class protectionClass: ProtectionClassOfKey)
        throws(SecureStorageError) -> Data
    {
        do {
            try storage.insert(
                StoredValue(data: value, kind: .data), for: name, sensitivity: .custom(protection(protectionClass)))
            return value
        } catch .duplicate {
            guard let stored = try checkedValue(name, class: protectionClass, size: value.count) else {
                throw .integrityViolation
            }
            return stored
        }
    }

    private static func randomKey() -> Data { SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) } }

    // MARK: - The keychain's state

    private static func currentEpoch() throws(SecureStorageError) -> Data {
        do {
            return try SecItemEnvironment.keychain().classKeyEpoch
        } catch {
            throw SecureStorageError(error)
        }
    }

    /// Whether the keychain the store uses is unlocked.
    static var isUnlocked: Bool {
        (try? SecItemEnvironment.keychain().lockState) == .unlocked
    }
}
#endif
