/// The class of a keychain item (`kSecClass`), with Apple's raw values.
///
/// Four classes are stored; ``identity`` is virtual: an identity is a certificate together with
/// the private key whose application label (`klbl`) equals the certificate's public-key hash
/// (`pkhh`).
public enum ItemClass: String, CaseIterable, Sendable, Hashable, Codable {
    /// `kSecClassGenericPassword` (`"genp"`).
    case genericPassword = "genp"
    /// `kSecClassInternetPassword` (`"inet"`).
    case internetPassword = "inet"
    /// `kSecClassCertificate` (`"cert"`).
    case certificate = "cert"
    /// `kSecClassKey` (`"keys"`).
    case key = "keys"
    /// `kSecClassIdentity` (`"idnt"`): a certificate joined with its private key; never stored on its own.
    case identity = "idnt"

    /// The classes that have rows of their own in the database.
    public static let storedClasses: [ItemClass] = [.genericPassword, .internetPassword, .certificate, .key]

    /// Whether items of this class are stored as rows (every class but ``identity``).
    public var isStored: Bool { self != .identity }

    /// The accessibility Apple applies when an item of this class is added without one:
    /// `kSecAttrAccessibleAlways` for certificates, `kSecAttrAccessibleWhenUnlocked` otherwise.
    public var defaultAccessibility: Accessibility {
        self == .certificate ? .always : .whenUnlocked
    }

    /// The default accessibility of an item of this class added to `accessGroup`: items of the
    /// push service's group `com.apple.apsd` are `kSecAttrAccessibleAlwaysThisDeviceOnly` whatever
    /// their class (Apple checks the group before the class), others ``defaultAccessibility``.
    public func defaultAccessibility(inAccessGroup accessGroup: String?) -> Accessibility {
        accessGroup == "com.apple.apsd" ? .alwaysThisDeviceOnly : defaultAccessibility
    }
}
