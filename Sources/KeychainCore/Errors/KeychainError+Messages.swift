// Every message of a KeychainError that KeychainCore raises, in one place: the wording is the
// library's account of what went wrong and what to do, reviewed here. Factories take only what a
// message may name (paths, counts, attribute and class names, modes, user ids, errors of
// lower layers), never item data, passphrases or keys.

extension KeychainError {
    // MARK: - Shared

    /// `.itemNotFound`: No item matches the query.
    static func itemNotFound() -> KeychainError {
        KeychainError(.itemNotFound, "No keychain item matches the query.")
    }

    /// `.interactionNotAllowed`: The keychain at `path` is locked and `accessibility` needs it
    /// unlocked.
    static func locked(_ accessibility: Accessibility, path: String) -> KeychainError {
        KeychainError(
            .interactionNotAllowed,
            "The keychain at \(path) is locked and the item's protection (\(accessibility.constantName)) needs it unlocked. Unlock it (`keychain unlock`, or Keychain.unlock in code) and retry, or store items read in the background with an afterFirstUnlock accessibility."
        )
    }

    /// `.interactionNotAllowed`: The keychain at `path` was not unlocked since it was opened.
    static func notYetUnlocked(_ accessibility: Accessibility, path: String) -> KeychainError {
        KeychainError(
            .interactionNotAllowed,
            "The keychain at \(path) has not been unlocked since it was opened, so items with protection \(accessibility.constantName) are unavailable. Unlock it (`keychain unlock`, or Keychain.unlock in code) and retry."
        )
    }

    /// `.authFailed`: A passcode-set item, and the keychain has no passphrase.
    static func passcodeNotSet() -> KeychainError {
        KeychainError(
            .authFailed,
            "Items with kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly need a keychain passphrase, and none is set. Set one (`keychain set-passphrase`, or Keychain.setPassphrase in code) or choose another accessibility."
        )
    }

