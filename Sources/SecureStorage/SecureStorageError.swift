import Foundation
import KeychainServices

/// Everything that can go wrong, as codes a caller can act on. Messages say what to do and never
/// contain stored values.
///
/// Match an error with `catch` (`catch .locked` where every call in the `do` block throws
/// `SecureStorageError`, `catch SecureStorageError.locked` anywhere) or `switch` on ``code``; a
/// later version may add codes, so a `switch` keeps a `default`:
///
/// ```swift
/// do {
///     try storage.set(token, for: "auth.token")
/// } catch .locked {
///     // The device is locked; the previous token is still stored. Retry after unlock.
/// } catch {
///     switch error.code {
///     case .missingEntitlement: fatalError("add the access group to the entitlements")
///     default: log(error)   // error.status: the OSStatus behind it, when there is one
///     }
/// }
/// ```
public struct SecureStorageError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What kind of failure an error is: the part of a ``SecureStorageError`` to switch on.
    /// Later versions may add codes.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, for example `"locked"`.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name.
        public var description: String { rawValue }

        /// See ``SecureStorageError/notFound``.
        public static let notFound = Code(rawValue: "notFound")
        /// See ``SecureStorageError/locked``.
        public static let locked = Code(rawValue: "locked")
        /// See ``SecureStorageError/authenticationFailed``.
        public static let authenticationFailed = Code(rawValue: "authenticationFailed")
        /// See ``SecureStorageError/userCanceled``.
        public static let userCanceled = Code(rawValue: "userCanceled")
        /// See ``SecureStorageError/passcodeRequired``.
        public static let passcodeRequired = Code(rawValue: "passcodeRequired")
        /// See ``SecureStorageError/duplicate``.
        public static let duplicate = Code(rawValue: "duplicate")
        /// See ``SecureStorageError/missingEntitlement``.
        public static let missingEntitlement = Code(rawValue: "missingEntitlement")
        /// See ``SecureStorageError/integrityViolation``.
        public static let integrityViolation = Code(rawValue: "integrityViolation")
        /// See ``SecureStorageError/decodingFailed(type:)``.
        public static let decodingFailed = Code(rawValue: "decodingFailed")
        /// See ``SecureStorageError/encodingFailed(type:)``.
        public static let encodingFailed = Code(rawValue: "encodingFailed")
        /// See ``SecureStorageError/underlying(_:)``.
        public static let underlying = Code(rawValue: "underlying")
        /// See ``SecureStorageError/fileSystem(errno:)``.
        public static let fileSystem = Code(rawValue: "fileSystem")
        /// See ``SecureStorageError/insecureFile``.
        public static let insecureFile = Code(rawValue: "insecureFile")
        /// See ``SecureStorageError/invalidName``.
        public static let invalidName = Code(rawValue: "invalidName")
    }

    /// What kind of failure this is.
    public let code: Code

    /// The keychain status behind the error, when there is one.
    public let status: OSStatus?

    /// For ``Code/decodingFailed`` and ``Code/encodingFailed``: the type that could not be read
    /// or stored.
    public let typeName: String?

    /// For ``Code/fileSystem``: the `errno` of the failed system call.
    public let errorNumber: Int32?

    /// The precise account of this failure, when the layer that found it gave one: what
    /// happened, to which keychain, file or value (its path or key, never its contents), and what
    /// to do — for example that a passphrase file is readable by others and must be
    /// `chmod 600`. ``description`` shows it. `nil` for an error made from a code alone (such as
    /// the constant ``SecureStorageError/locked``), and on Apple platforms for keychain errors, whose Security
    /// framework reports only an OSStatus.
    ///
    /// Not part of an error's identity: errors with the same code, status, type name and
    /// `errno` are equal whatever their messages, so `catch .locked` matches them all.
    public let message: String?

    /// Whether ``message`` already names the protected file concerned.
    let namesFile: Bool

    private init(
        _ code: Code, status: OSStatus?, typeName: String? = nil, errorNumber: Int32? = nil,
        message: String? = nil, namesFile: Bool = false
    ) {
        self.code = code
        self.status = status
        self.typeName = typeName
        self.errorNumber = errorNumber
        self.message = message
        self.namesFile = namesFile
    }

    /// This error with `message` as its precise account (``message``), in the facade's terms
    /// (``Sensitivity`` names beside accessibility constants); this error itself when `message`
    /// is `nil`.
    package func explained(_ message: String?, namesFile: Bool = false) -> SecureStorageError {
        guard let message else { return self }
        return SecureStorageError(
            code, status: status, typeName: typeName, errorNumber: errorNumber,
            message: FacadeWording.translated(message), namesFile: namesFile)
    }

    /// This error with `context` (what was being done, to what) put before its account:
    /// `"<context>: <message or general description>"`.
    package func inContext(_ context: String) -> SecureStorageError {
        explained("\(context): \(message ?? generalDescription)")
    }

    /// Errors are equal when their code, status, type name and `errno` are: ``message`` does
    /// not count.
    public static func == (lhs: SecureStorageError, rhs: SecureStorageError) -> Bool {
        lhs.code == rhs.code && lhs.status == rhs.status && lhs.typeName == rhs.typeName
            && lhs.errorNumber == rhs.errorNumber
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(status)
        hasher.combine(typeName)
        hasher.combine(errorNumber)
    }

    /// No value is stored under the key (`errSecItemNotFound`).
    public static let notFound = SecureStorageError(.notFound, status: errSecItemNotFound)
    /// The value's protection needs the device unlocked (`errSecInteractionNotAllowed`). Nothing
    /// was changed; retry after the user unlocks.
    public static let locked = SecureStorageError(.locked, status: errSecInteractionNotAllowed)
    /// Authentication failed (`errSecAuthFailed`), e.g. a wrong passphrase.
    public static let authenticationFailed = SecureStorageError(.authenticationFailed, status: errSecAuthFailed)
    /// The user cancelled the authentication a value stored with `requireUserPresence` needs
    /// (`errSecUserCanceled`). Nothing was read; ask again when the user wants to continue.
    public static let userCanceled = SecureStorageError(.userCanceled, status: errSecUserCanceled)
    /// ``Sensitivity/topSecret`` needs a device passcode (on Linux, a keychain passphrase) and
    /// none is set (`errSecAuthFailed` from the keychain).
    public static let passcodeRequired = SecureStorageError(.passcodeRequired, status: errSecAuthFailed)
    /// A value already exists under the key (`errSecDuplicateItem`), from an insert-only call.
    public static let duplicate = SecureStorageError(.duplicate, status: errSecDuplicateItem)
    /// The app is not entitled to the access group (`errSecMissingEntitlement`).
    public static let missingEntitlement = SecureStorageError(.missingEntitlement, status: errSecMissingEntitlement)
    /// Stored data failed its integrity check (`errSecDecode`): it was modified or corrupted.
    public static let integrityViolation = SecureStorageError(.integrityViolation, status: errSecDecode)

    /// The stored value is not a `type`.
    public static func decodingFailed(type: String) -> SecureStorageError {
        SecureStorageError(.decodingFailed, status: nil, typeName: type)
    }

    /// A value of `type` could not be encoded for storage (e.g. a `Double.nan` as JSON); nothing
    /// was stored.
    public static func encodingFailed(type: String) -> SecureStorageError {
        SecureStorageError(.encodingFailed, status: nil, typeName: type)
    }

    /// A file operation of ``ProtectedFiles`` failed in the operating system (`errno`), for
    /// example a full disk (`ENOSPC`) or a read-only file system (`EROFS`). A file being
    /// replaced keeps its previous contents.
    public static func fileSystem(errno: Int32) -> SecureStorageError {
        SecureStorageError(.fileSystem, status: nil, errorNumber: errno)
    }

    /// A protected file or its directory is not private to this user: another user owns it,
    /// others may read or write it, or it is a symbolic link or not a regular file. Nothing was
    /// read or written.
    public static let insecureFile = SecureStorageError(.insecureFile, status: nil)

    /// A protected file's name is not one path component of letters, digits, `.`, `_` and `-`
    /// (1 to 200 characters, not starting with a dot).
    public static let invalidName = SecureStorageError(.invalidName, status: errSecParam)

    /// Any other keychain status.
    public static func underlying(_ status: OSStatus) -> SecureStorageError {
        SecureStorageError(.underlying, status: status)
    }

    /// Matches any error against one of the errors above, so that
    /// `catch SecureStorageError.locked` works in a `do` block whose other calls throw other
    /// errors too (in a block where every call throws `SecureStorageError`, `catch .locked` is
    /// enough). Errors match when they are equal: same code, status and type name.
    public static func ~= (pattern: SecureStorageError, error: any Error) -> Bool {
        (error as? SecureStorageError) == pattern
    }

    /// The error for a keychain status; `nil` for `errSecSuccess`.
    public init?(status: OSStatus) {
        switch status {
        case errSecSuccess: return nil
        case errSecItemNotFound: self = .notFound
        case errSecInteractionNotAllowed: self = .locked
        case errSecAuthFailed: self = .authenticationFailed
        case errSecUserCanceled: self = .userCanceled
        case errSecDuplicateItem: self = .duplicate
        case errSecMissingEntitlement: self = .missingEntitlement
        case errSecDecode: self = .integrityViolation
        default: self = .underlying(status)
        }
    }

    /// What happened and what to do: ``message`` when there is one (with the code and status
    /// it stands for), else a general account of the code.
    public var description: String {
        guard let message else { return generalDescription }
        return "\(message) (\(code)\(status.map { ", OSStatus \($0)" } ?? ""))"
    }

    /// What an error of this code means and what to do, without the particulars.
    var generalDescription: String {
        let type = typeName ?? "the requested type"
        switch code {
        case .notFound:
            return
                "No value is stored under this key (or no protected file under this name). Store one first, or read with a method that returns nil for a missing value (data(for:), string(for:), value(_:for:))."
        case .locked:
            return
                "The device is locked and this value's protection needs it unlocked. The value was not read or written; a stored value is kept as it was. Retry after the user unlocks, or store values needed in the background as .private."
        case .authenticationFailed:
            return
                "Authentication failed (wrong passphrase or credentials, or a value protected by enrolled biometry that changed since). Nothing was changed. Ask the user again; a value bound to the old biometry must be deleted and stored anew."
        case .userCanceled:
            return
                "The user cancelled the authentication this value needs. Nothing was read or changed; ask again when the user wants to continue."
        case .passcodeRequired:
            return
                ".topSecret values need a device passcode (on Linux, a keychain passphrase) and none is set. Ask the user to set one, or store the value as .secret."
        case .duplicate:
            return "A value is already stored under this key. Use set(_:for:) (which replaces it) or remove it first."
        case .missingEntitlement:
            return
                "The app is not entitled to this access group. Add it to the keychain-access-groups entitlement (on Linux, KEYCHAIN_ACCESS_GROUPS)."
        case .integrityViolation:
            return
                "The stored value or protected file failed its integrity check: it was modified outside this library, swapped with another or cut short, or is corrupted. Nothing of it was returned. Delete it and store it again."
        case .decodingFailed:
            return
                "The stored value cannot be read as \(type). Read it with the type it was stored as, or store it again."
        case .fileSystem:
            let number = errorNumber ?? 0
            return
                "A file operation failed: \(String(cString: strerror(number))) (errno \(number)). A file being replaced keeps its previous contents; free space or fix the directory, then retry."
        case .insecureFile:
            return
                "A protected file or its directory is not private to this user (another owner, readable or writable by others, a symbolic link or not a regular file). Nothing was read or written. Remove what is there or restore mode 0600 (files) and 0700 (directory)."
        case .invalidName:
            return
                "A protected file's name must be one path component of letters, digits, '.', '_' and '-', 1 to 200 characters, not starting with '.'."
        case .encodingFailed:
            return
                "A \(type) value could not be encoded for storage (JSON cannot hold it, e.g. NaN or infinity); nothing was stored. Store a representable value."
        default:
            let status = status ?? errSecInternalComponent
            return
                "Keychain error \(status): \(Self.message(of: status)). Look up this errSec status to decide whether to retry."
        }
    }

    /// Apple's message for a status, without its final period.
    private static func message(of status: OSStatus) -> String {
        let message = (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
        return message.hasSuffix(".") ? String(message.dropLast()) : message
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
