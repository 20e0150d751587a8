import SwiftSyntax

/// What is known about a query dictionary at one point of a function: the Security constants it
/// has as keys and their values, whether those are all its keys, and where it came from.
package struct KeychainQuery {
    /// Values by key constant (`kSecClass` → `kSecClassGenericPassword`).
    package var entries: [String: QueryValue] = [:]
    /// Whether ``entries`` are all the keys (a literal, and only subscript assignments since).
    package var isComplete: Bool
    /// The variable or expression it was built from; copies share it (`var add = query`).
    package var origin: String

    /// The keys that say which item a query is about.
    static let identityKeys = [
        "kSecClass", "kSecAttrService", "kSecAttrAccount", "kSecAttrServer",
        "kSecAttrApplicationTag", "kSecAttrApplicationLabel", "kSecAttrLabel", "kSecAttrAccessGroup"
    ]

    /// The keys that name one item of a service: a query without one names all of them.
    static let primaryKeys = ["kSecAttrAccount", "kSecAttrServer", "kSecAttrApplicationTag", "kSecAttrApplicationLabel"]

    /// A query from a dictionary literal (`[kSecClass as String: …]`), its values read by `value`.
    init(
        literal: DictionaryExprSyntax, origin: String, aliases: SecurityAliases,
        value: (ExprSyntax) -> QueryValue
    ) {
        self.origin = origin
        isComplete = true
        guard case .elements(let elements) = literal.content else { return }
        for element in elements {
            if let key = aliases.constantName(element.key) {
                entries[key] = value(element.value)
            } else {
                isComplete = false
            }
        }
    }

    /// A query a module builder returns, its parameters given the call's `arguments` (by
    /// parameter index; a parameter left to its default has none).
    init(builder: QueryBuilder, arguments: [Int: QueryValue], origin: String, facts: QueryFacts) {
        self.origin = origin
        isComplete = builder.isComplete
        let templates = arguments.compactMapValues(\.identity)
        for (key, template) in builder.entries {
            guard let identity = QueryTemplate.substitute(template, templates) else {
                entries[key] = QueryValue(expression: nil, identity: nil, constant: nil, isTrue: false, roots: [])
                continue
            }
            if template.hasPrefix("$"), let index = Int(template.dropFirst()), let argument = arguments[index] {
                entries[key] = argument
                continue
            }
            var roots: Set<String> = []
            // Whole tokens: `$1` is not inside `$10`.
            let tokens = template.split(separator: " ")
            for (index, argument) in arguments where tokens.contains("$\(index)") { roots.formUnion(argument.roots) }
            let isName = !identity.contains(" ") || identity.split(separator: " ").dropLast().last == "."
            let constant =
                isName ? identity.split(separator: " ").last.flatMap { facts.constant(named: String($0)) } : nil
            entries[key] = QueryValue(
                expression: nil, identity: identity.hasPrefix("?") ? nil : identity, constant: constant,
                isTrue: identity == "true", roots: roots)
        }
    }

    /// A query nothing is known about but where it came from (a parameter, a call's result).
    init(opaque origin: String) {
        self.origin = origin
        isComplete = false
    }

    /// The constant a key's value is (`kSecMatchLimitAll`), if it is one.
    func constant(for key: String) -> String? { entries[key]?.constant }

    /// Whether both queries are about the same item: they come from the same variable or
    /// expression with no identity attribute changed, or they agree on the class and on at least
    /// one naming attribute (account, service, server, tag, label) and on every identity
    /// attribute both have, and both have or both lack each of account, server and tag.
    func isSameItem(as other: KeychainQuery) -> Bool {
        if origin != other.origin,
            Self.primaryKeys.contains(where: { (entries[$0] == nil) != (other.entries[$0] == nil) })
        {
            // A query without the other's account (all items of a service) is another set of items.
            return false
        }
        var sharedNaming = 0
        for key in Self.identityKeys {
            guard let mine = entries[key], let theirs = other.entries[key] else { continue }
            if let myClass = mine.constant, let theirClass = theirs.constant, key == "kSecClass" {
                if myClass != theirClass { return false }
                continue
            }
            guard let myIdentity = mine.identity, let theirIdentity = theirs.identity else { continue }
            if myIdentity != theirIdentity { return false }
            if key != "kSecClass" && key != "kSecAttrAccessGroup" { sharedNaming += 1 }
        }
        if origin == other.origin { return true }
        return sharedNaming > 0 && entries["kSecClass"] != nil && other.entries["kSecClass"] != nil
    }
}

/// One value of a query: its expression when it was written in this file, the
/// ``QueryTemplate`` that compares it with another, the constant it is, and the names it was
/// built from (`keyPrefix + key` → `keyPrefix`, `key`).
package struct QueryValue {
    /// The expression, when the value was written in the file being linted.
    package var expression: ExprSyntax?
    /// Equal for the same expression (after local constants and builders); nil when unknown.
    package var identity: String?
    /// The Security constant it is or names through an alias.
    package var constant: String?
    /// Whether it is a literal true (`true`, `kCFBooleanTrue`).
    package var isTrue: Bool
    /// The variables and parameters it is built from.
    package var roots: Set<String>
}