    /// The device key file is not the one this keychain was created with.
    static func wrongDeviceKey() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The device key does not belong to this keychain (the keybag does not open with it). The keychain was created with another device key file: restore that file, or move the keychain aside to start a new one."
        )
    }

    /// Another process rotated the device secret (bound or rebound the keychain) after this
    /// instance opened it: its keys open nothing any more, and it writes nothing.
    static func deviceSecretReplaced() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain's device secret was replaced after this instance opened it (the keychain was bound or rebound to a TPM, `keychain bind --tpm`), so this instance can neither read nor write it any more; nothing was changed. Open the keychain again."
        )
    }

    /// `.integrityViolation`: The keychain file was modified; `what` says where. The
    /// `tampered…` factories below give the particulars.
    static func tampered(_ what: String) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "Integrity check failed: \(what). The keychain file was modified outside this library or is corrupted; the item was not returned and nothing was changed. Restore the keychain from a backup."
        )
    }

    // MARK: - Access

    /// `.authFailed`: The authentication context was invalidated; create a new one.
    package static func authenticationContextInvalidated() -> KeychainError {
        KeychainError(.authFailed, "The authentication context was invalidated; create a new one.")
    }

    /// `.authFailed`: No authenticator is installed, so the user cannot be authenticated.
    package static func noAuthenticatorInstalled() -> KeychainError {
        KeychainError(
            .authFailed,
            "No authenticator is installed, so the user cannot be authenticated. Set Keychain.authenticator.")
    }

    /// `.authFailed`: None of the requested authentication methods (…) is available.
    package static func noRequestedMethodAvailable(methods: Set<AuthenticationMethod>) -> KeychainError {
        KeychainError(
            .authFailed,
            "None of the requested authentication methods (\(methods.map(\.rawValue).sorted().joined(separator: ", "))) is available."
        )
    }

    /// `.invalidParameter`: The access-control attribute (accc) is not an access policy; set it
    /// with NewItem.protected(by:).
    package static func accessControlAttributeNotAPolicy() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The access-control attribute (accc) is not an access policy; set it with NewItem.protected(by:).")
    }

    /// `.unimplemented`: The access-control flags companion and applicationPassword are not
    /// available on this platform; use userPresence, biometry or devicePasscode constraints.
    package static func companionOrApplicationPasswordUnsupported() -> KeychainError {
        KeychainError(
            .unimplemented,
            "The access-control flags companion and applicationPassword are not available on this platform; use userPresence, biometry or devicePasscode constraints."
        )
    }

    /// `.invalidParameter`: privateKeyUsage applies to private keys generated inside the keychain
    /// (kSecAttrTokenIDSecureEnclave); other items are protected when their data is read.
    package static func privateKeyUsageOnOtherItem() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "privateKeyUsage applies to private keys generated inside the keychain (kSecAttrTokenIDSecureEnclave); other items are protected when their data is read."
        )
    }

    /// `.invalidParameter`: The access control of a key generated inside the keychain must include
    /// privateKeyUsage: its data is never read, so other constraints would guard nothing.
    package static func tokenKeyWithoutPrivateKeyUsage() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The access control of a key generated inside the keychain must include privateKeyUsage: its data is never read, so other constraints would guard nothing."
        )
    }

    /// `.authFailed`: The item requires user authentication (`policy`) but the keychain has no
    /// authenticator, so it could never be read.
    package static func protectedItemWithoutAuthenticator(policy: AccessPolicy) -> KeychainError {
        KeychainError(
            .authFailed,
            "The item requires user authentication (\(policy)) but the keychain has no authenticator, so it could never be read. Set Keychain.authenticator (for example a PINAuthenticator) first."
        )
    }

    /// `.authFailed`: biometryCurrentSet needs enrolled biometry, and the authenticator reports
    /// none.
    package static func biometryCurrentSetNeedsEnrolledBiometry() -> KeychainError {
        KeychainError(.authFailed, "biometryCurrentSet needs enrolled biometry, and the authenticator reports none.")
    }

    /// `.invalidParameter`: Items with access-control constraints cannot be synchronizable.
    package static func protectedItemSynchronizable() -> KeychainError {
        KeychainError(.invalidParameter, "Items with access-control constraints cannot be synchronizable.")
    }

    /// `.invalidParameter`: An item protected by access control cannot carry the secret blob
    /// attribute `attribute`: it would be readable without the authentication its data needs.
    package static func protectedItemWithSecretBlobAttribute(attribute: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "An item protected by access control cannot carry the secret blob attribute \(attribute): it would be readable without the authentication its data needs. Store it in the item's data."
        )
    }

    /// `.authFailed`: The item requires user authentication (`policy`), but no authenticator is
    /// enrolled in this keychain, so it could never be read.
    package static func protectedItemWithoutEnrolment(policy: AccessPolicy) -> KeychainError {
        KeychainError(
            .authFailed,
            "The item requires user authentication (\(policy)), but no authenticator is enrolled in this keychain, so it could never be read. Enrol one first: set a PIN (PINAuthenticator.setPIN(_:current:in:) or `keychain set-pin`), or call enroll(_:for:authorizedBy:authentication:)."
        )
    }

    /// `.authFailed`: The item requires …, and no authenticator is enrolled for it in this
    /// keychain, so it could never be read.
    package static func noEnrolmentForRequiredMethods(methods: Set<AuthenticationMethod>) -> KeychainError {
        KeychainError(
            .authFailed,
            "The item requires \(methods.map(\.rawValue).sorted().joined(separator: " or ")), and no authenticator is enrolled for it in this keychain, so it could never be read."
        )
    }

    /// `.authFailed`: The item requires …, and the installed authenticator holds none of this
    /// keychain's enrolments for it (they were made by another authenticator, or its own was
    /// replaced).
    package static func installedAuthenticatorHoldsNoEnrolment(methods: Set<AuthenticationMethod>) -> KeychainError {
        KeychainError(
            .authFailed,
            "The item requires \(methods.map(\.rawValue).sorted().joined(separator: " or ")), and the installed authenticator holds none of this keychain's enrolments for it (they were made by another authenticator, or its own was replaced). Set up the authenticator first (for a PIN: `keychain set-pin`)."
        )
    }

    /// `.authFailed`: The item requires user authentication (`policy`) and the keychain has no
    /// authenticator.
    package static func protectedReadWithoutAuthenticator(policy: AccessPolicy) -> KeychainError {
        KeychainError(
            .authFailed,
            "The item requires user authentication (\(policy)) and the keychain has no authenticator. Set Keychain.authenticator."
        )
    }

    /// `.authFailed`: The item needs a companion device or an application password, which this
    /// platform cannot check.
    package static func companionOrApplicationPasswordRequired() -> KeychainError {
        KeychainError(
            .authFailed,
            "The item needs a companion device or an application password, which this platform cannot check.")
    }

    /// `.authFailed`: The enrolled biometry changed since this item was written, and it is
    /// protected by biometryCurrentSet: it can never be read again.
    package static func enrolledBiometryChanged() -> KeychainError {
        KeychainError(
            .authFailed,
            "The enrolled biometry changed since this item was written, and it is protected by biometryCurrentSet: it can never be read again. Delete it and write it anew."
        )
    }

    /// `.authFailed`: The item's access control names no constraint this platform can check.
    package static func noCheckableConstraint() -> KeychainError {
        KeychainError(.authFailed, "The item's access control names no constraint this platform can check.")
    }

    /// `.interactionNotAllowed`: Reading the item needs user authentication and the call does not
    /// allow prompting (kSecUseAuthenticationUIFail).
    package static func authenticationPromptNotAllowed() -> KeychainError {
        KeychainError(
            .interactionNotAllowed,
            "Reading the item needs user authentication and the call does not allow prompting (kSecUseAuthenticationUIFail)."
        )
    }

    /// `.interactionNotAllowed`: Reading the item needs user authentication and the authentication
    /// context does not allow interaction.
    package static func authenticationContextNotInteractive() -> KeychainError {
        KeychainError(
            .interactionNotAllowed,
            "Reading the item needs user authentication and the authentication context does not allow interaction.")
    }

    /// `.authFailed`: The authenticator released a secret of an enrolment this keychain does not
    /// have, so nothing protected was opened.
    package static func unknownEnrolmentReleased() -> KeychainError {
        KeychainError(
            .authFailed,
            "The authenticator released a secret of an enrolment this keychain does not have, so nothing protected was opened."
        )
    }

    /// `.authFailed`: The authenticator used a method the item does not accept.
    package static func authenticatorMethodNotAccepted() -> KeychainError {
        KeychainError(.authFailed, "The authenticator used a method the item does not accept.")
    }

    /// `.userCanceled`: The user cancelled the authentication.
    package static func userCanceledAuthentication() -> KeychainError {
        KeychainError(.userCanceled, "The user cancelled the authentication.")
    }

    /// `.authFailed`: User authentication failed.
    package static func userAuthenticationFailed() -> KeychainError {
        KeychainError(.authFailed, "User authentication failed.")
    }

    /// `.authFailed`: The item needs `methods` and no authenticator is enrolled for it in this
    /// keychain.
    package static func noEnrolmentForMethods(methods: String) -> KeychainError {
        KeychainError(
            .authFailed, "The item needs \(methods) and no authenticator is enrolled for it in this keychain.")
    }

    /// `.integrityViolation`: This keychain's enrolled `recorded` is not held by the installed
    /// authenticator: its enrolment was deleted or replaced (for a PIN, the file `pinFile`), or
    /// another authenticator is installed.
    package static func enrolmentNotHeldByAuthenticator(recorded: String, pinFile: String) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "This keychain's enrolled \(recorded) is not held by the installed authenticator: its enrolment was deleted or replaced (for a PIN, the file \(pinFile)), or another authenticator is installed. Protected items open only with the enrolled secret: restore the enrolment from a backup of this machine."
        )
    }

    /// `.authFailed`: The item needs `methods` and the authenticator offers none of them now.
    package static func noOfferedMethod(methods: String) -> KeychainError {
        KeychainError(.authFailed, "The item needs \(methods) and the authenticator offers none of them now.")
    }

    /// `.duplicateItem`: This `method` secret is already enrolled in the keychain.
    package static func secretAlreadyEnrolled(method: String) -> KeychainError {
        KeychainError(.duplicateItem, "This \(method) secret is already enrolled in the keychain.")
    }

    /// `.invalidState`: That is the keychain's last enrolment: without it, protected items could
    /// never be read again.
    package static func lastEnrolment() -> KeychainError {
        KeychainError(
            .invalidState,
            "That is the keychain's last enrolment: without it, protected items could never be read again. Enrol another authenticator first."
        )
    }

    /// `.authFailed`: The secret given to authorize the enrolment is not one of this keychain's
    /// enrolments.
    package static func authorizingSecretNotEnrolled() -> KeychainError {
        KeychainError(
            .authFailed, "The secret given to authorize the enrolment is not one of this keychain's enrolments.")
    }

    /// `.authFailed`: Enrolling another authenticator needs an authentication with one already
    /// enrolled (…), and the keychain has no authenticator.
    package static func enrolmentNeedsAuthentication(enrolledMethods: Set<AuthenticationMethod>) -> KeychainError {
        KeychainError(
            .authFailed,
            "Enrolling another authenticator needs an authentication with one already enrolled (\(enrolledMethods.map(\.rawValue).sorted().joined(separator: ", "))), and the keychain has no authenticator."
        )
    }

    /// `.interactionNotAllowed`: Enrolling another authenticator needs user authentication, which
    /// the call does not allow.
    package static func enrolmentNeedsInteraction() -> KeychainError {
        KeychainError(
            .interactionNotAllowed,
            "Enrolling another authenticator needs user authentication, which the call does not allow.")
    }

    /// `.invalidState`: Another process changed the keychain's keys meanwhile; nothing was changed.
    package static func keysChangedConcurrently() -> KeychainError {
        KeychainError(
            .invalidState, "Another process changed the keychain's keys meanwhile; nothing was changed. Retry.")
    }

    /// `.interactionNotAllowed`: Enrolling the first authenticator moves the keychain's protected
    /// items under the new presence key, and some items are in a locked class (`accessibility`).
    package static func firstEnrolmentNeedsUnlockedClasses(accessibility: String) -> KeychainError {
        KeychainError(
            .interactionNotAllowed,
            "Enrolling the first authenticator moves the keychain's protected items under the new presence key, and some items are in a locked class (\(accessibility)). Unlock the keychain and retry; nothing was changed."
        )
    }

    /// `.interactionNotAllowed`: Replacing the presence key moves every protected item to the new
    /// one, and some are in a locked class (`accessibility`).
    package static func presenceKeyReplacementNeedsUnlockedClasses(accessibility: String) -> KeychainError {
        KeychainError(
            .interactionNotAllowed,
            "Replacing the presence key moves every protected item to the new one, and some are in a locked class (\(accessibility)). Unlock the keychain and retry; nothing was changed."
        )
    }

    /// `.integrityViolation`: The PIN file `path` is damaged or not a PIN file.
    package static func pinFileDamaged(path: String) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The PIN file \(path) is damaged or not a PIN file. Restore it from a backup: items protected by the PIN open only with the file it was enrolled with."
        )
    }

    /// `.invalidParameter`: An authentication secret needs at least 32 bytes of key material.
    package static func authenticationSecretTooShort() -> KeychainError {
        KeychainError(.invalidParameter, "An authentication secret needs at least 32 bytes of key material.")
    }

    /// `.invalidParameter`: An enrolment identifier has 1 to 64 bytes.
    package static func enrolmentIdentifierLength() -> KeychainError {
        KeychainError(.invalidParameter, "An enrolment identifier has 1 to 64 bytes.")
    }

    /// `.invalidParameter`: kSecAccessControlOr and kSecAccessControlAnd cannot be combined.
    package static func orAndCombined() -> KeychainError {
        KeychainError(.invalidParameter, "kSecAccessControlOr and kSecAccessControlAnd cannot be combined.")
    }

    /// `.invalidParameter`: biometryAny and biometryCurrentSet cannot be combined.
    package static func biometryAnyAndCurrentSetCombined() -> KeychainError {
        KeychainError(.invalidParameter, "biometryAny and biometryCurrentSet cannot be combined.")
    }

    /// `.invalidParameter`: userPresence can only be combined with applicationPassword or
    /// privateKeyUsage.
    package static func userPresenceCombination() -> KeychainError {
        KeychainError(
            .invalidParameter, "userPresence can only be combined with applicationPassword or privateKeyUsage.")
    }

    /// `.invalidParameter`: A PIN cannot be empty.
    package static func emptyPIN() -> KeychainError {
        KeychainError(.invalidParameter, "A PIN cannot be empty.")
    }

    /// `.authFailed`: Changing the PIN needs the current PIN.
    package static func currentPINNeeded() -> KeychainError {
        KeychainError(.authFailed, "Changing the PIN needs the current PIN.")
    }

    /// `.integrityViolation`: The keychain has an enrolled PIN, but the PIN file `pinFile` is ….
    package static func enrolledPINFileMissingOrReplaced(pinFile: String, isMissing: Bool) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The keychain has an enrolled PIN, but the PIN file \(pinFile) is \(isMissing ? "missing: it was deleted or moved" : "not the enrolled one: it was replaced"). A new PIN cannot open what the enrolled one protects, so none was set. Restore the file from a backup of this machine."
        )
    }

    /// `.authFailed`: Too many wrong PINs: try again in `seconds` s.
    package static func pinAttemptsThrottled(seconds: Int) -> KeychainError {
        KeychainError(.authFailed, "Too many wrong PINs: try again in \(seconds) s.")
    }

    /// `.authFailed`: No PIN is set; set one (`keychain set-pin`, or PINAuthenticator.setPIN in
    /// code).
    package static func noPINSet() -> KeychainError {
        KeychainError(.authFailed, "No PIN is set; set one (`keychain set-pin`, or PINAuthenticator.setPIN in code).")
    }

    // MARK: - Backup

    /// `.duplicateItem`: The backup holds a `itemClass` item that already exists in the keychain;
    /// nothing was imported.
    package static func backupItemExists(itemClass: String) -> KeychainError {
        KeychainError(
            .duplicateItem,
            "The backup holds a \(itemClass) item that already exists in the keychain; nothing was imported. Import with the keep or replace policy."
        )
    }

    /// `.invalidParameter`: The backup holds an item marked as one SecureStorage keeps for itself
    /// (its sync state or a key of its own); such items are never exported, so the file was
    /// crafted.
    package static func backupHoldsLibraryOwnedItem() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The backup holds an item marked as one SecureStorage keeps for itself (its sync state or a key of its own); such items are never exported, so the file was crafted. Nothing was imported."
        )
    }

    /// `.invalidParameter`: The backup holds a key marked as generated inside a keychain
    /// (kSecAttrTokenIDSecureEnclave); such keys are never exported, so the file was crafted.
    package static func backupHoldsTokenKey() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The backup holds a key marked as generated inside a keychain (kSecAttrTokenIDSecureEnclave); such keys are never exported, so the file was crafted. Nothing was imported."
        )
    }

    /// `.invalidParameter`: Cannot open the backup `path`: no such readable file.
    package static func backupFileMissing(path: String) -> KeychainError {
        KeychainError(.invalidParameter, "Cannot open the backup \(path): no such readable file.")
    }

    /// `.ioError`: Cannot read the backup `path`: `reason`.
    package static func backupUnreadable(path: String, reason: String) -> KeychainError {
        KeychainError(.ioError, "Cannot read the backup \(path): \(reason).")
    }

    /// `.ioError`: Reading the backup failed: `reason`.
    package static func backupReadFailed(reason: String) -> KeychainError {
        KeychainError(.ioError, "Reading the backup failed: \(reason).")
    }

    /// `.invalidParameter`: A backup passphrase cannot be empty.
    package static func emptyBackupPassphrase() -> KeychainError {
        KeychainError(.invalidParameter, "A backup passphrase cannot be empty.")
    }

    /// `.invalidParameter`: Backups need scrypt parameters within N=2^10…2^20, r ≤ 8, p ≤ 16, and
    /// `parameters` is outside them.
    package static func backupScryptParametersOutOfRange(parameters: ScryptParameters) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "Backups need scrypt parameters within N=2^10…2^20, r ≤ 8, p ≤ 16, and \(parameters) is outside them. Use other passphrase hardening for the export."
        )
    }

    /// `.outOfMemory`: Sealing the backup key failed: `error`.
    package static func sealingBackupKeyFailed(error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Sealing the backup key failed: \(error).")
    }

    /// `.invalidParameter`: A `itemClass` item of `byteCount` bytes is too large for a backup (at
    /// most about … MiB per item); nothing was exported.
    package static func itemTooLargeForBackup(itemClass: String, byteCount: Int) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A \(itemClass) item of \(byteCount) bytes is too large for a backup (at most about \(BackupFormat.maximumChunkBytes >> 20) MiB per item); nothing was exported."
        )
    }

    /// `.outOfMemory`: Sealing a backup chunk failed: `error`.
    package static func sealingBackupChunkFailed(error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Sealing a backup chunk failed: \(error).")
    }

    /// `.invalidParameter`: `source` is not a SecureStorage keychain backup (it does not start with
    /// the backup header).
    package static func notABackup(source: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "\(source) is not a SecureStorage keychain backup (it does not start with the backup header). Check the file name."
        )
    }

    /// `.unsupportedVersion`: `source` is a keychain backup of a newer format than this version of
    /// SecureStorage reads.
    package static func backupFormatTooNew(source: String) -> KeychainError {
        KeychainError(
            .unsupportedVersion,
            "\(source) is a keychain backup of a newer format than this version of SecureStorage reads. Upgrade to import it."
        )
    }

    /// `.authFailed`: The backup passphrase for `source` is not correct.
    package static func wrongBackupPassphrase(source: String) -> KeychainError {
        KeychainError(
            .authFailed, "The backup passphrase for \(source) is not correct. Nothing was imported; try again.")
    }

    /// `.integrityViolation`: The backup `source` is damaged or was tampered with: `what`.
    package static func backupTampered(source: String, what: String) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The backup \(source) is damaged or was tampered with: \(what). Nothing was imported. Use another copy of the backup."
        )
    }

    // MARK: - Crypto

    /// `.outOfMemory`: Wrapping the presence key failed: `error`.
    package static func presenceKeyWrappingFailed(error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Wrapping the presence key failed: \(error).")
    }

    /// `.authFailed`: The authenticator reported success, but the secret it released does not open
    /// the keychain's `method` enrolment, so nothing protected was opened.
    package static func releasedSecretDoesNotOpenEnrolment(method: String) -> KeychainError {
        KeychainError(
            .authFailed,
            "The authenticator reported success, but the secret it released does not open the keychain's \(method) enrolment, so nothing protected was opened."
        )
    }

    /// `.keychainUnavailable`: The device key file `path` is missing, and the keychain was created
    /// with it.
    package static func deviceKeyFileMissing(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The device key file \(path) is missing, and the keychain was created with it. Without it the keychain cannot be decrypted: restore the file from a backup of this machine, or move the keychain aside to start a new one."
        )
    }

    /// `.keychainUnavailable`: The device key file `path` is sealed by a TPM, and this process uses
    /// none.
    package static func deviceKeyFileNeedsTPM(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The device key file \(path) is sealed by a TPM, and this process uses none. Set \(TPMDevice.environmentVariable) to the TPM's TCTI, or give this user access to \(TPMDevice.kernelResourceManager) (usually: membership of the tss group)."
        )
    }

    /// `.keychainUnavailable`: The keychain must be bound to a TPM
    /// (KeychainOptions.newKeychainBinding = .tpm), and this process uses none: set …, or give this
    /// user access to ….
    package static func tpmBindingWithoutTPM() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain must be bound to a TPM (KeychainOptions.newKeychainBinding = .tpm), and this process uses none: set \(TPMDevice.environmentVariable), or give this user access to \(TPMDevice.kernelResourceManager)."
        )
    }

    /// `.invalidParameter`: The TPM returned a sealed object too large for the device key file.
    package static func tpmSealedObjectTooLarge() -> KeychainError {
        KeychainError(.invalidParameter, "The TPM returned a sealed object too large for the device key file.")
    }

    /// `.keychainUnavailable`: The device key file `path` is not a SecureStorage device key (wrong
    /// size or header).
    package static func notADeviceKeyFile(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The device key file \(path) is not a SecureStorage device key (wrong size or header). Restore it from a backup; do not replace it, or every item in the keychain becomes unreadable."
        )
    }

    /// `.keychainUnavailable`: The device key file `path` is corrupted (checksum mismatch).
    package static func deviceKeyFileCorrupted(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The device key file \(path) is corrupted (checksum mismatch). Restore it from a backup.")
    }

    /// `.unsupportedVersion`: The device key file `path` has format `format`, newer than this
    /// version of SecureStorage reads.
    package static func deviceKeyFileFormatTooNew(path: String, format: some BinaryInteger) -> KeychainError {
        KeychainError(
            .unsupportedVersion,
            "The device key file \(path) has format \(format), newer than this version of SecureStorage reads. Update SecureStorage."
        )
    }

    /// `.outOfMemory`: Encrypting the item failed: `error`.
    package static func itemEncryptionFailed(error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Encrypting the item failed: \(error).")
    }

    /// `.outOfMemory`: Wrapping an item key failed: `error`.
    package static func itemKeyWrappingFailed(error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Wrapping an item key failed: \(error).")
    }

    /// `.authFailed`: The item's data is sealed to the keychain's presence key, which only an
    /// enrolled authenticator's secret opens; authenticate to read it.
    package static func itemNeedsPresenceAuthentication() -> KeychainError {
        KeychainError(
            .authFailed,
            "The item's data is sealed to the keychain's presence key, which only an enrolled authenticator's secret opens; authenticate to read it."
        )
    }

    /// `.outOfMemory`: Wrapping the `slot` key failed: `error`.
    package static func slotKeyWrappingFailed(slot: String, error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Wrapping the \(slot) key failed: \(error).")
    }

    /// `.integrityViolation`: The passphrase parameters stored in `source` (`parameters`) are
    /// outside the bounds this library accepts (log N 10–20, r 1–16, p 1–64, at most
    /// `memoryLimitMiB` MiB of memory and N · r · p at most 2^`workLimitLog2`), so they were not
    /// used: the file was modified or forged.
    package static func storedPassphraseParametersOutOfBounds(
        source: String, parameters: ScryptParameters, memoryLimitMiB: some BinaryInteger,
        workLimitLog2: some BinaryInteger
    ) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The passphrase parameters stored in \(source) (\(parameters)) are outside the bounds this library accepts (log N 10–20, r 1–16, p 1–64, at most \(memoryLimitMiB) MiB of memory and N · r · p at most 2^\(workLimitLog2)), so they were not used: the file was modified or forged. Restore it from a backup."
        )
    }

    /// `.outOfMemory`: scrypt with `parameters` failed; the machine may not have `memoryMiB` MiB of
    /// memory to spare.
    package static func scryptFailed(parameters: ScryptParameters, memoryMiB: some BinaryInteger) -> KeychainError {
        KeychainError(
            .outOfMemory,
            "scrypt with \(parameters) failed; the machine may not have \(memoryMiB) MiB of memory to spare.")
    }

    /// `.outOfMemory`: Wrapping an item key to the presence key failed: `error`.
    package static func itemKeyPresenceWrappingFailed(error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Wrapping an item key to the presence key failed: \(error).")
    }

    // MARK: - Engine

    /// `.userCanceled`: The task was cancelled before the keychain call started; nothing was read
    /// or changed.
    package static func taskCancelled() -> KeychainError {
        KeychainError(
            .userCanceled, "The task was cancelled before the keychain call started; nothing was read or changed.")
    }

    /// `.noSuchClass`: The persistent reference names a `referencedClass` item but the query asks
    /// for class `queriedClass`.
    package static func persistentReferenceOfAnotherClass(referencedClass: String, queriedClass: String)
        -> KeychainError
    {
        KeychainError(
            .noSuchClass,
            "The persistent reference names a \(referencedClass) item but the query asks for class \(queriedClass).")
    }

    /// `.invalidParameter`: The query has no class (kSecClass) and no persistent reference.
    package static func queryWithoutClass() -> KeychainError {
        KeychainError(.invalidParameter, "The query has no class (kSecClass) and no persistent reference.")
    }

    /// `.invalidParameter`: A match limit must be at least 1 (got `count`).
    package static func matchLimitTooSmall(count: Int) -> KeychainError {
        KeychainError(.invalidParameter, "A match limit must be at least 1 (got \(count)).")
    }

    /// `.interactionNotAllowed`: Changing the item's access control needs user authentication.
    package static func accessControlChangeNeedsAuthentication() -> KeychainError {
        KeychainError(.interactionNotAllowed, "Changing the item's access control needs user authentication.")
    }

    /// `.invalidParameter`: A key generated inside the keychain keeps its key material, token ID
    /// and key properties, and a …ThisDeviceOnly accessibility; only its label, tag, access group,
    /// access control and device-only accessibility can change.
    package static func tokenKeyAttributesFixed() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A key generated inside the keychain keeps its key material, token ID and key properties, and a …ThisDeviceOnly accessibility; only its label, tag, access group, access control and device-only accessibility can change."
        )
    }

    /// `.invalidParameter`: No key can be moved into the token (kSecAttrTokenIDSecureEnclave): such
    /// keys are generated inside the keychain.
    package static func keyMovedIntoToken() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "No key can be moved into the token (kSecAttrTokenIDSecureEnclave): such keys are generated inside the keychain."
        )
    }

    /// `.interactionNotAllowed`: The item's access control changed while this call authenticated
    /// for it; nothing was changed.
    package static func accessControlChangedDuringAuthentication() -> KeychainError {
        KeychainError(
            .interactionNotAllowed,
            "The item's access control changed while this call authenticated for it; nothing was changed. Retry.")
    }

    /// `.authFailed`: Changing the item re-encrypts its data, which needs user authentication.
    package static func itemChangeNeedsAuthentication() -> KeychainError {
        KeychainError(.authFailed, "Changing the item re-encrypts its data, which needs user authentication.")
    }

    /// `.invalidState`: This keychain has no passphrase, so it is always unlocked.
    package static func noPassphraseToUnlock() -> KeychainError {
        KeychainError(
            .invalidState,
            "This keychain has no passphrase, so it is always unlocked. Set one (`keychain set-passphrase`, or Keychain.setPassphrase in code) to make it lockable."
        )
    }

    /// `.invalidState`: A keychain without a passphrase cannot be locked, like a device without a
    /// passcode.
    package static func noPassphraseToLock() -> KeychainError {
        KeychainError(
            .invalidState,
            "A keychain without a passphrase cannot be locked, like a device without a passcode. Set a passphrase first (`keychain set-passphrase`, or Keychain.setPassphrase in code)."
        )
    }

    /// `.authFailed`: The passphrase is not correct.
    package static func wrongPassphraseDuringRekeying() -> KeychainError {
        KeychainError(.authFailed, "The passphrase is not correct. The keychain is unchanged; try again.")
    }

    /// `.keychainUnavailable`: The keychain directory `directory` is on a network file system
    /// (`network`).
    package static func networkFileSystem(directory: String, network: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain directory \(directory) is on a network file system (\(network)). SQLite's write-ahead log needs shared memory and locks that network file systems do not provide reliably, so concurrent writers could corrupt it. Move the keychain to a local disk, or set KeychainOptions.allowsNetworkFileSystem if only one process ever uses it."
        )
    }

    /// `.duplicateKeychain`: A keychain already exists at `path`.
    package static func keychainExists(path: String) -> KeychainError {
        KeychainError(.duplicateKeychain, "A keychain already exists at \(path). Use it, or choose another location.")
    }

    /// `.noSuchKeychain`: There is no keychain at `path`.
    package static func noKeychainToOpen(path: String) -> KeychainError {
        KeychainError(
            .noSuchKeychain,
            "There is no keychain at \(path). Create it by opening it without KeychainOptions.readOnly (`keychain create`, or adding an item)."
        )
    }

    /// `.integrityViolation`: The keychain at `path` is in format `fileFormat`, but this machine
    /// recorded that it reached format `formatVersion`: its format records were stripped, or it was
    /// replaced by an older copy.
    package static func formatDowngraded(path: String, fileFormat: Int, formatVersion: some BinaryInteger)
        -> KeychainError
    {
        KeychainError(
            .integrityViolation,
            "The keychain at \(path) is in format \(fileFormat), but this machine recorded that it reached format \(formatVersion): its format records were stripped, or it was replaced by an older copy. It was not opened, so nothing in it was accepted. Restore the keychain from a backup."
        )
    }

    /// `.integrityViolation`: The keychain at `path` is in format `fileFormat`, but the record of
    /// its format and header that lives beside the device key (`anchorFile`) is missing.
    package static func formatAnchorMissing(path: String, fileFormat: Int, anchorFile: String) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The keychain at \(path) is in format \(fileFormat), but the record of its format and header that lives beside the device key (\(anchorFile)) is missing. Without it an older header could have been put back, so the keychain was not opened. Restore that file from a backup of this machine."
        )
    }

    /// `.keychainUnavailable`: SQLite did not accept the durability and safety settings
    /// (synchronous=`synchronous`, secure_delete=`secureDelete`, journal=`journalMode`,
    /// trusted_schema=`trustedSchema`).
    package static func sqliteRefusedDurabilitySettings(
        synchronous: some BinaryInteger, secureDelete: some BinaryInteger, journalMode: String,
        trustedSchema: some BinaryInteger
    ) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "SQLite did not accept the durability and safety settings (synchronous=\(synchronous), secure_delete=\(secureDelete), journal=\(journalMode), trusted_schema=\(trustedSchema))."
        )
    }

    /// `.readOnly`: This keychain was opened read-only (KeychainOptions.readOnly), so it cannot be
    /// changed.
    package static func openedReadOnly() -> KeychainError {
        KeychainError(
            .readOnly,
            "This keychain was opened read-only (KeychainOptions.readOnly), so it cannot be changed. Open it without that option to add, change or delete items, to change its passphrase, lock it, or keep an unlock session."
        )
    }

    /// `.invalidParameter`: An unlock session must last a positive time; pass nil for one that
    /// lasts until lock or logout.
    package static func unlockSessionDurationNotPositive() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "An unlock session must last a positive time; pass nil for one that lasts until lock or logout.")
    }

    /// `.outOfMemory`: Sealing the unlock session failed: `error`.
    package static func sealingUnlockSessionFailed(error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Sealing the unlock session failed: \(error).")
    }

    /// `.keychainUnavailable`: The runtime directory `base` does not exist or is a symbolic link;
    /// no unlock session is kept there.
    package static func runtimeDirectoryMissing(base: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The runtime directory \(base) does not exist or is a symbolic link; no unlock session is kept there. Set XDG_RUNTIME_DIR to your own memory-backed runtime directory, or unset it to keep sessions in the kernel keyring."
        )
    }

    /// `.keychainUnavailable`: The runtime directory `base` belongs to another user or is open to
    /// other users (owner `owner`, mode …); no unlock session is kept there.
    package static func runtimeDirectoryNotPrivate(base: String, owner: some BinaryInteger, mode: some BinaryInteger)
        -> KeychainError
    {
        KeychainError(
            .keychainUnavailable,
            "The runtime directory \(base) belongs to another user or is open to other users (owner \(owner), mode \(String(mode, radix: 8))); no unlock session is kept there. Set XDG_RUNTIME_DIR to a directory of your own (mode 0700), such as the /run/user/\(PlatformIO.currentUserID) systemd makes."
        )
    }

    /// `.keychainUnavailable`: The runtime directory `base` is not on a memory-backed file system
    /// (tmpfs or ramfs): a ticket there would reach the disk, so no unlock session is kept.
    package static func runtimeDirectoryNotInMemory(base: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The runtime directory \(base) is not on a memory-backed file system (tmpfs or ramfs): a ticket there would reach the disk, so no unlock session is kept. Set XDG_RUNTIME_DIR to a tmpfs directory of your own, such as /run/user/\(PlatformIO.currentUserID)."
        )
    }

    /// `.keychainUnavailable`: `directory` is not on a memory-backed file system, so no unlock
    /// session is written there.
    package static func ticketDirectoryNotInMemory(directory: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(directory) is not on a memory-backed file system, so no unlock session is written there.")
    }

    /// `.invalidParameter`: The passphrase file `path` is empty.
    package static func passphraseFileEmpty(path: String) -> KeychainError {
        KeychainError(.invalidParameter, "The passphrase file \(path) is empty.")
    }

    /// `.invalidParameter`: The passphrase file `path` is not UTF-8 text.
    package static func passphraseFileNotUTF8(path: String) -> KeychainError {
        KeychainError(.invalidParameter, "The passphrase file \(path) is not UTF-8 text.")
    }

    /// `.keychainUnavailable`: The passphrase file `path` does not exist.
    package static func passphraseFileMissing(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The passphrase file \(path) does not exist. Check the path, or create it as your own file with mode 0600 (`install -m 600 /dev/null \(path)`) and write the passphrase into it."
        )
    }

    /// `.keychainUnavailable`: The systemd credential `name` (`path`) does not exist.
    package static func systemdCredentialMissing(name: String, path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The systemd credential \(name) (\(path)) does not exist. Give the service LoadCredential=\(name):<file> (or SetCredentialEncrypted=)."
        )
    }

    /// `.keychainUnavailable`: The systemd credential `name` was asked for, but
    /// CREDENTIALS_DIRECTORY is not set: run the service with LoadCredential=`name`:<file> (or
    /// SetCredentialEncrypted=).
    package static func credentialsDirectoryNotSet(name: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The systemd credential \(name) was asked for, but CREDENTIALS_DIRECTORY is not set: run the service with LoadCredential=\(name):<file> (or SetCredentialEncrypted=)."
        )
    }

    /// `.authFailed`: The passphrase in `path` is not the passphrase of the keychain at
    /// `databasePath`.
    package static func wrongPassphraseInFile(path: String, databasePath: String) -> KeychainError {
        KeychainError(
            .authFailed,
            "The passphrase in \(path) is not the passphrase of the keychain at \(databasePath). The keychain is unchanged; put its passphrase in the file (on the first line, nothing else) and retry."
        )
    }

    /// `.invalidState`: The systemd credential `path` holds a passphrase, but the keychain at
    /// `databasePath` has none, so it is not the keychain that passphrase protects (a new one, made
    /// where the service looked: check SECURE_STORAGE_HOME and the unit's Environment= against
    /// where the keychain was created).
    package static func credentialForUnprotectedKeychain(path: String, databasePath: String) -> KeychainError {
        KeychainError(
            .invalidState,
            "The systemd credential \(path) holds a passphrase, but the keychain at \(databasePath) has none, so it is not the keychain that passphrase protects (a new one, made where the service looked: check SECURE_STORAGE_HOME and the unit's Environment= against where the keychain was created). Nothing was unlocked."
        )
    }

    /// `.integrityViolation`: A synchronizable row has no id, item id or row version.
    package static func synchronizableRowIncomplete() -> KeychainError {
        KeychainError(
            .integrityViolation,
            "A synchronizable row has no id, item id or row version. The keychain file was altered outside this library."
        )
    }

    /// `.invalidParameter`: A synchronized `itemClass` item is not one that may sync (it must be
    /// synchronizable, not …ThisDeviceOnly, not a key generated inside a keychain).
    package static func unsyncableItemReceived(itemClass: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A synchronized \(itemClass) item is not one that may sync (it must be synchronizable, not …ThisDeviceOnly, not a key generated inside a keychain). Nothing was applied."
        )
    }

    /// `.invalidParameter`: A synchronized `itemClass` item would be stored as one that may not
    /// sync.
    package static func receivedItemWouldNotSync(itemClass: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A synchronized \(itemClass) item would be stored as one that may not sync. Nothing was applied.")
    }

    /// `.invalidParameter`: The sync state must be a library-owned …ThisDeviceOnly item that is not
    /// synchronizable, the same item each time.
    package static func syncStateItemInvalid() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The sync state must be a library-owned …ThisDeviceOnly item that is not synchronizable, the same item each time."
        )
    }

    /// `.interactionNotAllowed`: The sync state cannot be written while the keychain is sealed;
    /// unlock it once.
    package static func syncStateWhileSealed() -> KeychainError {
        KeychainError(
            .interactionNotAllowed, "The sync state cannot be written while the keychain is sealed; unlock it once.")
    }

    /// `.invalidParameter`: A synchronized key claims to be generated inside a keychain; such keys
    /// never leave their device, so the change was crafted.
    package static func syncedTokenKey() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A synchronized key claims to be generated inside a keychain; such keys never leave their device, so the change was crafted. Nothing was applied."
        )
    }

    /// `.authFailed`: A query cannot match an item protected by access control on values derived
    /// from its data (kSecAttrSHA1 or the internet-password secret blobs): that would let a caller
    /// test guesses of the data without authenticating.
    package static func queryOnProtectedDerivedValues() -> KeychainError {
        KeychainError(
            .authFailed,
            "A query cannot match an item protected by access control on values derived from its data (kSecAttrSHA1 or the internet-password secret blobs): that would let a caller test guesses of the data without authenticating. Find the item by its other attributes, then read its data."
        )
    }

    /// `.invalidParameter`: An identity cannot be added on its own: add its certificate and its
    /// private key (addIdentity(certificate:privateKey:)).
    package static func identityAddedAlone() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "An identity cannot be added on its own: add its certificate and its private key (addIdentity(certificate:privateKey:))."
        )
    }

    /// `.invalidParameter`: A key with kSecAttrTokenIDSecureEnclave is generated inside the
    /// keychain (SecKeyCreateRandomKey); existing key material cannot be imported into the token.
    package static func tokenKeyAdded() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A key with kSecAttrTokenIDSecureEnclave is generated inside the keychain (SecKeyCreateRandomKey); existing key material cannot be imported into the token."
        )
    }

    /// `.invalidParameter`: An identity is a certificate item plus a key item.
    package static func identityIsCertificateAndKey() -> KeychainError {
        KeychainError(.invalidParameter, "An identity is a certificate item plus a key item.")
    }

    /// `.invalidParameter`: The key must be a private key (kcls 1) whose application label equals
    /// the certificate's public-key hash.
    package static func identityKeyMismatch() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The key must be a private key (kcls 1) whose application label equals the certificate's public-key hash.")
    }

    /// `.authFailed`: The passphrase is not correct for the keychain at `databasePath`.
    package static func wrongPassphrase(databasePath: String) -> KeychainError {
        KeychainError(
            .authFailed,
            "The passphrase is not correct for the keychain at \(databasePath). The keychain is unchanged; try again with its passphrase."
        )
    }

    /// `.invalidParameter`: A passphrase cannot be empty.
    package static func emptyPassphrase() -> KeychainError {
        KeychainError(.invalidParameter, "A passphrase cannot be empty.")
    }

    /// `.invalidState`: The keychain already has a passphrase; change it (`keychain change-
    /// passphrase`, or Keychain.changePassphrase in code).
    package static func passphraseAlreadySet() -> KeychainError {
        KeychainError(
            .invalidState,
            "The keychain already has a passphrase; change it (`keychain change-passphrase`, or Keychain.changePassphrase in code)."
        )
    }

    /// `.invalidState`: The keychain has no passphrase; set one (`keychain set-passphrase`, or
    /// Keychain.setPassphrase in code).
    package static func noPassphraseSet() -> KeychainError {
        KeychainError(
            .invalidState,
            "The keychain has no passphrase; set one (`keychain set-passphrase`, or Keychain.setPassphrase in code).")
    }

    /// `.outOfMemory`: Wrapping the class keys failed: `error`.
    package static func classKeyWrappingFailed(error: any Error) -> KeychainError {
        KeychainError(.outOfMemory, "Wrapping the class keys failed: \(error).")
    }

    /// `.invalidState`: Another process changed the keychain's passphrase meanwhile; nothing was
    /// changed.
    package static func passphraseChangedConcurrently() -> KeychainError {
        KeychainError(
            .invalidState, "Another process changed the keychain's passphrase meanwhile; nothing was changed. Retry.")
    }

    /// `.noSuchAttribute`: The attribute `key` does not exist for `itemClass` items.
    package static func attributeNotInClass(key: AttributeKey, itemClass: String) -> KeychainError {
        KeychainError(
            .noSuchAttribute,
            "The attribute \(key) does not exist for \(itemClass) items. Remove it from the dictionary: each class accepts only its own attributes (Apple's SecItem documentation lists them per class)."
        )
    }

    /// `.invalidParameter`: An item SecureStorage keeps for itself (`owner`) never syncs.
    package static func libraryOwnedItemSynchronizable(owner: LibraryOwner) -> KeychainError {
        KeychainError(.invalidParameter, "An item SecureStorage keeps for itself (\(owner)) never syncs.")
    }

    /// `.invalidParameter`: kSecAttrSharingGroup cannot be changed by an update.
    package static func sharingGroupChanged() -> KeychainError {
        KeychainError(.invalidParameter, "kSecAttrSharingGroup cannot be changed by an update.")
    }

    /// `.invalidParameter`: An identity cannot be added or updated on its own: use its certificate
    /// and private key items.
    package static func identityWrittenAlone() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "An identity cannot be added or updated on its own: use its certificate and private key items.")
    }

    // MARK: - Hardware

    #if canImport(CTSS2)
    /// `.keychainUnavailable`: The TPM holding a key cannot be reached: the TPM layer's account
    /// of `failure` when it has one.
    static func tpmKeyUnreachable(failure: TPMFailure, tcti: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable, failure.explanation ?? "The TPM at \(tcti) cannot be reached (\(failure.decoded)).")
    }

    /// `.keychainUnavailable`: A TPM failure no other message covers: `failure` at `tcti`.
    static func tpmFailed(failure: TPMFailure, tcti: String) -> KeychainError {
        KeychainError(.keychainUnavailable, "\(failure) at \(tcti).")
    }
    #endif

    /// `.invalidParameter`: A TPM failure the TPM layer explained itself (`explanation`, its
    /// account of the failure and what to do).
    package static func tpmFailureExplained(_ explanation: String) -> KeychainError {
        KeychainError(.invalidParameter, explanation)
    }

    /// `.keychainUnavailable`: The TPM at `tcti` did not give back the secret it sealed; the
    /// keychain was left as it was.
    package static func tpmUnsealFailed(tcti: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The TPM at \(tcti) did not give back the secret it sealed; the keychain was left as it was.")
    }

    /// `.unimplemented`: This build of SecureStorage has no TPM support (tpm2-tss is linked on
    /// Linux only).
    package static func noTPMSupportInBuild() -> KeychainError {
        KeychainError(
            .unimplemented, "This build of SecureStorage has no TPM support (tpm2-tss is linked on Linux only).")
    }

    /// `.keychainUnavailable`: The device key file `path` unsealed to `byteCount` bytes instead of
    /// 32: it is not a SecureStorage device secret.
    package static func deviceKeyFileUnsealedWrongSize(path: String, byteCount: Int) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The device key file \(path) unsealed to \(byteCount) bytes instead of 32: it is not a SecureStorage device secret. Restore the file from a backup of this machine."
        )
    }

    /// `.keychainUnavailable`: The keychain is sealed by a TPM, and `tpmResponse`.
    package static func tpmNotLoaded(tpmResponse: String) -> KeychainError {
        KeychainError(.keychainUnavailable, "The keychain is sealed by a TPM, and \(tpmResponse).")
    }

    /// `.keychainUnavailable`: The sealed device secret in `file` is damaged.
    package static func sealedDeviceSecretDamaged(file: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The sealed device secret in \(file) is damaged. Restore the file from a backup of this machine.")
    }

    /// `.keychainUnavailable`: The device key file `path` is sealed by a TPM, and this build of
    /// SecureStorage has no TPM support (tpm2-tss is linked on Linux only).
    package static func deviceKeyFileNeedsTPMSupport(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The device key file \(path) is sealed by a TPM, and this build of SecureStorage has no TPM support (tpm2-tss is linked on Linux only)."
        )
    }

    /// `.keychainUnavailable`: `file` was sealed by another TPM: these files were copied from
    /// another machine, or this machine's TPM was cleared.
    package static func sealedByAnotherTPM(file: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(file) was sealed by another TPM: these files were copied from another machine, or this machine's TPM was cleared. Open the keychain on the machine it belongs to (and run `keychain unbind` there to move it), or restore it from a backup."
        )
    }

    /// `.keychainUnavailable`: `file` is sealed to PCR values that changed (the Secure Boot or
    /// firmware configuration is not the one it was bound under).
    package static func pcrValuesChanged(file: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(file) is sealed to PCR values that changed (the Secure Boot or firmware configuration is not the one it was bound under). Boot that configuration again and run `keychain bind --tpm` (it reseals without PCRs), then bind with PCRs again after the change; otherwise the items can only come back from a backup (`keychain import`)."
        )
    }

    /// `.keychainUnavailable`: `what` Check that it exists, that it answers, and that this user may
    /// use it (usually: membership of the tss group).
    package static func tpmUnreachableAdvice(what: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(what) Check that it exists, that it answers, and that this user may use it (usually: membership of the tss group)."
        )
    }

    /// `.keychainUnavailable`: The TPM at `tcti` is in dictionary-attack lockout; wait for it to
    /// recover or reset it with its lockout authorization (tpm2_dictionarylockout -c).
    package static func tpmLockout(tcti: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The TPM at \(tcti) is in dictionary-attack lockout; wait for it to recover or reset it with its lockout authorization (tpm2_dictionarylockout -c)."
        )
    }

    /// `.keychainUnavailable`: The TPM at `tcti` refused an authorization: its owner hierarchy has
    /// a password (SecureStorage binds only to a TPM whose owner hierarchy has none, as systemd-
    /// creds does), or `file` was altered.
    package static func tpmAuthorizationRefused(tcti: String, file: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The TPM at \(tcti) refused an authorization: its owner hierarchy has a password (SecureStorage binds only to a TPM whose owner hierarchy has none, as systemd-creds does), or \(file) was altered."
        )
    }

    /// `.invalidState`: Other keychains use the same device key file (`deviceKeyFile`; their
    /// anchors: `others`): binding replaces its secret, which would leave them unreadable.
    package static func deviceKeyFileShared(deviceKeyFile: String, others: String) -> KeychainError {
        KeychainError(
            .invalidState,
            "Other keychains use the same device key file (\(deviceKeyFile); their anchors: \(others)): binding replaces its secret, which would leave them unreadable. Nothing was changed. Give each keychain its own state directory (SECURE_STORAGE_HOME, XDG_STATE_HOME or KeychainLocation.deviceKeyURL) before binding, or remove the anchor of a keychain that no longer exists."
        )
    }

    /// `.invalidState`: The keychain has no passphrase, so binding needs none; call it without one.
    package static func bindingWithUnneededPassphrase() -> KeychainError {
        KeychainError(.invalidState, "The keychain has no passphrase, so binding needs none; call it without one.")
    }

    /// `.invalidState`: The keychain has a passphrase, and binding rewraps the keys it protects
    /// under the new device secret, so it needs the passphrase (`keychain bind` asks for it).
    package static func bindingNeedsPassphrase() -> KeychainError {
        KeychainError(
            .invalidState,
            "The keychain has a passphrase, and binding rewraps the keys it protects under the new device secret, so it needs the passphrase (`keychain bind` asks for it)."
        )
    }

    /// `.invalidState`: Another process changed the keychain's passphrase or keys meanwhile;
    /// nothing was changed.
    package static func passphraseOrKeysChangedConcurrently() -> KeychainError {
        KeychainError(
            .invalidState,
            "Another process changed the keychain's passphrase or keys meanwhile; nothing was changed. Retry.")
    }

    /// `.keychainUnavailable`: A rotation of the device secret (keychain bind) was interrupted, and
    /// the new secret in `pendingKeyFile` cannot be loaded (`reason`) while the current device key
    /// file does not open the keychain.
    package static func interruptedRotation(pendingKeyFile: String, reason: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "A rotation of the device secret (keychain bind) was interrupted, and the new secret in \(pendingKeyFile) cannot be loaded (\(reason)) while the current device key file does not open the keychain. Nothing was changed: make the TPM available again (for PCRs, boot the configuration it was bound under) and retry."
        )
    }

    /// `.keychainUnavailable`: This process uses no TPM: set … to the TPM's TCTI, or give this user
    /// access to … (usually: membership of the tss group).
    package static func noTPMConfigured() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "This process uses no TPM: set \(TPMDevice.environmentVariable) to the TPM's TCTI, or give this user access to \(TPMDevice.kernelResourceManager) (usually: membership of the tss group)."
        )
    }

    /// `.invalidParameter`: PCRs are numbered 0 to 23; `invalidPCRs` does not exist.
    package static func invalidPCRs(invalidPCRs: String) -> KeychainError {
        KeychainError(.invalidParameter, "PCRs are numbered 0 to 23; \(invalidPCRs) does not exist.")
    }

    /// `.invalidState`: The keychain is not bound to a TPM; its device secret is already in a key
    /// file.
    package static func notBoundToTPM() -> KeychainError {
        KeychainError(.invalidState, "The keychain is not bound to a TPM; its device secret is already in a key file.")
    }

    /// `.invalidState`: Unbinding makes the keychain's files open on any machine, so it needs a
    /// passphrase to protect its items there.
    package static func unbindingNeedsPassphrase() -> KeychainError {
        KeychainError(
            .invalidState,
            "Unbinding makes the keychain's files open on any machine, so it needs a passphrase to protect its items there. Set one first (`keychain set-passphrase`), then unbind."
        )
    }

    /// `.unimplemented`: This build of SecureStorage has no TPM support.
    package static func noTPMSupport() -> KeychainError {
        KeychainError(.unimplemented, "This build of SecureStorage has no TPM support.")
    }

    /// `.unimplemented`: This build of SecureStorage has no TPM support, and the key lives in a
    /// TPM.
    package static func tokenKeyNeedsTPMSupport() -> KeychainError {
        KeychainError(.unimplemented, "This build of SecureStorage has no TPM support, and the key lives in a TPM.")
    }

    /// `.keychainUnavailable`: The key lives in a TPM, and this process uses none: set …, or give
    /// this user access to ….
    package static func tokenKeyNeedsTPM() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The key lives in a TPM, and this process uses none: set \(TPMDevice.environmentVariable), or give this user access to \(TPMDevice.kernelResourceManager)."
        )
    }

    /// `.keychainUnavailable`: The key lives in a TPM, and `tpmResponse`.
    package static func tokenKeyTPMNotLoaded(tpmResponse: String) -> KeychainError {
        KeychainError(.keychainUnavailable, "The key lives in a TPM, and \(tpmResponse).")
    }

    /// `.invalidParameter`: The peer's public key is not a point on P-256.
    package static func peerKeyNotOnCurve() -> KeychainError {
        KeychainError(.invalidParameter, "The peer's public key is not a point on P-256.")
    }

    /// `.keychainUnavailable`: The key lives in another TPM (this keychain was copied from another
    /// machine, or this TPM was cleared); it cannot be used here.
    package static func tokenKeyInAnotherTPM() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The key lives in another TPM (this keychain was copied from another machine, or this TPM was cleared); it cannot be used here."
        )
    }

    // MARK: - Keys

    /// `.invalidParameter`: A `curveBits`-bit EC private key has `coordinateByteCount` bytes, not
    /// `byteCount`.
    package static func privateKeyLength(curveBits: Int, coordinateByteCount: Int, byteCount: Int) -> KeychainError {
        KeychainError(
            .invalidParameter, "A \(curveBits)-bit EC private key has \(coordinateByteCount) bytes, not \(byteCount).")
    }

    /// `.invalidParameter`: The bytes are not a valid `curveBits`-bit EC private key.
    package static func invalidPrivateKey(curveBits: Int) -> KeychainError {
        KeychainError(.invalidParameter, "The bytes are not a valid \(curveBits)-bit EC private key.")
    }

    /// `.invalidParameter`: ECDSA signing failed.
    package static func ecdsaSigningFailed() -> KeychainError {
        KeychainError(.invalidParameter, "ECDSA signing failed.")
    }

    /// `.invalidParameter`: The other party's key is not a `curveBits`-bit EC public key (X9.63).
    package static func invalidPeerKey(curveBits: Int) -> KeychainError {
        KeychainError(.invalidParameter, "The other party's key is not a \(curveBits)-bit EC public key (X9.63).")
    }

    /// `.invalidParameter`: A digest to sign has 1 to 64 bytes, not `byteCount`.
    package static func digestLength(byteCount: Int) -> KeychainError {
        KeychainError(.invalidParameter, "A digest to sign has 1 to 64 bytes, not \(byteCount).")
    }

    /// `.invalidParameter`: Keys generated inside the keychain are P-256 or P-384 (the Secure
    /// Enclave's P-256 and its larger sibling).
    package static func tokenKeyCurveUnsupported() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "Keys generated inside the keychain are P-256 or P-384 (the Secure Enclave's P-256 and its larger sibling)."
        )
    }

    /// `.invalidParameter`: EC key generation failed.
    package static func ecKeyGenerationFailed() -> KeychainError {
        KeychainError(.invalidParameter, "EC key generation failed.")
    }

    /// `.invalidParameter`: A key generated inside the keychain never leaves this device: give a
    /// …ThisDeviceOnly accessibility (`accessibility` would let it into backups).
    package static func tokenKeyNotThisDeviceOnly(accessibility: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A key generated inside the keychain never leaves this device: give a …ThisDeviceOnly accessibility (\(accessibility) would let it into backups)."
        )
    }

    /// `.invalidParameter`: The reference names a `itemClass` item, not a key.
    package static func referenceNotAKey(itemClass: String) -> KeychainError {
        KeychainError(.invalidParameter, "The reference names a \(itemClass) item, not a key.")
    }

    /// `.invalidParameter`: The key was not generated inside the keychain
    /// (kSecAttrTokenIDSecureEnclave).
    package static func notATokenKey() -> KeychainError {
        KeychainError(
            .invalidParameter, "The key was not generated inside the keychain (kSecAttrTokenIDSecureEnclave).")
    }

    /// `.interactionNotAllowed`: Using the key needs user authentication, which the call skips.
    package static func keyUseNeedsAuthentication() -> KeychainError {
        KeychainError(.interactionNotAllowed, "Using the key needs user authentication, which the call skips.")
    }

    // MARK: - Model

    /// `.invalidParameter`: '`raw`' is not a valid value for the attribute pdmn
    /// (kSecAttrAccessible); use one of the kSecAttrAccessible… constants.
    package static func invalidAccessibilityValue(raw: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "'\(raw)' is not a valid value for the attribute pdmn (kSecAttrAccessible); use one of the kSecAttrAccessible… constants."
        )
    }

    /// `.invalidParameter`: The attribute `key` (`expectation`) cannot take a `valueType` value.
    package static func attributeValueOfWrongType(key: AttributeKey, expectation: String, valueType: String)
        -> KeychainError
    {
        KeychainError(.invalidParameter, "The attribute \(key) (\(expectation)) cannot take a \(valueType) value.")
    }

    /// `.invalidParameter`: Secret Service attributes encoded in `size` bytes, more than `limit`.
    package static func secretServiceAttributesTooLarge(size: Int, limit: Int) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The Secret Service attributes take \(size) bytes encoded, more than the \(limit) an item's generic attribute may hold. Store fewer or shorter attributes."
        )
    }

    /// `.invalidParameter`: An item's generic attribute does not hold well-formed Secret Service
    /// attributes; `what` says how.
    package static func secretServiceAttributesMalformed(_ what: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The item's generic attribute does not hold well-formed Secret Service attributes: \(what). It was written by another program or damaged; rewrite the item's attributes."
        )
    }

    // MARK: - Import (GNOME Keyring)

    /// `.authFailed`: The password does not open the GNOME keyring `keyring`.
    package static func gnomeKeyringWrongPassword(keyring: String) -> KeychainError {
        KeychainError(
            .authFailed,
            "Wrong password for keyring '\(keyring)': the decrypted data does not match its checksum. Nothing was imported; give the password the keyring was unlocked with (usually your login password at the time it was created)."
        )
    }

    /// `.invalidParameter`: The GNOME keyring file of `keyring` is damaged; `what` says where.
    package static func gnomeKeyringDamaged(keyring: String, what: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The GNOME keyring file of keyring '\(keyring)' is damaged or not a keyring file: \(what). Nothing was imported from it and it was not changed; restore it from a backup."
        )
    }

    /// `.unimplemented`: The GNOME keyring file of `keyring` uses a format version this reader
    /// does not know.
    package static func gnomeKeyringUnsupported(keyring: String, what: String) -> KeychainError {
        KeychainError(
            .unimplemented,
            "The GNOME keyring file of keyring '\(keyring)' uses a format this tool does not read (\(what)); only version 0.0 with AES and MD5, and the textual format, are. Nothing was imported."
        )
    }

    /// `.integrityViolation`: Item `itemID` of keyring `keyring`, read back after it was
    /// written, differs from the keyring's.
    package static func gnomeKeyringVerificationFailed(keyring: String, itemID: some BinaryInteger) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "Item \(itemID) of keyring '\(keyring)' read back from the keychain differs from the keyring's (another process changed it during the import?). The import stopped there and the keyring file is untouched; run the same command again, which resumes."
        )
    }

    /// `.integrityViolation`: The import journal of the keyring file `path` cannot be read.
    package static func gnomeKeyringJournalUnreadable(path: String) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The keychain's record of the GNOME Keyring import of \(path) cannot be read (damaged). Nothing was imported; restore the keychain from a backup."
        )
    }

    /// `.invalidParameter`: The GNOME keyring file of `keyring` is larger than `limit` bytes.
    package static func gnomeKeyringTooLarge(keyring: String, size: Int, limit: Int) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "The GNOME keyring file of keyring '\(keyring)' is \(size) bytes, more than the \(limit) a keyring file can plausibly be. Nothing was imported; check that it is a keyring file."
        )
    }

    // MARK: - Storage

    /// `.integrityViolation`: The keychain's header or keybag fails its authentication check: it
    /// was edited or partly replaced.
    package static func headerAuthenticationFailed() -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The keychain's header or keybag fails its authentication check: it was edited or partly replaced. Nothing was unlocked or derived. Restore the keychain from a backup."
        )
    }

    /// `.integrityViolation`: The keychain's header and keybag are not the ones this machine
    /// recorded beside its device key (`anchorFile`): an older header or keybag was put back, or
    /// the anchor is missing or damaged.
    package static func headerNotTheRecordedOne(anchorFile: String) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The keychain's header and keybag are not the ones this machine recorded beside its device key (\(anchorFile)): an older header or keybag was put back, or the anchor is missing or damaged. Nothing was unlocked or derived. Restore the keychain from a backup."
        )
    }

    /// `.integrityViolation`: The format anchor `path` is damaged or forged.
    package static func formatAnchorDamaged(path: String) -> KeychainError {
        KeychainError(
            .integrityViolation,
            "The format anchor \(path) is damaged or forged. It records which format and header this keychain has; without a valid one the keychain cannot prove it was not downgraded or spliced. Restore it (and the keychain) from a backup of this machine."
        )
    }

    /// `.keychainUnavailable`: SQLite refused defensive mode (SQLITE_DBCONFIG_DEFENSIVE); this
    /// SQLite is too old for the keychain (3.26 or newer is needed).
    package static func sqliteRefusedDefensiveMode() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "SQLite refused defensive mode (SQLITE_DBCONFIG_DEFENSIVE); this SQLite is too old for the keychain (3.26 or newer is needed)."
        )
    }

    /// `.keychainUnavailable`: SQLite refused the keychain's connection settings: `reason`.
    package static func sqliteRefusedConnectionSettings(reason: String) -> KeychainError {
        KeychainError(.keychainUnavailable, "SQLite refused the keychain's connection settings: \(reason).")
    }

    /// `.keychainUnavailable`: SQLite refused to keep the keychain's write-ahead log between
    /// connections (SQLITE_FCNTL_PERSIST_WAL).
    package static func sqliteRefusedPersistentWAL() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "SQLite refused to keep the keychain's write-ahead log between connections (SQLITE_FCNTL_PERSIST_WAL).")
    }

    /// `.keychainUnavailable`: Keychain access failed: `error`.
    package static func keychainAccessFailed(error: any Error) -> KeychainError {
        KeychainError(.keychainUnavailable, "Keychain access failed: \(error).")
    }

    /// `.duplicateItem`: An item with the same primary key already exists in the keychain; update
    /// it instead, or delete it first.
    package static func duplicatePrimaryKey() -> KeychainError {
        KeychainError(
            .duplicateItem,
            "An item with the same primary key already exists in the keychain; update it instead, or delete it first.")
    }

    /// `.diskFull`: The disk holding `path` is full; nothing was written.
    package static func keychainDiskFull(path: String) -> KeychainError {
        KeychainError(.diskFull, "The disk holding \(path) is full; nothing was written. Free some space and retry.")
    }

    /// `.busy`: Another process kept the keychain at `path` busy longer than the busy timeout;
    /// nothing was written.
    package static func keychainBusy(path: String) -> KeychainError {
        KeychainError(
            .busy,
            "Another process kept the keychain at \(path) busy longer than the busy timeout; nothing was written. Retry."
        )
    }

    /// `.readOnly`: The keychain at `path` is read-only: `reason`.
    package static func keychainFileReadOnly(path: String, reason: String) -> KeychainError {
        KeychainError(.readOnly, "The keychain at \(path) is read-only: \(reason).")
    }

    /// `.ioError`: I/O error on the keychain at `path`: `reason`.
    package static func keychainIOError(path: String, reason: String) -> KeychainError {
        KeychainError(
            .ioError,
            "I/O error on the keychain at \(path): \(reason). The disk may be full, over a size limit or failing; the operation did not complete and stored items are unchanged. Free some space or check the disk, then retry."
        )
    }

    /// `.outOfMemory`: Out of memory while using the keychain at `path`.
    package static func keychainOutOfMemory(path: String) -> KeychainError {
        KeychainError(.outOfMemory, "Out of memory while using the keychain at \(path).")
    }

    /// `.invalidKeychain`: `path` is not a keychain database.
    package static func notAKeychainDatabase(path: String) -> KeychainError {
        KeychainError(.invalidKeychain, "\(path) is not a keychain database. Move it aside or choose another location.")
    }

    /// `.keychainUnavailable`: The keychain database at `path` is corrupted: `reason`.
    package static func keychainDatabaseCorrupted(path: String, reason: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable, "The keychain database at \(path) is corrupted: \(reason). Restore it from a backup.")
    }

    /// `.keychainUnavailable`: The keychain at `path` cannot be used: `reason`.
    package static func keychainUnusable(path: String, reason: String) -> KeychainError {
        KeychainError(.keychainUnavailable, "The keychain at \(path) cannot be used: \(reason).")
    }

    /// `.invalidKeychain`: `path` is an SQLite database but not a keychain.
    package static func sqliteDatabaseNotAKeychain(path: String) -> KeychainError {
        KeychainError(
            .invalidKeychain,
            "\(path) is an SQLite database but not a keychain. Move it aside or choose another location.")
    }

    /// `.unsupportedVersion`: The keychain at `path` has format `format`; this library reads format
    /// … and older.
    package static func keychainFormatTooNew(path: String, format: some BinaryInteger) -> KeychainError {
        KeychainError(
            .unsupportedVersion,
            "The keychain at \(path) has format \(format); this library reads format \(KeychainSchema.formatVersion) and older. Upgrade SecureStorage to open it."
        )
    }

    // MARK: - Support

    /// `.keychainUnavailable`: A passphrase file owned by another user than the current one.
    package static func passphraseFileNotYours(path: String, owner: some BinaryInteger, currentUser: some BinaryInteger)
        -> KeychainError
    {
        KeychainError(
            .keychainUnavailable,
            "\(path) is owned by user id \(owner), not by the current user (\(currentUser)); a passphrase file must be your own."
        )
    }

    /// `.keychainUnavailable`: A passphrase file other users can read.
    package static func passphraseFileReadableByOthers(path: String, mode: some BinaryInteger) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(path) is readable by other users (mode \(String(mode, radix: 8))), so its passphrase is not used. Fix it with `chmod 600 \(path)`."
        )
    }

    /// `.keychainUnavailable`: A systemd credential that `who` (other than its owner and root)
    /// can read or replace.
    package static func credentialReadableByOthers(path: String, mode: some BinaryInteger, who: String) -> KeychainError
    {
        KeychainError(
            .keychainUnavailable,
            "\(path) can be read or replaced by \(who) (mode \(String(mode, radix: 8))), so its passphrase is not used. "
                + "Keep the credential 0400 and root's or yours, granting only the service's user with LoadCredential= (systemd adds that ACL itself)."
        )
    }

    /// `.keychainUnavailable`: Cannot create `temporary`: a file of that name is already there, and
    /// it is not this writer's.
    package static func temporaryFileExists(temporary: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "Cannot create \(temporary): a file of that name is already there, and it is not this writer's. Remove it and retry."
        )
    }

    /// `.keychainUnavailable`: `path` belongs to another user (user id `owner`), and this directory
    /// lets only a file's owner replace it; nothing was written to it.
    package static func fileOwnedByAnotherUser(path: String, owner: some BinaryInteger) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(path) belongs to another user (user id \(owner)), and this directory lets only a file's owner replace it; nothing was written to it. Choose another name or directory."
        )
    }

    /// `.invalidParameter`: `path` already exists; choose another name or allow replacing it.
    package static func fileExists(path: String) -> KeychainError {
        KeychainError(.invalidParameter, "\(path) already exists; choose another name or allow replacing it.")
    }

    /// `.keychainUnavailable`: `path` is not a regular file (a pipe, device or directory is in its
    /// place).
    package static func notARegularFile(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(path) is not a regular file (a pipe, device or directory is in its place). Remove it; the keychain does not read from it."
        )
    }

    /// `.keychainUnavailable`: `path` holds `size` bytes, more than the `maximumSize` such a file
    /// can hold: it is not the file the keychain wrote.
    package static func fileTooLarge(path: String, size: some BinaryInteger, maximumSize: some BinaryInteger)
        -> KeychainError
    {
        KeychainError(
            .keychainUnavailable,
            "\(path) holds \(size) bytes, more than the \(maximumSize) such a file can hold: it is not the file the keychain wrote. Remove or restore it."
        )
    }

    /// `.keychainUnavailable`: `path` grew past the `maximumSize` bytes such a file can hold while
    /// it was read.
    package static func fileGrewTooLarge(path: String, maximumSize: some BinaryInteger) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(path) grew past the \(maximumSize) bytes such a file can hold while it was read. Remove or restore it.")
    }

    /// `.diskFull`: `what`: `reason`.
    package static func systemCallDiskFull(what: String, reason: String) -> KeychainError {
        KeychainError(.diskFull, "\(what): \(reason). Free some space and retry; nothing was changed.")
    }

    /// `.keychainUnavailable`: `what`: `reason`.
    package static func systemCallPermissionDenied(what: String, reason: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable, "\(what): \(reason). Check that the current user owns the keychain directories.")
    }

    /// `.readOnly`: `what`: `reason`.
    package static func systemCallReadOnly(what: String, reason: String) -> KeychainError {
        KeychainError(.readOnly, "\(what): \(reason).")
    }

    /// `.keychainUnavailable`: `what`: the path is a symbolic link, which the keychain refuses to
    /// follow.
    package static func systemCallSymbolicLink(what: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(what): the path is a symbolic link, which the keychain refuses to follow. Replace it with a regular file."
        )
    }

    /// `.ioError`: `what`: `reason`.
    package static func systemCallFailed(what: String, reason: String) -> KeychainError {
        KeychainError(.ioError, "\(what): \(reason).")
    }

    /// `.keychainUnavailable`: The lock file `path` is a symbolic link, which the keychain does not
    /// follow; nothing was changed.
    package static func lockFileSymbolicLink(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The lock file \(path) is a symbolic link, which the keychain does not follow; nothing was changed. Remove the link (the keychain creates the file again)."
        )
    }

    /// `.keychainUnavailable`: The lock file `path` is not a regular file of yours that only you
    /// can open (owner `owner`, mode …): another process may hold its lock for ever, so the
    /// keychain does not use it; nothing was changed.
    package static func lockFileNotPrivate(path: String, owner: some BinaryInteger, mode: some BinaryInteger)
        -> KeychainError
    {
        KeychainError(
            .keychainUnavailable,
            "The lock file \(path) is not a regular file of yours that only you can open (owner \(owner), mode \(String(mode, radix: 8))): another process may hold its lock for ever, so the keychain does not use it; nothing was changed. Remove it (it holds nothing; the keychain creates it again)."
        )
    }

    /// `.keychainUnavailable`: `path` was created but is not a private file of this user (owner
    /// `owner`, mode …, `linkCount` links), so nothing was written to it.
    package static func createdFileNotPrivate(
        path: String, owner: some BinaryInteger, mode: some BinaryInteger, linkCount: some BinaryInteger
    ) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(path) was created but is not a private file of this user (owner \(owner), mode \(String(mode, radix: 8)), \(linkCount) links), so nothing was written to it. Check the directory's permissions, ACLs and mount options."
        )
    }

    /// `.keychainUnavailable`: `path` is owned by user id `owner`, neither the current user
    /// (`currentUser`) nor root; the credential is not used.
    package static func credentialOwnedByAnotherUser(
        path: String, owner: some BinaryInteger, currentUser: some BinaryInteger
    ) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "\(path) is owned by user id \(owner), neither the current user (\(currentUser)) nor root; the credential is not used."
        )
    }

    /// `.busy`: The lock `path` is held by another process and was still held after `timeout` (that
    /// process is creating, opening or upgrading the keychain there, or it is stuck); nothing was
    /// changed.
    package static func lockTimeout(path: String, timeout: String) -> KeychainError {
        KeychainError(
            .busy,
            "The lock \(path) is held by another process and was still held after \(timeout) (that process is creating, opening or upgrading the keychain there, or it is stuck); nothing was changed. Try again; if it keeps happening, find that process with `lslocks` or `fuser -v \(path)` and stop it."
        )
    }

    /// `.keychainUnavailable`: Cannot create the directory `directory`: `reason`
    package static func directoryCreationFailed(directory: String, reason: String) -> KeychainError {
        KeychainError(.keychainUnavailable, "Cannot create the directory \(directory): \(reason)")
    }

    /// `.keychainUnavailable`: The `role` `path` belongs to another user (user id `owner`), not to
    /// you (user id `currentUserID`): whoever owns it can read or replace what the keychain keeps
    /// there, so the keychain does not use it.
    package static func directoryOwnedByAnotherUser(
        role: String, path: String, owner: some BinaryInteger, currentUserID: some BinaryInteger
    ) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The \(role) \(path) belongs to another user (user id \(owner)), not to you (user id \(currentUserID)): whoever owns it can read or replace what the keychain keeps there, so the keychain does not use it. Do not take it over: remove it (ask its owner or an administrator if you cannot) so that the keychain creates its own, or choose another location (SECURE_STORAGE_HOME, XDG_DATA_HOME and XDG_STATE_HOME, or a KeychainLocation)."
        )
    }

    /// `.keychainUnavailable`: The `role` `path` can be written by other users (mode …): they could
    /// have planted or replaced files in it, so the keychain does not use it.
    package static func directoryWritableByOthers(role: String, path: String, mode: some BinaryInteger) -> KeychainError
    {
        KeychainError(
            .keychainUnavailable,
            "The \(role) \(path) can be written by other users (mode \(String(mode, radix: 8))): they could have planted or replaced files in it, so the keychain does not use it. Move it aside and let the keychain create a new one, or, if you are sure only you ever wrote to it, make it private with `chmod 700 \(path)`."
        )
    }

    /// `.keychainUnavailable`: The `role` `path` is a symbolic link, which the keychain does not
    /// follow (whoever can change the link could point it anywhere).
    package static func directoryIsSymbolicLink(role: String, path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The \(role) \(path) is a symbolic link, which the keychain does not follow (whoever can change the link could point it anywhere). Replace the link with a real directory, or point the keychain at the directory itself (SECURE_STORAGE_HOME, XDG_DATA_HOME and XDG_STATE_HOME, or a KeychainLocation)."
        )
    }

    /// `.keychainUnavailable`: The `role` `path` is not a directory (a file of that name is in its
    /// place).
    package static func directoryIsAFile(role: String, path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The \(role) \(path) is not a directory (a file of that name is in its place). Move it aside so that the keychain can create the directory, or choose another location."
        )
    }

    /// `.keychainUnavailable`: The unlock session's key in the kernel keyring could not be made
    /// private to you or given its expiry (`reason`); it was removed, no new session was kept, and
    /// any session you had is unchanged.
    package static func sessionKeyNotPrivate(reason: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The unlock session's key in the kernel keyring could not be made private to you or given its expiry (\(reason)); it was removed, no new session was kept, and any session you had is unchanged. \(KernelKeyring.alternatives)"
        )
    }

    /// `.keychainUnavailable`: The kernel keyring refused the unlock session (`reason`), so no new
    /// session was kept; any session you had is unchanged.
    package static func keyringRefusedSession(reason: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The kernel keyring refused the unlock session (\(reason)), so no new session was kept; any session you had is unchanged. \(KernelKeyring.alternatives)"
        )
    }

    /// `.keychainUnavailable`: The kernel keyring refused the unlock session because your quota of
    /// keys is used up, so no new session was kept; any session you had is unchanged.
    package static func keyringQuotaExhausted(quota: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The kernel keyring refused the unlock session because your quota of keys is used up, so no new session was kept; any session you had is unchanged. The kernel lets the keys of each user, of every program together, take \(quota); /proc/key-users shows your use (the qnkeys and qnbytes columns). Free some: `keychain lock` in each keychain you no longer use removes its session, or `keyctl get_persistent @s && keyctl purge -p user secure-storage:unlock:` removes every keychain's session (each is unlocked again when needed). Sessions without --timeout now leave the keyring after a day unused. An administrator can raise the quota (sysctl kernel.keys.maxbytes and kernel.keys.maxkeys)."
        )
    }

    /// `.keychainUnavailable`: There is no runtime directory ($XDG_RUNTIME_DIR, or /run/user/… as
    /// systemd makes it) and the kernel keyring is not available to this process (keyctl:
    /// `reason`, then `blockedNote`), so no unlock session can be kept.
    package static func noRuntimeDirectoryNorKeyring(reason: String, blockedNote: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "There is no runtime directory ($XDG_RUNTIME_DIR, or /run/user/\(PlatformIO.currentUserID) as systemd makes it) and the kernel keyring is not available to this process (keyctl: \(reason)\(blockedNote)), so no unlock session can be kept. \(KernelKeyring.alternatives)"
        )
    }

    /// `.keychainUnavailable`: The `role` at `path` is a symbolic link, which the keychain refuses
    /// to follow.
    package static func protectedFileIsSymbolicLink(role: String, path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The \(role) at \(path) is a symbolic link, which the keychain refuses to follow. Replace it with the file it points to."
        )
    }

    /// `.keychainUnavailable`: The `role` at `path` is not a regular file (a pipe, socket or device
    /// is in its place), so the keychain does not open it.
    package static func protectedFileNotRegular(role: String, path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The \(role) at \(path) is not a regular file (a pipe, socket or device is in its place), so the keychain does not open it. Remove it, and restore the file from a backup if it was replaced."
        )
    }

    /// `.keychainUnavailable`: The `role` at `path` is owned by user id `owner`, not by the current
    /// user (…).
    package static func protectedFileOwnedByAnotherUser(role: String, path: String, owner: some BinaryInteger)
        -> KeychainError
    {
        KeychainError(
            .keychainUnavailable,
            "The \(role) at \(path) is owned by user id \(owner), not by the current user (\(PlatformIO.currentUserID)). Run as its owner, or fix it with `chown $(id -u) \(path)`."
        )
    }

    /// `.keychainUnavailable`: The `role` at `path` is accessible to other users (mode …).
    package static func protectedFileAccessibleToOthers(role: String, path: String, mode: some BinaryInteger)
        -> KeychainError
    {
        KeychainError(
            .keychainUnavailable,
            "The \(role) at \(path) is accessible to other users (mode \(String(mode, radix: 8))). Fix it with `chmod 600 \(path)` and reopen."
        )
    }

    // MARK: - Integrity of the keychain file

    /// `.integrityViolation`, tampered keychain: The `table` table's `column` column holds a value
    /// of the wrong type
    package static func tamperedColumnType(table: String, column: String) -> KeychainError {
        tampered("the \(table) table's \(column) column holds a value of the wrong type")
    }

    /// `.integrityViolation`, tampered keychain: The `table` table's `column` column is missing or
    /// holds a value of the wrong type
    package static func tamperedColumnMissingOrType(table: String, column: String) -> KeychainError {
        tampered("the \(table) table's \(column) column is missing or holds a value of the wrong type")
    }

    /// `.integrityViolation`, tampered keychain: The keychain's format anchor is missing
    package static func tamperedFormatAnchorMissing() -> KeychainError {
        tampered("the keychain's format anchor is missing")
    }

    /// `.integrityViolation`, tampered keychain: The keychain header is missing
    package static func tamperedHeaderMissing() -> KeychainError {
        tampered("the keychain header is missing")
    }

    /// `.integrityViolation`, tampered keychain: The items table's `name` column holds a value of
    /// the wrong type
    package static func tamperedItemColumnType(name: String) -> KeychainError {
        tampered("the items table's \(name) column holds a value of the wrong type")
    }

    /// `.integrityViolation`, tampered keychain: An item row has `columnCount` columns, not 16
    package static func tamperedItemRowColumnCount(columnCount: Int) -> KeychainError {
        tampered("an item row has \(columnCount) columns, not 16")
    }

    /// `.integrityViolation`, tampered keychain: An item row has no valid item id
    package static func tamperedItemRowWithoutItemID() -> KeychainError {
        tampered("an item row has no valid item id")
    }

    /// `.integrityViolation`, tampered keychain: An item row names an unknown class
    package static func tamperedItemRowClass() -> KeychainError {
        tampered("an item row names an unknown class")
    }

    /// `.integrityViolation`, tampered keychain: An item row names an unknown accessibility
    package static func tamperedItemRowAccessibility() -> KeychainError {
        tampered("an item row names an unknown accessibility")
    }

    /// `.integrityViolation`, tampered keychain: An item row's synchronizable flag is neither 0 nor
    /// 1
    package static func tamperedItemRowSynchronizable() -> KeychainError {
        tampered("an item row's synchronizable flag is neither 0 nor 1")
    }

    /// `.integrityViolation`, tampered keychain: The keybag has an unknown slot
    package static func tamperedKeybagUnknownSlot() -> KeychainError {
        tampered("the keybag has an unknown slot")
    }

    /// `.integrityViolation`, tampered keychain: Its migration records (`migrations`) are not those
    /// of any keychain format
    package static func tamperedMigrationRecords(migrations: String) -> KeychainError {
        tampered("its migration records (\(migrations)) are not those of any keychain format")
    }

    /// `.integrityViolation`, tampered keychain: Its schema is not that of a format-`schemaFormat`
    /// keychain (`difference`)
    package static func tamperedSchema(schemaFormat: Int, difference: String) -> KeychainError {
        tampered("its schema is not that of a format-\(schemaFormat) keychain (\(difference))")
    }

    /// `.integrityViolation`, tampered keychain: Its header claims format `headerFormat` but its
    /// schema is that of format `schemaFormat`
    package static func tamperedHeaderFormat(headerFormat: String, schemaFormat: Int) -> KeychainError {
        tampered("its header claims format \(headerFormat) but its schema is that of format \(schemaFormat)")
    }

    /// `.integrityViolation`, tampered keychain: The keychain header has no valid vault id
    package static func tamperedHeaderVaultID() -> KeychainError {
        tampered("the keychain header has no valid vault id")
    }

    /// `.integrityViolation`, tampered keychain: An enrolment holds a key that is not the
    /// keychain's presence key
    package static func tamperedEnrolmentKey() -> KeychainError {
        tampered("an enrolment holds a key that is not the keychain's presence key")
    }

    /// `.integrityViolation`: Items are sealed to a presence key, but the keybag holds none.
    static func presenceSlotsRemoved() -> KeychainError {
        tampered(
            "protected items are sealed to a presence key, but the keybag holds none: its presence slots were removed")
    }

    /// `.integrityViolation`, tampered keychain: A TPM key's stored blob is damaged
    package static func tamperedTPMKeyBlob() -> KeychainError {
        tampered("a TPM key's stored blob is damaged")
    }

    /// `.integrityViolation`, tampered keychain: The TPM refused a key's stored authorization value
    package static func tamperedTPMKeyAuthorization() -> KeychainError {
        tampered("the TPM refused a key's stored authorization value")
    }

    /// `.integrityViolation`, tampered keychain: The keybag has presence enrolments without a
    /// presence key
    package static func tamperedEnrolmentsWithoutPresenceKey() -> KeychainError {
        tampered("the keybag has presence enrolments without a presence key")
    }

    /// `.integrityViolation`, tampered keychain: The keychain header names another vault
    package static func tamperedHeaderOfAnotherVault() -> KeychainError {
        tampered("the keychain header names another vault")
    }

    /// `.integrityViolation`, tampered keychain: The keybag generation went backwards
    package static func tamperedKeybagGeneration() -> KeychainError {
        tampered("the keybag generation went backwards")
    }

    /// `.integrityViolation`, tampered keychain: A class key in the keybag does not unwrap with the
    /// device key
    package static func tamperedDeviceClassKey() -> KeychainError {
        tampered("a class key in the keybag does not unwrap with the device key")
    }

    /// `.integrityViolation`, tampered keychain: The keybag has no class C key
    package static func tamperedMissingClassCKey() -> KeychainError {
        tampered("the keybag has no class C key")
    }

    /// `.integrityViolation`, tampered keychain: The keybag has no key for `accessibility`
    package static func tamperedMissingClassKey(accessibility: String) -> KeychainError {
        tampered("the keybag has no key for \(accessibility)")
    }

    /// `.integrityViolation`, tampered keychain: The class key for `accessibility` does not unwrap
    /// with the device key
    package static func tamperedClassKey(accessibility: String) -> KeychainError {
        tampered("the class key for \(accessibility) does not unwrap with the device key")
    }

    /// `.integrityViolation`, tampered keychain: The keychain's tables are gone
    package static func tamperedTablesGone() -> KeychainError {
        tampered("the keychain's tables are gone")
    }

    /// `.integrityViolation`, tampered keychain: An item row names an unknown class or
    /// accessibility
    package static func tamperedItemRowClassOrAccessibility() -> KeychainError {
        tampered("an item row names an unknown class or accessibility")
    }

    /// `.integrityViolation`, tampered keychain: A persistent reference selected a row that is not
    /// the item it names (row ids or item ids were edited)
    package static func tamperedPersistentReferenceRow() -> KeychainError {
        tampered(
            "a persistent reference selected a row that is not the item it names (row ids or item ids were edited)")
    }

    /// `.integrityViolation`, tampered keychain: A row selected by its lookup columns fails its row
    /// seal or does not have them (lookup columns, tags or indexes were edited)
    package static func tamperedLookupColumns() -> KeychainError {
        tampered(
            "a row selected by its lookup columns fails its row seal or does not have them (lookup columns, tags or indexes were edited)"
        )
    }

    /// `.integrityViolation`, tampered keychain: A row was selected by lookup values its own
    /// attributes do not have (lookup columns, tags or indexes were edited)
    package static func tamperedLookupValues() -> KeychainError {
        tampered(
            "a row was selected by lookup values its own attributes do not have (lookup columns, tags or indexes were edited)"
        )
    }

    /// `.integrityViolation`, tampered keychain: An identity joined a certificate and a key that do
    /// not belong together (link columns were edited)
    package static func tamperedIdentityLink() -> KeychainError {
        tampered("an identity joined a certificate and a key that do not belong together (link columns were edited)")
    }

    /// `.integrityViolation`, tampered keychain: The attributes of a `itemClass` item disagree with
    /// its row
    package static func tamperedAttributesDisagree(itemClass: String) -> KeychainError {
        tampered("the attributes of a \(itemClass) item disagree with its row")
    }

    /// `.integrityViolation`, tampered keychain: A protected item's data key is not sealed to the
    /// keychain's presence key
    package static func tamperedPresenceSealing() -> KeychainError {
        tampered("a protected item's data key is not sealed to the keychain's presence key")
    }

    /// `.integrityViolation`, tampered keychain: An item selected as written before format 6 does
    /// not carry the tag its row seal would prove
    package static func tamperedPreFormat6Item() -> KeychainError {
        tampered("an item selected as written before format 6 does not carry the tag its row seal would prove")
    }

    /// `.integrityViolation`, tampered keychain: A row marked whenPasscodeSetThisDeviceOnly fails
    /// its row seal (its accessibility column was edited); the passphrase was not removed and
    /// nothing was deleted
    package static func tamperedPasscodeSetRow() -> KeychainError {
        tampered(
            "a row marked whenPasscodeSetThisDeviceOnly fails its row seal (its accessibility column was edited); the passphrase was not removed and nothing was deleted"
        )
    }

    /// `.integrityViolation`, tampered keychain: A primary-key lookup selected a row with another
    /// primary key (an index was edited)
    package static func tamperedPrimaryKeyLookup() -> KeychainError {
        tampered("a primary-key lookup selected a row with another primary key (an index was edited)")
    }

    /// `.integrityViolation`, tampered keychain: A protected item's attributes do not record how
    /// its data was sealed
    package static func tamperedSealingRecord() -> KeychainError {
        tampered("a protected item's attributes do not record how its data was sealed")
    }

    /// `.integrityViolation`, tampered keychain: The data key of a `itemClass` item has the wrong
    /// length
    package static func tamperedDataKeyLength(itemClass: String) -> KeychainError {
        tampered("the data key of a \(itemClass) item has the wrong length")
    }

    /// `.integrityViolation`, tampered keychain: An item's presence wrap has the wrong length
    package static func tamperedPresenceWrapLength() -> KeychainError {
        tampered("an item's presence wrap has the wrong length")
    }

    /// `.integrityViolation`, tampered keychain: The `half` key of a `itemClass` item does not
    /// unwrap with the keys of its protection class `accessibility`
    package static func tamperedItemKey(half: String, itemClass: String, accessibility: String) -> KeychainError {
        tampered(
            "the \(half) key of a \(itemClass) item does not unwrap with the keys of its protection class \(accessibility)"
        )
    }

    /// `.integrityViolation`, tampered keychain: The `name` of a `itemClass` item do not
    /// authenticate against its row
    package static func tamperedItemHalf(name: String, itemClass: String) -> KeychainError {
        tampered("the \(name) of a \(itemClass) item do not authenticate against its row")
    }

    /// `.integrityViolation`, tampered keychain: The `name` of a `itemClass` item have invalid
    /// padding
    package static func tamperedItemPadding(name: String, itemClass: String) -> KeychainError {
        tampered("the \(name) of a \(itemClass) item have invalid padding")
    }

    /// `.integrityViolation`, tampered keychain: The keybag has no index key
    package static func tamperedMissingIndexKey() -> KeychainError {
        tampered("the keybag has no index key")
    }

    /// `.integrityViolation`, tampered keychain: The `slot` key does not unwrap with the device key
    package static func tamperedSlotKey(slot: String) -> KeychainError {
        tampered("the \(slot) key does not unwrap with the device key")
    }

    /// `.integrityViolation`, tampered keychain: The keychain's presence public key is not an
    /// X25519 key
    package static func tamperedPresencePublicKey() -> KeychainError {
        tampered("the keychain's presence public key is not an X25519 key")
    }

    /// `.integrityViolation`, tampered keychain: An item's secret key does not unwrap with the
    /// keychain's presence key
    package static func tamperedPresenceWrappedKey() -> KeychainError {
        tampered("an item's secret key does not unwrap with the keychain's presence key")
    }

    /// `.integrityViolation`, tampered keychain: A protected key's attributes lost its public key
    package static func tamperedProtectedKeyPublicKey() -> KeychainError {
        tampered("a protected key's attributes lost its public key")
    }

    /// `.integrityViolation`, tampered keychain: A TPM key's attributes lost its public key
    package static func tamperedTPMKeyPublicKey() -> KeychainError {
        tampered("a TPM key's attributes lost its public key")
    }

    /// `.integrityViolation`, tampered keychain: A stored private key is not a valid EC key
    package static func tamperedStoredPrivateKey() -> KeychainError {
        tampered("a stored private key is not a valid EC key")
    }

    // MARK: - Integrity of backups

    /// `.integrityViolation`, tampered backup `source`: it holds `seen` items but its trailer says
    /// `trailerCount`
    package static func backupItemCountMismatch(
        source: String, seen: some BinaryInteger, trailerCount: some BinaryInteger
    ) -> KeychainError {
        backupTampered(source: source, what: "it holds \(seen) items but its trailer says \(trailerCount)")
    }

    /// `.integrityViolation`, tampered backup `source`: it ends before its last chunk
    package static func backupTruncatedBeforeLastChunk(source: String) -> KeychainError {
        backupTampered(source: source, what: "it ends before its last chunk")
    }

    /// `.integrityViolation`, tampered backup `source`: a chunk claims `length` bytes
    package static func backupChunkLength(source: String, length: some BinaryInteger) -> KeychainError {
        backupTampered(source: source, what: "a chunk claims \(length) bytes")
    }

    /// `.integrityViolation`, tampered backup `source`: it ends inside a chunk
    package static func backupTruncatedInsideChunk(source: String) -> KeychainError {
        backupTampered(source: source, what: "it ends inside a chunk")
    }

    /// `.integrityViolation`, tampered backup `source`: its header is corrupted (checksum mismatch)
    package static func backupHeaderChecksum(source: String) -> KeychainError {
        backupTampered(source: source, what: "its header is corrupted (checksum mismatch)")
    }

    /// `.integrityViolation`, tampered backup `source`: its header is malformed
    package static func backupHeaderMalformed(source: String) -> KeychainError {
        backupTampered(source: source, what: "its header is malformed")
    }

    /// `.integrityViolation`, tampered backup `source`: its header asks for key-derivation
    /// parameters out of range (`parameters`)
    package static func backupHeaderParameters(source: String, parameters: ScryptParameters) -> KeychainError {
        backupTampered(
            source: source, what: "its header asks for key-derivation parameters out of range (\(parameters))")
    }

    /// `.integrityViolation`, tampered backup `source`: a record in chunk `chunk` is malformed
    package static func backupRecordMalformed(source: String, chunk: some BinaryInteger) -> KeychainError {
        backupTampered(source: source, what: "a record in chunk \(chunk) is malformed")
    }

    /// `.integrityViolation`, tampered backup `source`: its trailer is misplaced or malformed
    package static func backupTrailerMalformed(source: String) -> KeychainError {
        backupTampered(source: source, what: "its trailer is misplaced or malformed")
    }

    /// `.integrityViolation`, tampered backup `source`: a record in chunk `chunk` has an unknown
    /// kind
    package static func backupRecordKind(source: String, chunk: some BinaryInteger) -> KeychainError {
        backupTampered(source: source, what: "a record in chunk \(chunk) has an unknown kind")
    }

    /// `.integrityViolation`, tampered backup `source`: its last chunk has no trailer
    package static func backupWithoutTrailer(source: String) -> KeychainError {
        backupTampered(source: source, what: "its last chunk has no trailer")
    }

    /// `.integrityViolation`, tampered backup `source`: chunk `chunk` failed authentication
    /// (edited, reordered, or the file was cut short)
    package static func backupChunkAuthentication(source: String, chunk: some BinaryInteger) -> KeychainError {
        backupTampered(
            source: source, what: "chunk \(chunk) failed authentication (edited, reordered, or the file was cut short)")
    }
}
