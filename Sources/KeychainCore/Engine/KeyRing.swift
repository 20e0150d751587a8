import Crypto
import Foundation
import SecureStorageFoundation
import GRDB

/// The keys a keychain instance holds in memory, and its lock state.
///
/// - Opening unwraps the device tier (index key, class D keys). Without a passphrase it also
///   unwraps the user tier with a KEK derived from the device key alone: the keychain is unlocked.
/// - ``unlock(passphrase:)`` derives KEK_user from the passphrase and unwraps every user-tier key.
/// - ``lock()`` drops the class A and passcode-set keys; class C keys stay until the instance goes.
///
/// Every transaction first calls ``refresh(_:)``: when another process changed the keybag
/// (passphrase set, changed or removed), the header and keybag are checked against their MAC
/// and reloaded. Such a change rotates the user-tier class keys, so the keys this instance held
/// no longer open anything: without a passphrase the new ones unwrap with the device key; with
/// one, the instance is back before its first unlock until ``unlock(passphrase:keybag:)``.
final class KeyRing: @unchecked Sendable {
    private struct State {
        var header: VaultHeader
        var lockState: LockState
        var classKeys: [Accessibility: ClassKeys]
        /// The user-tier class-key slots as last loaded: when another process changes them, the
        /// keys this instance holds were rotated away.
        var userClassSlots: [KeybagSlot: Data]
        var presence: PresenceRecords
    }

    let indexer: BlindIndexer
    /// Told when this instance drops its locked-class keys or replaces them.
    let lockEvents = KeychainLockEvents()
    /// Where the keychain's files are (the format anchor lives beside the device key).
    let location: KeychainLocation
    private let state: Locked<State>
    /// The device secret and what is keyed by it; replaced when this instance rotates the
    /// secret (``adopt(rotatedDeviceKey:header:keybag:)``).
    private let deviceKeyed: Locked<DeviceKeyed>

    /// The device secret D and the keys derived from it that need no keybag.
    struct DeviceKeyed: Sendable {
        let deviceKey: SymmetricKey
        let stateDigest: StateDigest
        let rowSealer: RowSealer

        init(deviceKey: SymmetricKey, vaultID: UUID) {
            self.deviceKey = deviceKey
            stateDigest = StateDigest(deviceKey: deviceKey, vaultID: vaultID)
            rowSealer = RowSealer(deviceKey: deviceKey, vaultID: vaultID)
        }
    }

    /// The device secret D.
    var deviceKey: SymmetricKey { deviceKeyed.withLock { $0.deviceKey } }
    /// The keyed digest of all rows (tamper evidence beyond single rows).
    var stateDigest: StateDigest { deviceKeyed.withLock { $0.stateDigest } }
    /// The MAC of each row's clear columns and tags.
    var rowSealer: RowSealer { deviceKeyed.withLock { $0.rowSealer } }

    /// Loads the keybag of an opened keychain and unwraps what the device key alone allows.
    init(header: VaultHeader, deviceKey: SymmetricKey, keybag: [KeybagSlot: Data], location: KeychainLocation)
        throws(KeychainError)
    {
        self.location = location
        deviceKeyed = Locked(DeviceKeyed(deviceKey: deviceKey, vaultID: header.vaultID))
        indexer = BlindIndexer(key: try KeybagSlot.indexKey(in: keybag, deviceKey: deviceKey, vaultID: header.vaultID))
        state = Locked(
            State(
                header: header, lockState: .beforeFirstUnlock, classKeys: [:],
                userClassSlots: Self.userClassSlots(of: keybag), presence: try PresenceRecords(keybag: keybag)))
        try reload(header: header, keybag: keybag)
    }

    // MARK: - State

    var header: VaultHeader { state.withLock { $0.header } }
    var lockState: LockState { state.withLock { $0.lockState } }
    /// The presence key and enrolments.
    var presence: PresenceRecords { state.withLock { $0.presence } }
    /// The wrapped user-tier class keys as last loaded (what ``Keychain/classKeyEpoch`` digests).
    var userClassSlotsSnapshot: [KeybagSlot: Data] { state.withLock { $0.userClassSlots } }

    /// The keys of one accessibility, or the error Apple's keychain gives when they are unavailable.
    func classKeys(for accessibility: Accessibility) throws(KeychainError) -> ClassKeys {
        let (keys, lockState, hasPassphrase) = state.withLock {
            ($0.classKeys[accessibility], $0.lockState, $0.header.hasPassphrase)
        }
        if let keys { return keys }
        if accessibility == .whenPasscodeSetThisDeviceOnly && !hasPassphrase { throw .passcodeNotSet() }
        let path = location.databaseURL.path
        throw lockState == .beforeFirstUnlock
            ? .notYetUnlocked(accessibility, path: path) : .locked(accessibility, path: path)
    }

