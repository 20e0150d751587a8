import Foundation
import KeychainServices

/// When a stored value may be read: the seven `kSecAttrAccessible…` values.
///
/// Prefer a ``Sensitivity`` tag; use a protection directly only to override it.
public enum Protection: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `kSecAttrAccessibleWhenUnlocked`: while unlocked; migrates to new devices.
    case whenUnlocked = "ak"
    /// `kSecAttrAccessibleAfterFirstUnlock`: after the first unlock; migrates to new devices.
    case afterFirstUnlock = "ck"
    /// `kSecAttrAccessibleAlways`: always (deprecated by Apple; move values out of it).
    case always = "dk"
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.
    case whenUnlockedThisDeviceOnly = "aku"
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`.
    case afterFirstUnlockThisDeviceOnly = "cku"
    /// `kSecAttrAccessibleAlwaysThisDeviceOnly` (deprecated by Apple).
    case alwaysThisDeviceOnly = "dku"
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`: needs a device passcode (on Linux, a
    /// keychain passphrase); values are destroyed when it is removed.
    case whenPasscodeSetThisDeviceOnly = "akpu"

    /// The `kSecAttrAccessible…` constant.
    public var secAttrAccessible: CFString {
        switch self {
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        case .always: kSecAttrAccessibleAlways
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .alwaysThisDeviceOnly: kSecAttrAccessibleAlwaysThisDeviceOnly
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }

    /// The protection a `kSecAttrAccessible` value names.
    public init?(secAttrAccessible value: String) {
        guard let protection = Protection.allCases.first(where: { $0.secAttrAccessible as String == value }) else {
            return nil
        }
        self = protection
    }

    /// Whether the value can be read while the device is locked (after the first unlock).
    public var isReadableWhileLocked: Bool {
        [.afterFirstUnlock, .afterFirstUnlockThisDeviceOnly, .always, .alwaysThisDeviceOnly].contains(self)
    }

    /// Whether values stay on this device (the `…ThisDeviceOnly` protections and
    /// ``whenPasscodeSetThisDeviceOnly``): never in backups that leave it.
    public var isThisDeviceOnly: Bool {
        [
            .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
            .whenPasscodeSetThisDeviceOnly
        ].contains(self)
    }

    /// The Apple constant's name, e.g. `"kSecAttrAccessibleWhenUnlockedThisDeviceOnly"`.
    public var description: String {
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
}
