/// The one error type of ``Keychain``: what went wrong, the OSStatus Apple's keychain reports in
/// the same situation, and a message that says what to do. Messages never contain secret data
/// (no item data, passphrases or keys; no attribute values).
///
/// ```swift
/// do {
///     try keychain.add(item)
/// } catch let error as KeychainError where error.code == .duplicateItem {
///     try keychain.update(query, with: ItemChanges(data: newSecret))
/// }
/// ```
public struct KeychainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; each maps to one OSStatus.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// No item matched (`errSecItemNotFound`, -25300).
        case itemNotFound
        /// An item with the same primary key exists (`errSecDuplicateItem`, -25299).
        case duplicateItem
        /// The item's protection class is locked (`errSecInteractionNotAllowed`, -25308).
        case interactionNotAllowed
        /// Wrong passphrase, or a passcode-set item without a passphrase (`errSecAuthFailed`, -25293).
        case authFailed
        /// The user cancelled an authentication (`errSecUserCanceled`, -128).
        case userCanceled
        /// A malformed query, attribute value or argument (`errSecParam`, -50).
        case invalidParameter
        /// The attribute does not exist for the item's class (`errSecNoSuchAttr`, -25303).
        case noSuchAttribute
        /// The item class is unknown or has no storage (`errSecNoSuchClass`, -25306).
        case noSuchClass
        /// The caller is not entitled to the access group (`errSecMissingEntitlement`, -34018).
        case missingEntitlement
        /// The operation is not supported on this platform (`errSecUnimplemented`, -4).
        case unimplemented
        /// The operation does not fit the keychain's state, e.g. locking a keychain without a
        /// passphrase (`errSecBadReq`, -909).
        case invalidState
        /// Stored data failed authentication: it was edited, swapped or moved (`errSecDecode`, -26275).
        case integrityViolation
        /// The keychain cannot be used: a missing or wrong device key, unsafe file permissions,
        /// a database that cannot be opened (`errSecNotAvailable`, -25291).
        case keychainUnavailable
        /// The disk is full; nothing was written (`errSecNotAvailable`, -25291, as Apple maps SQLITE_FULL).
        case diskFull
        /// Another process held the keychain longer than the busy timeout (`errSecNotAvailable`, -25291).
        case busy
        /// The file is not a keychain (`errSecInvalidKeychain`, -25295).
        case invalidKeychain
        /// The keychain was written by a newer version of this library (`errSecWrongSecVersion`, -25310).
        case unsupportedVersion
        /// The keychain file is read-only (`errSecReadOnly`, -25292).
        case readOnly
        /// An I/O error while reading or writing the keychain (`errSecIO`, -36).
        case ioError
        /// Memory could not be allocated (`errSecAllocate`, -108).
        case outOfMemory
        /// No keychain exists at the location (`errSecNoSuchKeychain`, -25294).
        case noSuchKeychain
        /// A keychain already exists at the location (`errSecDuplicateKeychain`, -25296).
        case duplicateKeychain

        /// The OSStatus Apple's keychain returns in the same situation.
        public var osStatus: Int32 {
            switch self {
            case .itemNotFound: -25300
            case .duplicateItem: -25299
            case .interactionNotAllowed: -25308
            case .authFailed: -25293
            case .userCanceled: -128
            case .invalidParameter: -50
            case .noSuchAttribute: -25303
            case .noSuchClass: -25306
            case .missingEntitlement: -34018
            case .unimplemented: -4
            case .invalidState: -909
            case .integrityViolation: -26275
            case .keychainUnavailable, .diskFull, .busy: -25291
            case .invalidKeychain: -25295
            case .unsupportedVersion: -25310
            case .readOnly: -25292
            case .ioError: -36
            case .outOfMemory: -108
            case .noSuchKeychain: -25294
            case .duplicateKeychain: -25296
            }
        }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do about it. Never contains secret data, nor control or
    /// bidirectional formatting characters (``PrintableText``): messages quote names from files,
    /// backups and queries, and are printed on terminals.
    public let message: String

    /// Creates an error; control and bidirectional formatting characters in `message` become `?`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message.unicodeScalars.contains(where: PrintableText.isUnsafe) ? PrintableText.sanitized(message) : message
    }

    /// The OSStatus Apple's keychain reports in the same situation.
    public var osStatus: Int32 { code.osStatus }

    /// `"<message> (OSStatus <n>)"`.
    public var description: String { "\(message) (OSStatus \(osStatus))" }
}

extension KeychainError {
    static func itemNotFound() -> KeychainError {
        KeychainError(.itemNotFound, "No keychain item matches the query.")
    }

    static func locked(_ accessibility: Accessibility, path: String) -> KeychainError {
        KeychainError(.interactionNotAllowed, "The keychain at \(path) is locked and the item's protection (\(accessibility.constantName)) needs it unlocked. Unlock it (`keychain unlock`, or Keychain.unlock in code) and retry, or store items read in the background with an afterFirstUnlock accessibility.")
    }

    static func notYetUnlocked(_ accessibility: Accessibility, path: String) -> KeychainError {
        KeychainError(.interactionNotAllowed, "The keychain at \(path) has not been unlocked since it was opened, so items with protection \(accessibility.constantName) are unavailable. Unlock it (`keychain unlock`, or Keychain.unlock in code) and retry.")
    }

    static func passcodeNotSet() -> KeychainError {
        KeychainError(.authFailed, "Items with kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly need a keychain passphrase, and none is set. Set one (`keychain set-passphrase`, or Keychain.setPassphrase in code) or choose another accessibility.")
    }

    /// The device key file is not the one this keychain was created with.
    static func wrongDeviceKey() -> KeychainError {
        KeychainError(.keychainUnavailable, "The device key does not belong to this keychain (the keybag does not open with it). The keychain was created with another device key file: restore that file, or move the keychain aside to start a new one.")
    }

    /// Another process rotated the device secret (bound or rebound the keychain) after this
    /// instance opened it: its keys open nothing any more, and it writes nothing.
    static func deviceSecretReplaced() -> KeychainError {
        KeychainError(.keychainUnavailable, "The keychain's device secret was replaced after this instance opened it (the keychain was bound or rebound to a TPM, `keychain bind --tpm`), so this instance can neither read nor write it any more; nothing was changed. Open the keychain again.")
    }

    static func tampered(_ what: String) -> KeychainError {
        KeychainError(.integrityViolation, "Integrity check failed: \(what). The keychain file was modified outside this library or is corrupted; the item was not returned and nothing was changed. Restore the keychain from a backup.")
    }
}
