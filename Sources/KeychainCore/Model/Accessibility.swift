/// When a keychain item's data may be read (`kSecAttrAccessible`), with Apple's raw values.
///
/// Accessibility is not part of an item's primary key: two items that differ only in
/// accessibility are duplicates. In a query it is an ordinary filter.
///
/// ```swift
/// let token = NewItem(.genericPassword, attributes: [.service: "api", .account: "me"],
///                     data: Data("secret".utf8), accessibility: .afterFirstUnlockThisDeviceOnly)
/// ```
public enum Accessibility: String, CaseIterable, Sendable, Hashable, Codable {
    /// `kSecAttrAccessibleWhenUnlocked` (`"ak"`), the default for passwords and keys.
    case whenUnlocked = "ak"
    /// `kSecAttrAccessibleAfterFirstUnlock` (`"ck"`), the usual choice for background work.
    case afterFirstUnlock = "ck"
    /// `kSecAttrAccessibleAlways` (`"dk"`), deprecated; the default for certificates.
    case always = "dk"
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (`"aku"`).
    case whenUnlockedThisDeviceOnly = "aku"
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` (`"cku"`).
    case afterFirstUnlockThisDeviceOnly = "cku"
    /// `kSecAttrAccessibleAlwaysThisDeviceOnly` (`"dku"`), deprecated.
    case alwaysThisDeviceOnly = "dku"
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` (`"akpu"`): needs a passphrase to exist.
    case whenPasscodeSetThisDeviceOnly = "akpu"

    /// The name of Apple's constant, e.g. `kSecAttrAccessibleWhenUnlocked`: what messages show
    /// (the raw value `ak` is an internal abbreviation users do not know).
    public var constantName: String {
        switch self {
        case .whenUnlocked: "kSecAttrAccessibleWhenUnlocked"
        case .afterFirstUnlock: "kSecAttrAccessibleAfterFirstUnlock"
        case .always: "kSecAttrAccessibleAlways"
        case .whenUnlockedThisDeviceOnly: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
        case .afterFirstUnlockThisDeviceOnly: "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
        case .alwaysThisDeviceOnly: "kSecAttrAccessibleAlwaysThisDeviceOnly"
        case .whenPasscodeSetThisDeviceOnly: "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"
        }
    }

    /// The protection class whose key encrypts items of this accessibility.
    public var protectionClass: ProtectionClass {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly: .whenUnlocked
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: .afterFirstUnlock
        case .always, .alwaysThisDeviceOnly: .always
        case .whenPasscodeSetThisDeviceOnly: .whenPasscodeSet
        }
    }

    /// Whether the item is bound to this device and never leaves it in a backup or sync.
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlocked, .afterFirstUnlock, .always: false
        default: true
        }
    }

    /// Apple's AppleKeyStore key-class number (6 … 12), as recorded in keychain items.
    public var keyClassNumber: Int {
        switch self {
        case .whenUnlocked: 6
        case .afterFirstUnlock: 7
        case .always: 8
        case .whenUnlockedThisDeviceOnly: 9
        case .afterFirstUnlockThisDeviceOnly: 10
        case .alwaysThisDeviceOnly: 11
        case .whenPasscodeSetThisDeviceOnly: 12
        }
    }
}
