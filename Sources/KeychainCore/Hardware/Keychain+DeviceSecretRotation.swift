import Crypto
import Foundation
import GRDB

extension Keychain {
    /// Replaces the device secret D with a new random D', kept in clear or sealed by `tpm`: the
    /// step behind ``bindToTPM(pcrs:passphrase:)``, which every binding and rebinding takes.
    ///
    /// Everything D keys is rewritten under D' (``DeviceSecretRekeying``), the unlock session is
    /// ended (its record and tickets are derived from D), and the device key file and format
    /// anchor are replaced — crash-safely across the two files, as ``DeviceSecretRotationFiles``
    /// describes: the database transaction is the commit point, and the directory lock that
    /// opening takes is held throughout, so no process opens the keychain halfway. Afterwards the
    /// previous device key file, clear or sealed, opens nothing in the database (a copy of the
    /// database from before still opens with it). Other instances that had the keychain open
    /// fail with ``KeychainError/deviceSecretReplaced()`` from their next operation on and write
    /// nothing; this instance goes on with D' in the lock state it had. An operation of this
    /// instance running concurrently with the rotation may fail in the same way once.
    ///
    /// - Parameter passphrase: the keychain's passphrase, required when it has one (the
    ///   user-tier KEK derives from D and the passphrase); `nil` otherwise.
    /// - Throws: `.authFailed` for a wrong passphrase, `.invalidState` for a passphrase missing
    ///   or given when there is none, or another process's keybag change meanwhile; what sealing
    ///   by the TPM throws. Nothing changes then.
    ///
    /// - Returns: the user-tier class keys, as the passphrase check unwrapped them (they are the
    ///   same keys under D', only rewrapped), for a rotation of the class keys that follows.
    @discardableResult
    func rotateDeviceSecret(sealingWith tpm: (device: TPMDevice, pcrs: [Int])?, passphrase: String?)
        throws(KeychainError) -> [Accessibility: SymmetricKey]
    {
        try requireWritable()
        let expected = keys.header
        let (passphraseKey, userClassKeys) = try checkedPassphraseKey(passphrase, header: expected)
        let newKey = SymmetricKey(size: .bits256)
        // Sealed, and unsealed once to check, before anything is locked or written.
        let sealed = try tpm.map { tpm throws(KeychainError) in
            try SealedDeviceSecret.seal(newKey, on: tpm.device, pcrs: tpm.pcrs)
        }
        let files = DeviceSecretRotationFiles(location: location)
        let others = files.anchorsOfOtherKeychains(than: expected.vaultID)
        guard others.isEmpty else {
            throw KeychainError.deviceKeyFileShared(
                deviceKeyFile: location.deviceKeyURL.path, others: others.joined(separator: ", "))
        }
        let directory = location.databaseURL.deletingLastPathComponent()
        let started = ContinuousClock.now
        let (header, _, outcome) = try PlatformIO.withExclusiveLock(
            onDirectory: directory, waitingAtMost: max(options.busyTimeout, .seconds(10))
        ) {
            () throws(KeychainError) -> (VaultHeader, [KeybagSlot: Data], DeviceSecretRekeying.Outcome) in
            // What a process killed in a rotation left (this instance may predate it).
            try DeviceSecretRotationFiles.settleInterrupted(
                location: location, database: database, options: options, isNew: false)
            try DeviceKeyFile.writeNew(at: files.pendingKeyURL, key: newKey, sealed: sealed)
            let committed: (VaultHeader, [KeybagSlot: Data], DeviceSecretRekeying.Outcome)
            do throws(KeychainError) {
                committed = try write { db in
                    try self.rekey(db, to: newKey, passphraseKey: passphraseKey, expecting: expected, files: files)
                }
            } catch {
                files.rollBack()
                throw error
            }
            // Committed: from here on this instance holds D', whatever happens to the renames
            // (an opener finishes them).
            keys.adopt(rotatedDeviceKey: newKey, header: committed.0, keybag: committed.1)
            try files.finish(vaultID: committed.0.vaultID)
            return committed
        }
        binding.withLock { $0 = tpm.map { .tpm(device: $0.device, pcrs: $0.pcrs) } ?? .keyFile }
        removeUnlockTicket()
        // The old keybag and seals stay in the database file until the write-ahead log is
        // checkpointed into it; do it now, waiting for readers up to the busy timeout.
        do { try checkpointNow() } catch {
            logger.warning(
                "the device secret was rotated, but the keychain file could not be checkpointed yet: until a later write checkpoints it, a copy of the main file alone (without its -wal) still opens with the previous device key file",
                metadata: ["error": "\(error.code)"])
        }
        logger.notice(
            "device secret rotated",
            metadata: [
                "generation": "\(header.keybagGeneration)", "resealedRows": "\(outcome.resealed)",
                "rowsLeftAsTheyWere": "\(outcome.leftAsTheyWere)", "duration": "\(ContinuousClock.now - started)"
            ])
        return userClassKeys
    }