    /// Reloads the header and keys when another process changed the keybag since we last looked.
    ///
    /// When the header no longer verifies under this instance's device key and the index key no
    /// longer unwraps with it, another process rotated the device secret (``Keychain/bindToTPM(pcrs:passphrase:)``):
    /// `.keychainUnavailable` (``KeychainError/deviceSecretReplaced()``), before anything is written.
    func refresh(_ db: Database) throws {
        guard try VaultHeader.fetchGeneration(db) != header.keybagGeneration else { return }
        let deviceKey = self.deviceKey
        let current: VaultHeader
        let keybag: [KeybagSlot: Data]
        do {
            (current, keybag) = try HeaderAuthenticator.fetchVerified(db, deviceKey: deviceKey, location: location)
        } catch let error as KeychainError {
            if let stored = try? KeyRing.fetchKeybag(db),
                !KeybagSlot.indexOpens(stored, deviceKey: deviceKey, vaultID: header.vaultID)
            {
                throw KeychainError.deviceSecretReplaced()
            }
            throw error
        }
        guard current.vaultID == header.vaultID else { throw KeychainError.tamperedHeaderOfAnotherVault() }
        guard current.keybagGeneration > header.keybagGeneration else { throw KeychainError.tamperedKeybagGeneration() }
        try reload(header: current, keybag: keybag)
    }

    /// Takes a verified header and keybag. When the user-tier class keys changed under an open
    /// instance, the keys it held were rotated away and are dropped (an enrolment changes only
    /// presence slots and keeps them).
    private func reload(header: VaultHeader, keybag: [KeybagSlot: Data]) throws(KeychainError) {
        let presence = try PresenceRecords(keybag: keybag)
        let userClassSlots = Self.userClassSlots(of: keybag)
        let deviceKEK = KeyHierarchy.deviceKEK(deviceKey: deviceKey, vaultID: header.vaultID)
        var deviceKeys: [Accessibility: ClassKeys] = [:]
        for accessibility in Accessibility.allCases where KeybagSlot.classKey(accessibility).tier == .device {
            deviceKeys[accessibility] = try Self.unwrapClassKey(
                accessibility, keybag, kek: deviceKEK, vaultID: header.vaultID)
        }
        var userKeys: [Accessibility: ClassKeys]?
        if !header.hasPassphrase {
            let userKEK = KeyHierarchy.userKEK(deviceKey: deviceKey, passphraseKey: nil, vaultID: header.vaultID)
            do {
                userKeys = try Self.unwrapUserKeys(keybag, kek: userKEK, vaultID: header.vaultID)
            } catch  where error.code == .authFailed {
                // No passphrase is involved: a key that does not unwrap was altered.
                throw KeychainError.tamperedDeviceClassKey()
            }
        }
        let dropped = state.withLock { state in
            state.header = header
            state.presence = presence
            let dropped = state.userClassSlots != userClassSlots
            if dropped {
                state.classKeys = [:]
                state.lockState = .beforeFirstUnlock
                state.userClassSlots = userClassSlots
            }
            state.classKeys.merge(deviceKeys) { _, new in new }
            if let userKeys {
                state.classKeys.merge(userKeys) { _, new in new }
                state.classKeys[.whenPasscodeSetThisDeviceOnly] = nil
                state.lockState = .unlocked
            }
            return dropped
        }
        if dropped { lockEvents.signal() }
    }

    // MARK: - Transitions

    /// Unlocks with the passphrase; `.authFailed` when it is wrong (the state does not change).
    /// - Returns: the user-tier KEK it derived, for an unlock session.
    @discardableResult
    func unlock(passphrase: String, keybag: [KeybagSlot: Data]) throws(KeychainError) -> SymmetricKey {
        let userKEK = try verifiedKEK(passphrase: passphrase, keybag: keybag)
        try unlock(userKEK: userKEK, keybag: keybag)
        return userKEK
    }

    /// The user-tier KEK of `passphrase`, checked against the keybag, without unlocking:
    /// `.authFailed` when the passphrase is wrong, `.invalidState` when there is none.
    func verifiedKEK(passphrase: String, keybag: [KeybagSlot: Data]) throws(KeychainError) -> SymmetricKey {
        let header = self.header
        guard let stored = header.passphrase else {
            throw KeychainError.noPassphraseToUnlock()
        }
        let userKEK = try userKEK(
            passphrase: passphrase, salt: stored.salt, parameters: stored.parameters, header: header)
        _ = try Self.unwrapUserKeys(keybag, kek: userKEK, vaultID: header.vaultID)
        return userKEK
    }

    /// Unlocks with an already derived user-tier KEK; `.authFailed` when it does not fit.
    func unlock(userKEK: SymmetricKey, keybag: [KeybagSlot: Data]) throws(KeychainError) {
        let userKeys = try Self.unwrapUserKeys(keybag, kek: userKEK, vaultID: header.vaultID)
        state.withLock { state in
            state.classKeys.merge(userKeys) { _, new in new }
            state.lockState = .unlocked
        }
    }

