import Crypto
import Foundation
import GRDB

extension Keychain {
    /// Unlocks the keychain with its passphrase: class A and passcode-set items become available.
    ///
    /// - Throws: `.authFailed` for a wrong passphrase (nothing changes, try again);
    ///   `.invalidState` when no passphrase is set (such a keychain is always unlocked).
    public func unlock(passphrase: String) throws(KeychainError) {
        let keybag = try read { db in try KeyRing.fetchKeybag(db) }
        do {
            try keys.unlock(passphrase: passphrase, keybag: keybag)
        } catch  where error.code == .authFailed {
            throw KeychainError.wrongPassphrase(databasePath: databasePath)
        }
        logger.info("keychain unlocked")
    }

    /// Locks the keychain: class A (`whenUnlocked…`) and passcode-set items become unavailable
    /// (`.interactionNotAllowed`) until the next ``unlock(passphrase:)-9dovi``; `afterFirstUnlock` and
    /// `always` items stay readable. Deleting still works. The unlock session
    /// (``unlock(passphrase:keepingSessionFor:)``) ends for every process and every copy of its
    /// ticket, whatever environment this runs in; other processes that are already unlocked keep
    /// their own state.
    ///
    /// - Throws: `.invalidState` when no passphrase is set: like a device without a passcode,
    ///   such a keychain cannot be locked.
    public func lock() throws(KeychainError) {
        try requireWritable()
        try keys.lock()
        try endUnlockSession()
        checkpoint()
        logger.info("keychain locked")
    }

    /// Sets the first passphrase. The keychain stays unlocked. Passcode-set items can be added from now on.
    ///
    /// New class keys are generated for every class the passphrase protects, and every item of
    /// those classes is moved to them (its two item keys rewrapped, in the same transaction), so a
    /// copy of the keychain from before the passphrase — with the device key — opens nothing added
    /// or changed afterwards. The passphrase is stretched with scrypt as
    /// ``KeychainOptions/passphraseHardening`` says. Other open instances must unlock again.
    ///
    /// - Throws: `.invalidState` when a passphrase is already set (use ``changePassphrase(from:to:)``),
    ///   `.invalidParameter` for an empty passphrase.
    public func setPassphrase(_ passphrase: String) throws(KeychainError) {
        try requireWritable()
        guard !passphrase.isEmpty else { throw KeychainError.emptyPassphrase() }
        guard !hasPassphrase else {
            throw KeychainError.passphraseAlreadySet()
        }
        let header = keys.header
        let classKeys = try Self.rawUserKeys(
            keys: keys, passphrase: nil, keybag: read { db in try KeyRing.fetchKeybag(db) })
        try rotateUserTier(from: classKeys, newPassphrase: passphrase, expecting: header)
        logger.info("keychain passphrase set")
    }

    /// Replaces the passphrase, with new class keys (see ``setPassphrase(_:)``): the old
    /// passphrase, an old keybag or an old unlock ticket opens nothing written or rewrapped after
    /// the change, which is how to recover from a passphrase that leaked.
    ///
    /// - Throws: `.authFailed` when `current` is wrong (nothing changes).
    public func changePassphrase(from current: String, to new: String) throws(KeychainError) {
        try requireWritable()
        guard !new.isEmpty else { throw KeychainError.emptyPassphrase() }
        let header = keys.header
        let classKeys = try Self.rawUserKeys(
            keys: keys, passphrase: current, keybag: read { db in try KeyRing.fetchKeybag(db) })
        try rotateUserTier(from: classKeys, newPassphrase: new, expecting: header)
        logger.info("keychain passphrase changed")
    }

    /// Removes the passphrase, as removing a device passcode does: the keychain becomes always
    /// unlocked, and every `whenPasscodeSetThisDeviceOnly` item is destroyed with its class key.
    /// The other classes get new class keys, as a passphrase change gives them.
    ///
    /// - Returns: how many passcode-set items were destroyed.
    /// - Throws: `.authFailed` when `current` is wrong (nothing changes).
    @discardableResult
    public func removePassphrase(current: String) throws(KeychainError) -> Int {
        try requireWritable()
        let header = keys.header
        let classKeys = try Self.rawUserKeys(
            keys: keys, passphrase: current, keybag: read { db in try KeyRing.fetchKeybag(db) })
        let destroyed = try rotateUserTier(from: classKeys, newPassphrase: nil, expecting: header)
        checkpoint()
        logger.info("keychain passphrase removed", metadata: ["destroyedItems": "\(destroyed)"])
        return destroyed
    }

    /// The user-tier class keys, unwrapped with the given passphrase (or none).
    static func rawUserKeys(keys: KeyRing, passphrase: String?, keybag: [KeybagSlot: Data]) throws(KeychainError)
        -> [Accessibility: SymmetricKey]
    {
        let header = keys.header
        let kek: SymmetricKey
        if let passphrase, let stored = header.passphrase {
            kek = try keys.userKEK(
                passphrase: passphrase, salt: stored.salt, parameters: stored.parameters, header: header)
        } else if passphrase == nil && !header.hasPassphrase {
            kek = KeyHierarchy.userKEK(deviceKey: keys.deviceKey, passphraseKey: nil, vaultID: header.vaultID)
        } else {
            throw KeychainError.noPassphraseSet()
        }
        return try KeyRing.unwrapUserClassKeys(keybag, kek: kek, vaultID: header.vaultID)
    }

