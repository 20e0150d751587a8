/// How sensitive a value is; the tag decides its protection, so no call site picks an
/// accessibility constant by hand.
///
/// | Tag | Protection | Readable | Leaves the device |
/// |---|---|---|---|
/// | ``public`` | `AfterFirstUnlock` | after the first unlock, also in the background | yes (backups) |
/// | ``private`` | `AfterFirstUnlockThisDeviceOnly` | after the first unlock, also in the background | no |
/// | ``secret`` (default) | `WhenUnlockedThisDeviceOnly` | only while unlocked | no |
/// | ``topSecret`` | `WhenPasscodeSetThisDeviceOnly` | only while unlocked, and only with a passcode | no; destroyed if the passcode is removed |
/// | ``custom(_:)`` | as given | | |
///
/// For files and databases the same tag picks the tier's protection: ``fileProtection`` for
/// ``ProtectedFiles``, and the protection of a database key for `SecureStorageGRDB`.
public enum Sensitivity: Sendable, Hashable, CustomStringConvertible {
    /// Not secret but worth keeping out of plain files (a user id, a feature flag).
    case `public`
    /// A background-safe secret: refresh tokens that a background task must read while locked.
    case `private`
    /// A secret read only while the user is present: access tokens, API keys, passwords.
    case secret
    /// The most valuable secrets: payment or signing credentials. Requires a passcode.
    case topSecret
    /// An explicit protection, overriding the tags.
    case custom(Protection)

    /// The protection this tag maps to.
    public var protection: Protection {
        switch self {
        case .public: .afterFirstUnlock
        case .private: .afterFirstUnlockThisDeviceOnly
        case .secret: .whenUnlockedThisDeviceOnly
        case .topSecret: .whenPasscodeSetThisDeviceOnly
        case .custom(let protection): protection
        }
    }

    /// The class of a protected file of this sensitivity (``ProtectedFiles/write(_:to:sensitivity:)``):
    /// ``public`` and ``private`` files are readable after the first unlock, also in the
    /// background; ``secret`` and ``topSecret`` ones only while unlocked. A custom protection
    /// gives the file class with the same availability.
    public var fileProtection: FileProtection {
        switch protection {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: .complete
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: .completeUntilFirstUserAuthentication
        case .always, .alwaysThisDeviceOnly: .none
        }
    }

    /// `"secret (kSecAttrAccessibleWhenUnlockedThisDeviceOnly)"`.
    public var description: String {
        let name =
            switch self {
            case .public: "public"
            case .private: "private"
            case .secret: "secret"
            case .topSecret: "topSecret"
            case .custom: "custom"
            }
        return "\(name) (\(protection))"
    }
}
