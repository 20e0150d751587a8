/// The identifier of a lint rule, as written in output and in suppression comments.
package enum RuleID: String, Sendable, CaseIterable, Codable, Hashable {
    /// A credential written to storage that is neither encrypted nor protected.
    case insecureSecretStorage = "insecure-secret-storage"
    /// `SecItemDelete` followed by `SecItemAdd` of the same item instead of `SecItemUpdate`.
    case deleteThenAdd = "delete-then-add"
    /// `kSecAttrAccessibleAlways` or `kSecAttrAccessibleAlwaysThisDeviceOnly`.
    case accessibleAlways = "accessible-always"
    /// A password item added without saying when it may be read.
    case implicitAccessibility = "implicit-accessibility"
    /// A SecItem status ignored, or only compared with `errSecItemNotFound`.
    case uncheckedStatus = "unchecked-status"
    /// `kSecReturnData` together with `kSecMatchLimitAll`.
    case returnDataMatchAll = "return-data-match-all"
    /// A credential written into the source code.
    case hardcodedSecret = "hardcoded-secret"
    /// A value read from the keychain passed to a log or to standard output.
    case loggedSecret = "logged-secret"
    /// A SecItem call made on the main actor.
    case secItemOnMainActor = "secitem-on-main-actor"
    /// A credential stored in a database that is not encrypted (Core Data, SwiftData, SQLite, Realm,
    /// Couchbase Lite, YapDatabase).
    case unencryptedDatabase = "unencrypted-database"
    /// A credential put where other apps, web pages or caches can read it: the general pasteboard,
    /// a cookie without `Secure`, the URL cache.
    case exposedSecret = "exposed-secret"
    /// A suppression comment naming a rule that does not exist.
    case unknownSuppression = "unknown-suppression"
}
