#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore
import KeychainServices

/// The keys of one store of protected files, kept as generic-password items of the service
/// `SecureStorage.files/<store identifier>` in the keychain, so that the keychain's class keys and lock
/// state decide when each is available, and a passphrase change rewraps them with every other
/// item.
///
/// A store has one name key (account `names`, class D, never replaced) and numbered key
/// *generations* (accounts `g<n>/<slot>`), one key per class in each:
///
/// | Slot | Protection (migratable / device-bound) | Used for |
/// |---|---|---|
/// | `complete` | `WhenUnlocked` / `…ThisDeviceOnly` | wrapping ``FileProtection/complete`` file keys |
/// | `unlessOpen.private` | `WhenUnlocked` / `…ThisDeviceOnly` | X25519 private key: opening ``FileProtection/completeUnlessOpen`` files |
/// | `unlessOpen.public` | `Always` / `…ThisDeviceOnly` | its public key: creating them, also while locked |
/// | `untilFirstAuth` | `AfterFirstUnlock` / `…ThisDeviceOnly` | ``FileProtection/completeUntilFirstUserAuthentication`` |
/// | `none` | `Always` / `…ThisDeviceOnly` | ``FileProtection/none`` |
///
/// The account `current` (class D) holds the newest generation and the keychain's
/// ``Keychain/classKeyEpoch`` when it was made. When the epoch has moved on (the passphrase
/// was set, changed or removed) and the keychain is unlocked, the next write makes a new
/// generation: files written from then on do not open with an old copy of the keychain and its
/// old passphrase. Older generations stay, so older files keep opening.
struct FileKeySet: Sendable {
    enum Slot: String, CaseIterable {
        case complete
        case unlessOpenPrivate = "unlessOpen.private"
        case unlessOpenPublic = "unlessOpen.public"
        case untilFirstAuth
        case none
    }

    /// The newest generation, the class-key epoch it was made in, and whether all its keys
    /// exist (a generation made before the first unlock lacks those only an unlock allows).
    struct Generation: Equatable {
        var number: UInt32
        var epoch: Data
        var isComplete: Bool
    }

    let identifier: String
    let deviceBound: Bool
    /// 16 bytes naming the store inside every file's authenticated data.
    let storeID: Data
    private let storage: SecureStorage

    init(identifier: String, accessGroup: String?, deviceBound: Bool) {
        self.identifier = identifier
        self.deviceBound = deviceBound
        storage = SecureStorage(service: ProtectedFiles.keyService(for: identifier), accessGroup: accessGroup)
        storeID = Data(SHA256.hash(data: Data("ssf1/store".utf8) + Data(identifier.utf8)).prefix(16))
    }

    // MARK: - Generations

    /// The generation new files use: made when the store has none, renewed when the keychain's
    /// class keys were replaced since and it is unlocked (a locked keychain keeps using the
    /// current one until the next write after an unlock), completed at the first write while
    /// unlocked when it was made before.
    func generationForWriting() throws(SecureStorageError) -> UInt32 {
        let epoch = try Self.currentEpoch()
        guard let current = try storedGeneration() else {
            return try makeGeneration(1, epoch: epoch)
        }
        guard Self.isUnlocked else { return current.number }
        if current.epoch != epoch { return try makeGeneration(current.number + 1, epoch: epoch) }
        if !current.isComplete { return try makeGeneration(current.number, epoch: epoch) }
        return current.number
    }

    /// Makes every key of generation `number` that the lock state allows (the rest are made when
    /// first needed or at the next write while unlocked), then records it as current. Safe
    /// against a racing process: each key is added only when absent, and whatever was added
    /// first is what both use.
    private func makeGeneration(_ number: UInt32, epoch: Data) throws(SecureStorageError) -> UInt32 {
        var isComplete = true
        for slot in [Slot.none, .untilFirstAuth, .complete, .unlessOpenPrivate, .unlessOpenPublic] {
            do {
                _ = try key(slot, generation: number, creating: true)
            } catch .locked {
                isComplete = false
            }
        }
        if let current = try storedGeneration(), current.number > number || (current.number == number && current.isComplete) {
            return current.number
        }
        var value = withUnsafeBytes(of: number.bigEndian) { Data($0) }
        value.append(epoch)
        value.append(isComplete ? 1 : 0)
        try storage.store(StoredValue(data: value, kind: .data), for: "current", sensitivity: .custom(protection(for: .none)))
        return number
    }

