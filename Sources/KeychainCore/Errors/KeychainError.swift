/// The one error type of ``Keychain``: what went wrong, the OSStatus Apple's keychain reports in
/// the same situation, and a message that says what to do. Messages never contain secret data
/// (no item data, passphrases or keys; no attribute values).
///
/// Match an error with `catch` on its code (`catch KeychainError.Code.duplicateItem`, or
/// `catch .duplicateItem` where every call in the `do` block throws `KeychainError`) or `switch`
/// on ``code``; a later version may add codes, so a `switch` keeps a `default`:
///
/// ```swift
/// do {
///     try keychain.add(item)
/// } catch KeychainError.Code.duplicateItem {
///     try keychain.update(query, with: ItemChanges(data: newSecret))
/// } catch let error as KeychainError {
///     switch error.code {
///     case .interactionNotAllowed: print("unlock the keychain and retry")
///     default: print(error)
///     }
/// }
/// ```
public struct KeychainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure: the part of a ``KeychainError`` to switch on. Each code maps to one
    /// OSStatus (``osStatus``). Later versions may add codes, so a `switch` keeps a `default`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for example `"itemNotFound"`.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name.
        public var description: String { rawValue }

        /// No item matched (`errSecItemNotFound`, -25300).
        public static let itemNotFound = Code(rawValue: "itemNotFound")
        /// An item with the same primary key exists (`errSecDuplicateItem`, -25299).
        public static let duplicateItem = Code(rawValue: "duplicateItem")
        /// The item's protection class is locked (`errSecInteractionNotAllowed`, -25308).
        public static let interactionNotAllowed = Code(rawValue: "interactionNotAllowed")
        /// Wrong passphrase, or a passcode-set item without a passphrase (`errSecAuthFailed`, -25293).
        public static let authFailed = Code(rawValue: "authFailed")
        /// The user cancelled an authentication (`errSecUserCanceled`, -128).
        public static let userCanceled = Code(rawValue: "userCanceled")
        /// A malformed query, attribute value or argument (`errSecParam`, -50).
        public static let invalidParameter = Code(rawValue: "invalidParameter")
        /// The attribute does not exist for the item's class (`errSecNoSuchAttr`, -25303).
        public static let noSuchAttribute = Code(rawValue: "noSuchAttribute")
        /// The item class is unknown or has no storage (`errSecNoSuchClass`, -25306).
        public static let noSuchClass = Code(rawValue: "noSuchClass")
        /// The caller is not entitled to the access group (`errSecMissingEntitlement`, -34018).
        public static let missingEntitlement = Code(rawValue: "missingEntitlement")
        /// The operation is not supported on this platform (`errSecUnimplemented`, -4).
        public static let unimplemented = Code(rawValue: "unimplemented")
        /// The operation does not fit the keychain's state, e.g. locking a keychain without a
        /// passphrase (`errSecBadReq`, -909).
        public static let invalidState = Code(rawValue: "invalidState")
        /// Stored data failed authentication: it was edited, swapped or moved (`errSecDecode`, -26275).
        public static let integrityViolation = Code(rawValue: "integrityViolation")
        /// The keychain cannot be used: a missing or wrong device key, unsafe file permissions,
        /// a database that cannot be opened (`errSecNotAvailable`, -25291).
        public static let keychainUnavailable = Code(rawValue: "keychainUnavailable")
        /// The disk is full; nothing was written (`errSecNotAvailable`, -25291, as Apple maps SQLITE_FULL).
        public static let diskFull = Code(rawValue: "diskFull")
        /// Another process held the keychain longer than the busy timeout (`errSecNotAvailable`, -25291).
        public static let busy = Code(rawValue: "busy")
        /// The file is not a keychain (`errSecInvalidKeychain`, -25295).
        public static let invalidKeychain = Code(rawValue: "invalidKeychain")
        /// The keychain was written by a newer version of this library (`errSecWrongSecVersion`, -25310).
        public static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// The keychain file is read-only (`errSecReadOnly`, -25292).
        public static let readOnly = Code(rawValue: "readOnly")
        /// An I/O error while reading or writing the keychain (`errSecIO`, -36).
        public static let ioError = Code(rawValue: "ioError")
        /// Memory could not be allocated (`errSecAllocate`, -108).
        public static let outOfMemory = Code(rawValue: "outOfMemory")
        /// No keychain exists at the location (`errSecNoSuchKeychain`, -25294).
        public static let noSuchKeychain = Code(rawValue: "noSuchKeychain")
        /// A keychain already exists at the location (`errSecDuplicateKeychain`, -25296).
        public static let duplicateKeychain = Code(rawValue: "duplicateKeychain")

        /// Every code this version knows, in declaration order. A later version may add codes.
        public static let allCases: [Code] = [
            .itemNotFound, .duplicateItem, .interactionNotAllowed, .authFailed,
            .userCanceled, .invalidParameter, .noSuchAttribute, .noSuchClass,
            .missingEntitlement, .unimplemented, .invalidState, .integrityViolation,
            .keychainUnavailable, .diskFull, .busy, .invalidKeychain,
            .unsupportedVersion, .readOnly, .ioError, .outOfMemory,
            .noSuchKeychain, .duplicateKeychain
        ]

        /// The OSStatus of each code this version knows.
        private static let statuses: [Code: Int32] = [
            .itemNotFound: -25300,
            .duplicateItem: -25299,
            .interactionNotAllowed: -25308,
            .authFailed: -25293,
            .userCanceled: -128,
            .invalidParameter: -50,
            .noSuchAttribute: -25303,
            .noSuchClass: -25306,
            .missingEntitlement: -34018,
            .unimplemented: -4,
            .invalidState: -909,
            .integrityViolation: -26275,
            .keychainUnavailable: -25291,
            .diskFull: -25291,
            .busy: -25291,
            .invalidKeychain: -25295,
            .unsupportedVersion: -25310,
            .readOnly: -25292,
            .ioError: -36,
            .outOfMemory: -108,
            .noSuchKeychain: -25294,
            .duplicateKeychain: -25296
        ]

        /// The OSStatus Apple's keychain returns in the same situation; for a code this version
        /// does not know (made with ``init(rawValue:)``, or by a later version),
        /// `errSecInternalComponent` (-26276), the status of a failure with no closer match.
        public var osStatus: Int32 { Self.statuses[self] ?? Self.unknownCodeStatus }

        /// The status of a code this version does not know: `errSecInternalComponent`.
        static let unknownCodeStatus: Int32 = -26276

        /// Matches any error against a code, so that `catch KeychainError.Code.itemNotFound`
        /// works in a `do` block whose other calls throw other errors too (in a block where every
        /// call throws `KeychainError`, `catch .itemNotFound` is enough): an error matches when
        /// it is a `KeychainError` with that code, whatever its message.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? KeychainError)?.code == pattern
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
        self.message =
            message.unicodeScalars.contains(where: PrintableText.isUnsafe) ? PrintableText.sanitized(message) : message
    }

    /// The OSStatus Apple's keychain reports in the same situation.
    public var osStatus: Int32 { code.osStatus }

    /// `"<message> (OSStatus <n>)"`.
    public var description: String { "\(message) (OSStatus \(osStatus))" }
}
