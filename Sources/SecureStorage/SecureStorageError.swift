import Foundation
import KeychainServices

/// Everything that can go wrong, as cases a caller can act on. Messages say what to do and never
/// contain stored values.
///
/// ```swift
/// do {
///     try storage.set(token, for: "auth.token")
/// } catch .locked {
///     // The device is locked; the previous token is still stored. Retry after unlock.
/// }
/// ```
public enum SecureStorageError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// No value is stored under the key (`errSecItemNotFound`).
    case notFound
    /// The value's protection needs the device unlocked (`errSecInteractionNotAllowed`). Nothing
    /// was changed; retry after the user unlocks.
    case locked
    /// Authentication failed (`errSecAuthFailed`), e.g. a wrong passphrase.
    case authenticationFailed
    /// The user cancelled the authentication a value stored with `requireUserPresence` needs
    /// (`errSecUserCanceled`). Nothing was read; ask again when the user wants to continue.
    case userCanceled
    /// ``Sensitivity/topSecret`` needs a device passcode (on Linux, a keychain passphrase) and
    /// none is set (`errSecAuthFailed` from the keychain).
    case passcodeRequired
    /// A value already exists under the key (`errSecDuplicateItem`), from an insert-only call.
    case duplicate
    /// The app is not entitled to the access group (`errSecMissingEntitlement`).
    case missingEntitlement
    /// Stored data failed its integrity check (`errSecDecode`): it was modified or corrupted.
    case integrityViolation
    /// The stored value is not a `type`.
    case decodingFailed(type: String)
    /// A value of `type` could not be encoded for storage (e.g. a `Double.nan` as JSON); nothing
    /// was stored.
    case encodingFailed(type: String)
    /// Any other keychain status.
    case underlying(OSStatus)

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

    /// The keychain status behind the error, when there is one.
    public var status: OSStatus? {
        switch self {
        case .notFound: errSecItemNotFound
        case .locked: errSecInteractionNotAllowed
        case .authenticationFailed, .passcodeRequired: errSecAuthFailed
        case .userCanceled: errSecUserCanceled
        case .duplicate: errSecDuplicateItem
        case .missingEntitlement: errSecMissingEntitlement
        case .integrityViolation: errSecDecode
        case .decodingFailed, .encodingFailed: nil
        case .underlying(let status): status
        }
    }

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .notFound:
            "No value is stored under this key. Store one first, or read with a method that returns nil for a missing value (data(for:), string(for:), value(_:for:))."
        case .locked:
            "The device is locked and this value's protection needs it unlocked. The value was not read or written; a stored value is kept as it was. Retry after the user unlocks, or store values needed in the background as .private."
        case .authenticationFailed:
            "Authentication failed (wrong passphrase or credentials, or a value protected by enrolled biometry that changed since). Nothing was changed. Ask the user again; a value bound to the old biometry must be deleted and stored anew."
        case .userCanceled:
            "The user cancelled the authentication this value needs. Nothing was read or changed; ask again when the user wants to continue."
        case .passcodeRequired:
            ".topSecret values need a device passcode (on Linux, a keychain passphrase) and none is set. Ask the user to set one, or store the value as .secret."
        case .duplicate:
            "A value is already stored under this key. Use set(_:for:) (which replaces it) or remove it first."
        case .missingEntitlement:
            "The app is not entitled to this access group. Add it to the keychain-access-groups entitlement (on Linux, KEYCHAIN_ACCESS_GROUPS)."
        case .integrityViolation:
            "The stored value failed its integrity check: the keychain was modified outside this library or is corrupted. It was not returned. Delete and store it again."
        case .decodingFailed(let type):
            "The stored value cannot be read as \(type). Read it with the type it was stored as, or store it again."
        case .encodingFailed(let type):
            "A \(type) value could not be encoded for storage (JSON cannot hold it, e.g. NaN or infinity); nothing was stored. Store a representable value."
        case .underlying(let status):
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
