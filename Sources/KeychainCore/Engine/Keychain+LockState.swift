import Crypto
import Foundation
import GRDB

extension Keychain {
    /// Unlocks the keychain with its passphrase: class A and passcode-set items become available.
    ///
    /// - Throws: `.authFailed` for a wrong passphrase (nothing changes, try again);
    ///   `.invalidState` when no passphrase is set (such a keychain is always unlocked).
    public func unlock(passphrase: String) throws(KeychainError) {
        let keybag = try read { db in try KeyStore.fetchKeybag(db) }
        try keys.unlock(passphrase: passphrase, keybag: keybag)
        logger.info("keychain unlocked")
    }

    /// Locks the keychain: class A (`whenUnlocked…`) and passcode-set items become unavailable
    /// (`.interactionNotAllowed`) until the next ``unlock(passphrase:)``; `afterFirstUnlock` and
    /// `always` items stay readable. Deleting still works. An unlock session
    /// (``unlock(passphrase:keepingSessionFor:)``) ends too; other processes that are already
    /// unlocked keep their own state.
    ///
    /// - Throws: `.invalidState` when no passphrase is set: like a device without a passcode,
    ///   such a keychain cannot be locked.
    public func lock() throws(KeychainError) {
        try keys.lock()
        endUnlockSession()
        checkpoint()
        logger.info("keychain locked")
    }

    /// Sets the first passphrase. The keychain stays unlocked. Passcode-set items can be added from now on.
    ///
    /// Only the class keys are rewrapped (O(1) in the number of items); the passphrase is
    /// stretched with scrypt as ``KeychainOptions/passphraseHardening`` says.
    ///
    /// - Throws: `.invalidState` when a passphrase is already set (use ``changePassphrase(from:to:)``),
    ///   `.invalidParameter` for an empty passphrase.
    public func setPassphrase(_ passphrase: String) throws(KeychainError) {
        guard !passphrase.isEmpty else { throw KeychainError(.invalidParameter, "A passphrase cannot be empty.") }
        guard !hasPassphrase else {
            throw KeychainError(.invalidState, "The keychain already has a passphrase; change it with changePassphrase(from:to:).")
        }
        var classKeys = try Self.rawUserKeys(keys: keys, passphrase: nil, keybag: read { db in try KeyStore.fetchKeybag(db) })
        classKeys[.whenPasscodeSetThisDeviceOnly] = SymmetricKey(size: .bits256)
        try rewrapUserTier(classKeys, newPassphrase: passphrase, expecting: keys.header)
        logger.info("keychain passphrase set")
    }

    /// Replaces the passphrase. Items keep their keys; only the class keys are rewrapped.
    ///
    /// - Throws: `.authFailed` when `current` is wrong (nothing changes).
    public func changePassphrase(from current: String, to new: String) throws(KeychainError) {
        guard !new.isEmpty else { throw KeychainError(.invalidParameter, "A passphrase cannot be empty.") }
        let header = keys.header
        let classKeys = try Self.rawUserKeys(keys: keys, passphrase: current, keybag: read { db in try KeyStore.fetchKeybag(db) })
        try rewrapUserTier(classKeys, newPassphrase: new, expecting: header)
        logger.info("keychain passphrase changed")
    }

    /// Removes the passphrase, as removing a device passcode does: the keychain becomes always
    /// unlocked, and every `whenPasscodeSetThisDeviceOnly` item is destroyed with its class key.
    ///
    /// - Returns: how many passcode-set items were destroyed.
    /// - Throws: `.authFailed` when `current` is wrong (nothing changes).
    @discardableResult
    public func removePassphrase(current: String) throws(KeychainError) -> Int {
        let header = keys.header
        var classKeys = try Self.rawUserKeys(keys: keys, passphrase: current, keybag: read { db in try KeyStore.fetchKeybag(db) })
        classKeys[.whenPasscodeSetThisDeviceOnly] = nil
        let destroyed = try rewrapUserTier(classKeys, newPassphrase: nil, expecting: header)
        checkpoint()
        logger.info("keychain passphrase removed", metadata: ["destroyedItems": "\(destroyed)"])
        return destroyed
    }