    /// Drops the class A and passcode-set keys.
    func lock() throws(KeychainError) {
        try state.withLock { (state: inout State) throws(KeychainError) in
            guard state.header.hasPassphrase else {
                throw KeychainError.noPassphraseToLock()
            }
            for accessibility in Accessibility.allCases
            where [.whenUnlocked, .whenPasscodeSet].contains(accessibility.protectionClass) {
                state.classKeys[accessibility] = nil
            }
            if state.lockState == .unlocked { state.lockState = .locked }
        }
        lockEvents.signal()
    }

    /// KEK_user for a passphrase: scrypt, then HKDF with the device key.
    func userKEK(passphrase: String, salt: Data, parameters: ScryptParameters, header: VaultHeader)
        throws(KeychainError) -> SymmetricKey
    {
        let passphraseKey = try parameters.deriveKey(passphrase: passphrase, salt: salt)
        return KeyHierarchy.userKEK(deviceKey: deviceKey, passphraseKey: passphraseKey, vaultID: header.vaultID)
    }

    /// Records the unlock session this instance just wrote or removed (no key changes).
    func adopt(session: UnlockSessionRecord?) {
        state.withLock { $0.header.session = session }
    }

    /// Records presence slots this instance just wrote (an enrolment; no class key changed).
    func adopt(header: VaultHeader, presence: PresenceRecords) {
        state.withLock { state in
            state.header = header
            state.presence = presence
        }
    }

    /// Records a keybag this instance just wrote, with the user-tier keys it now holds.
    func adopt(header: VaultHeader, keybag: [KeybagSlot: Data], userKeys: [Accessibility: ClassKeys]) {
        state.withLock { state in
            state.header = header
            state.userClassSlots = Self.userClassSlots(of: keybag)
            state.classKeys = state.classKeys.filter { KeybagSlot.classKey($0.key).tier == .device }
            state.classKeys.merge(userKeys) { _, new in new }
            state.lockState = .unlocked
        }
        lockEvents.signal()
    }

    /// Takes the device secret this instance just rotated to, with the header and keybag it
    /// committed: the class keys it holds are the same keys (only their wraps changed), so the
    /// lock state does not change.
    func adopt(rotatedDeviceKey deviceKey: SymmetricKey, header: VaultHeader, keybag: [KeybagSlot: Data]) {
        deviceKeyed.withLock { $0 = DeviceKeyed(deviceKey: deviceKey, vaultID: header.vaultID) }
        state.withLock { state in
            state.header = header
            state.userClassSlots = Self.userClassSlots(of: keybag)
        }
    }

    // MARK: - Keybag rows

    private static func userClassSlots(of keybag: [KeybagSlot: Data]) -> [KeybagSlot: Data] {
        keybag.filter { $0.key.isClassKey && $0.key.tier == .user }
    }

    /// The keybag as stored (``KeybagTable/slots(in:)``).
    static func fetchKeybag(_ db: Database) throws -> [KeybagSlot: Data] {
        try KeybagTable.slots(in: db)
    }

    /// Unwraps every user-tier class key present in the keybag; `.authFailed` if the KEK is wrong.
    static func unwrapUserKeys(_ keybag: [KeybagSlot: Data], kek: SymmetricKey, vaultID: UUID) throws(KeychainError)
        -> [Accessibility: ClassKeys]
    {
        try unwrapUserClassKeys(keybag, kek: kek, vaultID: vaultID).mapValues(ClassKeys.init(classKey:))
    }

    /// The raw user-tier class keys (for rewrapping under a new KEK).
    static func unwrapUserClassKeys(_ keybag: [KeybagSlot: Data], kek: SymmetricKey, vaultID: UUID)
        throws(KeychainError) -> [Accessibility: SymmetricKey]
    {
        var keys: [Accessibility: SymmetricKey] = [:]
        for accessibility in Accessibility.allCases where KeybagSlot.classKey(accessibility).tier == .user {
            guard let wrapped = keybag[.classKey(accessibility)] else { continue }
            do {
                keys[accessibility] = try KeybagSlot.classKey(accessibility).unwrap(
                    wrapped, with: kek, vaultID: vaultID)
            } catch {
                throw KeychainError.wrongPassphraseDuringRekeying()
            }
        }
        guard keys[.afterFirstUnlock] != nil else { throw KeychainError.tamperedMissingClassCKey() }
        return keys
    }

    private static func unwrapClassKey(
        _ accessibility: Accessibility, _ keybag: [KeybagSlot: Data], kek: SymmetricKey, vaultID: UUID
    ) throws(KeychainError) -> ClassKeys {
        guard let wrapped = keybag[.classKey(accessibility)] else {
            throw KeychainError.tamperedMissingClassKey(accessibility: accessibility.constantName)
        }
        do {
            return ClassKeys(
                classKey: try KeybagSlot.classKey(accessibility).unwrap(wrapped, with: kek, vaultID: vaultID))
        } catch {
            throw KeychainError.tamperedClassKey(accessibility: accessibility.constantName)
        }
    }
}
