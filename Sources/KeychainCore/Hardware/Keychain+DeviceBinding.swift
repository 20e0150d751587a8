import Crypto
import Foundation

extension Keychain {
    /// What keeps this keychain's device secret: a key file, or the TPM that sealed it.
    ///
    /// Read from the device key file each time (another process may have bound or unbound the
    /// keychain since it was opened); the binding found at opening when the file cannot be read.
    public var deviceBinding: DeviceBinding {
        if let current = try? DeviceKeyFile.binding(at: location.deviceKeyURL, device: options.tpm) {
            binding.withLock { $0 = current }
            return current
        }
        return binding.withLock { $0 }
    }

    /// Binds the keychain to ``KeychainOptions/tpm`` (`keychain bind --tpm`) with a new device
    /// secret: from now on the keychain's files open only on this machine, and token keys
    /// generated from now on live in the TPM.
    ///
    /// Every binding — of a keychain with a key file, or again of a bound one, for example with
    /// other PCRs — replaces the device secret D with a new random one, sealed by the TPM (and
    /// unsealed once to check, so a binding that does not open is never written), and rewrites
    /// everything D keyed: the keybag's wraps, the header MAC, every row seal, the state digest
    /// and the format anchor; the unlock session ends. Items, their keys and their blind
    /// indexes stay as they are, so the time it takes grows with the number of items (about one
    /// HMAC and two small queries per item). The database transaction is the commit point: a
    /// process killed at any point leaves a keychain that opens with the old binding or the new
    /// one, finished or rolled back by the next opening (see <doc:HardwareBinding>). Other
    /// instances that had the keychain open fail with `.keychainUnavailable` from their next
    /// operation on (open the keychain again); this one goes on, in the lock state it had.
    ///
    /// ```swift
    /// let keychain = try Keychain()
    /// try keychain.bindToTPM()              // or bindToTPM(pcrs: [7]): also tie it to the Secure Boot state
    /// ```
    ///
    /// - Parameters:
    ///   - pcrs: PCRs (0–23, SHA-256 bank) whose current values the secret is sealed to.
    ///     Empty by default. With PCR 7, a change of the Secure Boot configuration (keys, shim,
    ///     firmware settings) makes the TPM refuse the secret until the old configuration is booted
    ///     again: bind without PCRs before such a change and with them after it, and keep a backup.
    ///     The TPM must keep SHA-256 values for those PCRs (`.invalidParameter` otherwise).
    ///   - passphrase: the keychain's passphrase, required when it has one (the keys it protects
    ///     are wrapped under a key derived from the device secret and the passphrase); `nil` for a
    ///     keychain without one.
    /// - Important: a copy of the device key file taken before binding (the secret in clear), or
    ///   a sealed one from an earlier binding (for example before a PCR policy), opens nothing in
    ///   the keychain afterwards. It still opens a copy of the whole keychain (database included)
    ///   made before the binding: such a copy is an old keychain, outside what binding protects.
    ///   Binding also replaces every class key but the `always` one (a second transaction, as a
    ///   passphrase change with the same passphrase), so with that copy's keybag the old file
    ///   opens, of what is written afterwards, only `always` items. Until the database file is
    ///   checkpointed (done right after binding when no reader holds it back), its write-ahead
    ///   log belongs to that copy too. Keychains that share the device key file are refused.
    /// - Throws: `.keychainUnavailable` when there is no TPM or it fails, `.invalidParameter` for
    ///   a PCR outside 0–23, `.authFailed` for a wrong passphrase, `.invalidState` for a missing
    ///   passphrase (or one given to a keychain without one) or another process's change of the
    ///   keys meanwhile. Nothing changes then.
    public func bindToTPM(pcrs: [Int] = [], passphrase: String? = nil) throws(KeychainError) {
        try requireWritable()
        guard let device = options.tpm else {
            throw KeychainError.noTPMConfigured()
        }
        guard pcrs.allSatisfy({ (0..<24).contains($0) }) else {
            throw KeychainError.invalidPCRs(
                invalidPCRs: pcrs.filter { !(0..<24).contains($0) }.map(String.init).joined(separator: ", "))
        }
        let pcrs = Array(Set(pcrs)).sorted()
        let classKeys = try rotateDeviceSecret(sealingWith: (device, pcrs), passphrase: passphrase)
        // The class keys themselves are replaced too (as a passphrase change replaces them, with
        // the same passphrase): the old device key file with a keybag copied before the binding
        // then opens nothing written afterwards. `always` keys are device tier and stay.
        try rotateUserTier(from: classKeys, newPassphrase: passphrase, expecting: keys.header)
        logger.notice(
            "keychain bound to the TPM with a new device secret and new class keys",
            metadata: ["tpm": "\(device.tcti)", "pcrs": "\(pcrs)"])
    }

    /// Takes the device secret out of the TPM into a key file again (`keychain unbind`), to move
    /// the keychain to another machine: copy the data and state directories there, then bind it
    /// to that machine's TPM.
    ///
    /// The passphrase is required, and so is having one: once unbound, a copy of the files opens
    /// anywhere, and the passphrase is what then protects the `whenUnlocked` items.
    ///
    /// - Throws: `.invalidState` when the keychain has no passphrase or is not bound,
    ///   `.authFailed` for a wrong passphrase (nothing changes).
    public func unbindFromTPM(passphrase: String) throws(KeychainError) {
        try requireWritable()
        guard case .tpm = deviceBinding else {
            throw KeychainError.notBoundToTPM()
        }
        guard hasPassphrase else {
            throw KeychainError.unbindingNeedsPassphrase()
        }
        var verified = try Self.rawUserKeys(
            keys: keys, passphrase: passphrase, keybag: read { db in try KeyRing.fetchKeybag(db) })
        verified.removeAll()
        try rewriteDeviceKeyFile(sealingWith: nil)
        logger.notice("keychain unbound from the TPM: its device secret is in a key file again")
    }

    /// Rewrites the device key file under the keychain directory's lock (the lock opening and
    /// rotating take), after checking that the secret this instance holds is still the
    /// keychain's: one rotated by another process is never written back.
    private func rewriteDeviceKeyFile(sealingWith tpm: (device: TPMDevice, pcrs: [Int])?) throws(KeychainError) {
        let directory = location.databaseURL.deletingLastPathComponent()
        try PlatformIO.withExclusiveLock(onDirectory: directory, waitingAtMost: max(options.busyTimeout, .seconds(10)))
        { () throws(KeychainError) in
            try DeviceSecretRotationFiles.settleInterrupted(
                location: location, database: database, options: options, isNew: false)
            guard
                try Self.perform(
                    path: databasePath,
                    {
                        try database.read { db in try HeaderAuthenticator.storedCodeHolds(db, deviceKey: keys.deviceKey)
                        }
                    }) == true
            else {
                throw KeychainError.deviceSecretReplaced()
            }
            try DeviceKeyFile.rewrite(at: location.deviceKeyURL, key: keys.deviceKey, sealingWith: tpm)
        }
        binding.withLock { $0 = tpm.map { .tpm(device: $0.device, pcrs: $0.pcrs) } ?? .keyFile }
    }
}