    /// Replaces every user-tier class key with a new random one wrapped under the KEK of
    /// `newPassphrase` (or of no passphrase), moves every item of those classes to the new keys
    /// (``ItemKeyRotation``), records the new parameters, bumps the keybag generation, ends the
    /// unlock session and updates the header MAC — all in one transaction, so a crash leaves
    /// either the old passphrase working or the new one. Without a passphrase the passcode-set
    /// slot and its items are deleted. Fails with `.invalidState` if another process changed the
    /// keybag since `expecting` was read.
    @discardableResult
    func rotateUserTier(from oldKeys: [Accessibility: SymmetricKey], newPassphrase: String?, expecting: VaultHeader)
        throws(KeychainError) -> Int
    {
        let passphrase = try newPassphrase.map { passphrase throws(KeychainError) in
            try NewPassphrase(passphrase, hardening: options.passphraseHardening)
        }
        var header = expecting
        header.keybagGeneration += 1
        header.session = nil
        header.passphrase = passphrase.map { ($0.salt, $0.parameters) }
        let kek = KeyHierarchy.userKEK(
            deviceKey: keys.deviceKey, passphraseKey: passphrase?.key, vaultID: header.vaultID)
        var newKeys: [Accessibility: SymmetricKey] = [:]
        for accessibility in Accessibility.allCases where KeybagSlot.classKey(accessibility).tier == .user {
            if accessibility == .whenPasscodeSetThisDeviceOnly && passphrase == nil { continue }
            newKeys[accessibility] = SymmetricKey(size: .bits256)
        }
        var wrapped: [KeybagSlot: Data] = [:]
        do {
            for (accessibility, key) in newKeys {
                let slot = KeybagSlot.classKey(accessibility)
                wrapped[slot] = try slot.wrap(key, with: kek, vaultID: header.vaultID)
            }
        } catch {
            throw KeychainError.classKeyWrappingFailed(error: error)
        }
        let rotation = ItemKeyRotation(
            old: oldKeys.mapValues(ClassKeys.init(classKey:)), new: newKeys.mapValues(ClassKeys.init(classKey:)))
        let (destroyed, outcome, keybag) = try write { db -> (Int, ItemKeyRotation.Outcome, [KeybagSlot: Data]) in
            guard
                try HeaderAuthenticator.fetchVerified(db, deviceKey: self.keys.deviceKey, location: self.location).0
                    == expecting
            else {
                throw KeychainError.passphraseChangedConcurrently()
            }
            var destroyed = 0
            if passphrase == nil {
                // Each row is proved by its seal first: its clear accessibility column alone must
                // never decide that an item is destroyed.
                let doomed = try ItemTable.rows(in: db, accessibility: .whenPasscodeSetThisDeviceOnly).map { raw in
                    let row = try ItemRow(row: raw)
                    guard let rowID = row.rowID, try self.keys.rowSealer.isValid(row, db) else {
                        throw KeychainError.tamperedPasscodeSetRow()
                    }
                    return rowID
                }
                destroyed = doomed.count
                try self.recordRemoval(of: doomed, db)
                try ItemTable.delete(in: db, accessibility: .whenPasscodeSetThisDeviceOnly)
                try KeybagTable.delete(in: db, slot: .classKey(.whenPasscodeSetThisDeviceOnly))
            }
            let outcome = try rotation.run(db, stateDigest: self.keys.stateDigest)
            try KeybagTable.write(in: db, wrapped)
            try header.updateKeybagState(db)
            let keybag = try KeyRing.fetchKeybag(db)
            try HeaderAuthenticator.storeChange(
                header, keybag: keybag, location: self.location, deviceKey: self.keys.deviceKey, db)
            return (destroyed, outcome, keybag)
        }
        keys.adopt(header: header, keybag: keybag, userKeys: newKeys.mapValues(ClassKeys.init(classKey:)))
        settleAnchor()
        // The old keybag and item keys stay in the database file until the write-ahead log is
        // checkpointed into it; do it now, waiting for readers up to the busy timeout.
        do { try checkpointNow() } catch {
            logger.warning(
                "the passphrase changed, but the keychain file could not be checkpointed yet: until a later write checkpoints it, a copy of the main file alone (without its -wal) still opens with the previous passphrase",
                metadata: ["error": "\(error.code)"])
        }
        removeUnlockTicket()
        logger.info(
            "class keys rotated",
            metadata: ["items": "\(outcome.rewrapped)", "damagedItemsLeftAsTheyWere": "\(outcome.damaged)"])
        return destroyed
    }
}

extension Keychain {
    /// Phase two of a header change (see ``FormatAnchor``): once the change committed, the
    /// anchor keeps only the header MAC the file carries. A failure leaves the anchor accepting
    /// the previous header too until the next open settles it; it is logged.
    func settleAnchor() {
        for attempt in 1...3 {
            do {
                _ = try write { db in
                    try HeaderAuthenticator.settleAnchor(db, location: self.location, deviceKey: self.keys.deviceKey)
                }
                return
            } catch  where attempt < 3 {
                continue
            } catch {
                logger.warning(
                    "the format anchor could not be settled; until the next open or change settles it, the previous header is accepted too",
                    metadata: ["error": "\(error.code)"])
            }
        }
    }
}