    /// The user-tier class keys, unwrapped with the given passphrase (or none).
    private static func rawUserKeys(keys: KeyStore, passphrase: String?, keybag: [KeybagSlot: Data]) throws(KeychainError) -> [Accessibility: SymmetricKey] {
        let header = keys.header
        let kek: SymmetricKey
        if let passphrase, let stored = header.passphrase {
            kek = try keys.userKEK(passphrase: passphrase, salt: stored.salt, parameters: stored.parameters, header: header)
        } else if passphrase == nil && !header.hasPassphrase {
            kek = KeyHierarchy.userKEK(deviceKey: keys.deviceKey, passphraseKey: nil, vaultID: header.vaultID)
        } else {
            throw KeychainError(.invalidState, "The keychain has no passphrase; set one with setPassphrase(_:).")
        }
        return try KeyStore.unwrapUserClassKeys(keybag, kek: kek, vaultID: header.vaultID)
    }

    /// Wraps the user-tier class keys under the KEK of `newPassphrase` (or of no passphrase) and
    /// records the new parameters, in one transaction. Without a passphrase the passcode-set slot
    /// and its items are deleted. Fails with `.invalidState` if another process changed the
    /// keybag since `expecting` was read.
    @discardableResult
    private func rewrapUserTier(_ classKeys: [Accessibility: SymmetricKey], newPassphrase: String?, expecting: VaultHeader) throws(KeychainError) -> Int {
        var header = expecting
        header.keybagGeneration += 1
        var kek = KeyHierarchy.userKEK(deviceKey: keys.deviceKey, passphraseKey: nil, vaultID: header.vaultID)
        header.passphrase = nil
        if let newPassphrase {
            let salt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
            let parameters = try options.passphraseHardening.parameters()
            kek = try keys.userKEK(passphrase: newPassphrase, salt: salt, parameters: parameters, header: header)
            header.passphrase = (salt, parameters)
        }
        var keybag: [KeybagSlot: Data] = [:]
        do {
            for (accessibility, key) in classKeys {
                let slot = KeybagSlot.classKey(accessibility)
                keybag[slot] = try slot.wrap(key, with: kek, vaultID: header.vaultID)
            }
        } catch {
            throw KeychainError(.outOfMemory, "Wrapping the class keys failed: \(error).")
        }
        let destroyed = try write { db -> Int in
            guard try VaultHeader.fetch(db) == expecting else {
                throw KeychainError(.invalidState, "Another process changed the keychain's passphrase meanwhile; nothing was changed. Retry.")
            }
            var destroyed = 0
            if newPassphrase == nil {
                destroyed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items WHERE accessibility = ?",
                                             arguments: [Accessibility.whenPasscodeSetThisDeviceOnly.rawValue]) ?? 0
                let doomed = try Int64.fetchAll(db, sql: "SELECT id FROM items WHERE accessibility = ?", arguments: [Accessibility.whenPasscodeSetThisDeviceOnly.rawValue])
                try self.recordRemoval(of: doomed, db)
                try db.execute(sql: "DELETE FROM items WHERE accessibility = ?", arguments: [Accessibility.whenPasscodeSetThisDeviceOnly.rawValue])
                try db.execute(sql: "DELETE FROM keybag WHERE slot = ?", arguments: [KeybagSlot.classKey(.whenPasscodeSetThisDeviceOnly).name])
            }
            try Self.writeKeybag(keybag, db)
            try header.updateKeybagState(db)
            return destroyed
        }
        keys.adopt(header: header, userKeys: classKeys.mapValues(ClassKeys.init(classKey:)))
        endUnlockSession()
        return destroyed
    }
}
