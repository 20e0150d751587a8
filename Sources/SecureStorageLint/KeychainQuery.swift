import SwiftSyntax

/// What is known about a query dictionary at one point of a function: the Security constants it
/// has as keys and their value expressions, whether those are all its keys, and where it came from.
package struct KeychainQuery {
    /// Value expressions by key constant (`kSecClass` → `kSecClassGenericPassword`).
    package var entries: [String: ExprSyntax] = [:]
    /// Whether ``entries`` are all the keys (a literal, and only subscript assignments since).
    package var isComplete: Bool
    /// The variable or expression it was built from; copies share it (`var add = query`).
    package var origin: String

    /// The keys that say which item a query is about.
    static let identityKeys = [
        "kSecClass", "kSecAttrService", "kSecAttrAccount", "kSecAttrServer",
        "kSecAttrApplicationTag", "kSecAttrApplicationLabel", "kSecAttrLabel", "kSecAttrAccessGroup"
    ]

    /// A query from a dictionary literal (`[kSecClass as String: …]`).
    init(literal: DictionaryExprSyntax, origin: String, aliases: SecurityAliases) {
        self.origin = origin
        isComplete = true
        guard case .elements(let elements) = literal.content else { return }
        for element in elements {
            if let key = aliases.constantName(element.key) {
                entries[key] = element.value
            } else {
                isComplete = false
            }
        }
    }

    /// A query nothing is known about but where it came from (a parameter, a call's result).
    init(opaque origin: String) {
        self.origin = origin
        isComplete = false
    }

    /// The constant a key's value is (`kSecMatchLimitAll`), if it is one.
    func constant(for key: String, _ aliases: SecurityAliases) -> String? { entries[key].flatMap(aliases.constantName) }

    /// Whether both queries are about the same item: they come from the same variable or
    /// expression with no identity attribute changed, or they agree on the class and on at least
    /// one naming attribute (account, service, server, tag, label) and on every identity
    /// attribute both have.
    func isSameItem(as other: KeychainQuery) -> Bool {
        var sharedNaming = 0
        for key in Self.identityKeys {
            guard let mine = entries[key], let theirs = other.entries[key] else { continue }
            if mine.comparableText != theirs.comparableText { return false }
            if key != "kSecClass" && key != "kSecAttrAccessGroup" { sharedNaming += 1 }
        }
        if origin == other.origin { return true }
        return sharedNaming > 0 && entries["kSecClass"] != nil && other.entries["kSecClass"] != nil
    }
}