    /// K_P for the keychain's passphrase (`nil` without a passphrase), checked against the
    /// keybag, and the user-tier class keys it unwrapped.
    private func checkedPassphraseKey(_ passphrase: String?, header: VaultHeader) throws(KeychainError) -> (
        SymmetricKey?, [Accessibility: SymmetricKey]
    ) {
        let keybag = try read { db in try KeyRing.fetchKeybag(db) }
        guard let stored = header.passphrase else {
            guard passphrase == nil else {
                throw KeychainError.bindingWithUnneededPassphrase()
            }
            let kek = KeyHierarchy.userKEK(deviceKey: keys.deviceKey, passphraseKey: nil, vaultID: header.vaultID)
            return (nil, try KeyRing.unwrapUserClassKeys(keybag, kek: kek, vaultID: header.vaultID))
        }
        guard let passphrase else {
            throw KeychainError.bindingNeedsPassphrase()
        }
        let key = try stored.parameters.deriveKey(passphrase: passphrase, salt: stored.salt)
        let kek = KeyHierarchy.userKEK(deviceKey: keys.deviceKey, passphraseKey: key, vaultID: header.vaultID)
        return (key, try KeyRing.unwrapUserClassKeys(keybag, kek: kek, vaultID: header.vaultID))
    }

    /// The rotation's database transaction: the header must still be the one the passphrase was
    /// checked against; the keybag, rows and state record are rewritten under D', the header gets
    /// a new generation (other instances notice), no session and its MAC under D', and the
    /// anchor under D' is written as the pending anchor before the transaction commits.
    private func rekey(
        _ db: Database, to newKey: SymmetricKey, passphraseKey: SymmetricKey?, expecting: VaultHeader,
        files: DeviceSecretRotationFiles
    ) throws -> (VaultHeader, [KeybagSlot: Data], DeviceSecretRekeying.Outcome) {
        let oldKey = keys.deviceKey
        var (header, keybag) = try HeaderAuthenticator.fetchVerified(db, deviceKey: oldKey, location: location)
        guard header == expecting else {
            throw KeychainError.passphraseOrKeysChangedConcurrently()
        }
        guard let anchor = try FormatAnchor.read(for: location, vaultID: header.vaultID, deviceKey: oldKey) else {
            throw KeychainError.tamperedFormatAnchorMissing()
        }
        let rekeying = DeviceSecretRekeying(
            old: KeyRing.DeviceKeyed(deviceKey: oldKey, vaultID: header.vaultID),
            new: KeyRing.DeviceKeyed(deviceKey: newKey, vaultID: header.vaultID),
            vaultID: header.vaultID, passphraseKey: passphraseKey)
        keybag = try rekeying.rewrap(keybag)
        try KeybagTable.write(in: db, keybag)
        let outcome = try rekeying.resealRowsAndState(db)
        header.keybagGeneration += 1
        header.session = nil
        try header.updateKeybagState(db)
        let authenticator = HeaderAuthenticator(deviceKey: newKey, vaultID: header.vaultID)
        try authenticator.store(header, keybag: keybag, db)
        try FormatAnchor(
            vaultID: header.vaultID, formatVersion: anchor.formatVersion,
            headerMACs: [authenticator.code(for: header, keybag: keybag)]
        )
        .save(at: files.pendingAnchorURL(vaultID: header.vaultID), deviceKey: newKey, replacingExisting: false)
        return (header, keybag, outcome)
    }
}
