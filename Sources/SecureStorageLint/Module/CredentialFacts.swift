import SwiftSyntax

/// Module-wide facts about constants whose value names a credential, properties and types that hold credentials.
///
/// Collected from declarations only, and holding names only (never a string literal's text):
/// - types that declare a stored property named like a credential (`struct LoginInfo { var password: String }`),
///   and, once resolved, types that hold a value of such a type (`struct Session { let login: LoginInfo }`);
/// - string constants whose literal names a credential (`static let tokenKey = "auth_token"`), by their
///   name and by `Type.name`, so that a key written `Keys.tokenKey` is known to name a credential;
/// - Core Data `@NSManaged` properties named like a credential;
/// - types that declare their own `description` or `debugDescription` (which decides what a log shows of them);
/// - whether any file of the module sets up an encrypted database (`encryptionKey`, SQLCipher, `PRAGMA key`).
package struct CredentialFacts: Sendable, Hashable, Codable {
    /// Types that hold a credential, each with what holds it (`` `password` ``, `` a `LoginInfo` ``).
    package private(set) var credentialTypes: [String: String] = [:]
    /// The simple type names of each type's stored properties (closed over by ``resolve()``).
    private var propertyTypes: [String: Set<String>] = [:]
    /// `name` and `Type.name` of string constants whose literal names a credential.
    package private(set) var credentialKeyConstants: Set<String> = []
    /// Names of `@NSManaged` properties named like a credential.
    package private(set) var managedCredentialProperties: Set<String> = []
    /// Names of types that declare their own `description` or `debugDescription`, in the type or an extension.
    package private(set) var selfDescribingTypes: Set<String> = []
    /// Classes and actors of the module, printed as their type's name unless a struct or enum of
    /// the same name exists somewhere in the module (then nothing is assumed).
    package private(set) var referenceTypes: Set<String> = []
    /// Structs and enums of the module.
    package private(set) var valueTypes: Set<String> = []
    /// Whether a file of the module configures database encryption.
    package private(set) var configuresDatabaseEncryption = false

    /// No facts.
    package init() {}

    /// What makes `type` hold a credential (`` `password` ``, `` a `LoginInfo` ``), if it does.
    package func credentialProperty(ofType type: String) -> String? {
        credentialTypes[type]
    }

    /// Whether `type` declares its own `description` or `debugDescription`, or is a class or an
    /// actor (printed as its type's name), so that logging a whole value shows what the type
    /// chooses (usually without its secrets), not its stored properties. (`dump` shows a class's
    /// properties all the same; the rule does not tell it apart.)
    package func describesItself(_ type: String) -> Bool {
        selfDescribingTypes.contains(type) || (referenceTypes.contains(type) && !valueTypes.contains(type))
    }

    /// Whether `name` (`tokenKey`, `Keys.tokenKey`) is a string constant whose value names a credential.
    package func isCredentialKeyConstant(_ name: String) -> Bool {
        credentialKeyConstants.contains(name)
    }

    /// Adds what one file declares.
    package mutating func collect(from tree: SourceFileSyntax, path: String) {
        let collector = CredentialDeclarationCollector(viewMode: .sourceAccurate)
        collector.walk(tree)
        for (type, property) in collector.credentialTypes where credentialTypes[type] == nil {
            credentialTypes[type] = property
        }
        propertyTypes.merge(collector.propertyTypes) { $0.union($1) }
        credentialKeyConstants.formUnion(collector.keyConstants)
        managedCredentialProperties.formUnion(collector.managedProperties)
        selfDescribingTypes.formUnion(collector.selfDescribingTypes)
        referenceTypes.formUnion(collector.referenceTypes)
        valueTypes.formUnion(collector.valueTypes)
        configuresDatabaseEncryption =
            configuresDatabaseEncryption || CredentialDeclarationCollector.configuresEncryption(tree)
    }

    /// Adds another file's facts.
    package mutating func merge(_ other: CredentialFacts) {
        credentialTypes.merge(other.credentialTypes) { mine, _ in mine }
        propertyTypes.merge(other.propertyTypes) { $0.union($1) }
        credentialKeyConstants.formUnion(other.credentialKeyConstants)
        managedCredentialProperties.formUnion(other.managedCredentialProperties)
        selfDescribingTypes.formUnion(other.selfDescribingTypes)
        referenceTypes.formUnion(other.referenceTypes)
        valueTypes.formUnion(other.valueTypes)
        configuresDatabaseEncryption = configuresDatabaseEncryption || other.configuresDatabaseEncryption
    }

    /// Closes the merged facts over themselves: a type holding a value of a credential type holds
    /// a credential (eight rounds at most). Called once, after the last merge.
    package mutating func resolve() {
        for _ in 0..<8 {
            var added = false
            for (type, members) in propertyTypes.sorted(by: { $0.key < $1.key }) where credentialTypes[type] == nil {
                if let member = members.sorted().first(where: { credentialTypes[$0] != nil }) {
                    credentialTypes[type] = "a `\(member)`"
                    added = true
                }
            }
            if !added { break }
        }
    }
}