    private func storedGeneration() throws(SecureStorageError) -> Generation? {
        guard let value = try storage.data(for: "current") else { return nil }
        guard value.count == 37, value.last! <= 1 else { throw .integrityViolation }
        return Generation(number: value.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }, epoch: value.dropFirst(4).prefix(32),
                          isComplete: value.last == 1)
    }

    // MARK: - Keys

    /// The key of `slot` in `generation`; made when missing and `creating` (new files), which
    /// fails with `.locked` when the lock state does not allow adding it.
    /// - Throws: `.integrityViolation` when an older file's key is gone or malformed.
    func key(_ slot: Slot, generation: UInt32, creating: Bool) throws(SecureStorageError) -> Data {
        let name = "g\(generation)/\(slot.rawValue)"
        if let value = try storage.data(for: name) {
            guard value.count == 32 else { throw .integrityViolation }
            return value
        }
        guard creating else { throw .integrityViolation }
        let value: Data
        switch slot {
        case .unlessOpenPublic:
            // Derived from the private key that won any race, so the pair always matches.
            let privateKey = try key(.unlessOpenPrivate, generation: generation, creating: true)
            value = try Self.publicKey(of: privateKey)
        case .unlessOpenPrivate:
            value = Curve25519.KeyAgreement.PrivateKey().rawRepresentation
        default:
            value = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        }
        do {
            try storage.insert(StoredValue(data: value, kind: .data), for: name, sensitivity: .custom(protection(for: slot)))
            return value
        } catch .duplicate {
            return try key(slot, generation: generation, creating: false)
        }
    }

    /// The store's name key (class D, never replaced: renaming and listing work in every state).
    func namesKey() throws(SecureStorageError) -> SymmetricKey {
        let name = "names"
        if let value = try storage.data(for: name) {
            guard value.count == 32 else { throw .integrityViolation }
            return SymmetricKey(data: value)
        }
        let value = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        do {
            try storage.insert(StoredValue(data: value, kind: .data), for: name, sensitivity: .custom(protection(for: .none)))
            return SymmetricKey(data: value)
        } catch .duplicate {
            return try namesKey()
        }
    }

    /// Deletes every key of the store in one transaction (also while locked): its files can
    /// never be opened again.
    func removeAll() throws(SecureStorageError) {
        try storage.removeAll()
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

    private func protection(for slot: Slot) -> Protection {
        switch (slot, deviceBound) {
        case (.complete, false), (.unlessOpenPrivate, false): .whenUnlocked
        case (.complete, true), (.unlessOpenPrivate, true): .whenUnlockedThisDeviceOnly
        case (.untilFirstAuth, false): .afterFirstUnlock
        case (.untilFirstAuth, true): .afterFirstUnlockThisDeviceOnly
        case (.none, false), (.unlessOpenPublic, false): .always
        case (.none, true), (.unlessOpenPublic, true): .alwaysThisDeviceOnly
        }
    }

    // MARK: - The keychain's state

    private static func currentEpoch() throws(SecureStorageError) -> Data {
        do {
            return try SecItemEnvironment.keychain().classKeyEpoch
        } catch {
            throw SecureStorageError(status: error.code.osStatus) ?? .underlying(error.code.osStatus)
        }
    }

    /// Whether the keychain the store uses is unlocked.
    static var isUnlocked: Bool {
        (try? SecItemEnvironment.keychain().lockState) == .unlocked
    }
}
#endif
