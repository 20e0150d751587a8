import SwiftSyntax

/// Module-wide facts about query dictionaries built by helper functions and computed properties,
/// functions that delete or add items, and names given to Security constants.
///
/// Functions are known by a short signature, their name and first argument label (`remove(_`,
/// `set(forKey`, `clear(` without arguments), so `items.remove(at: 0)` is not `remove(_ key:)`.
/// Names declared twice with different meanings are dropped rather than guessed.
package struct QueryFacts: Sendable, Hashable, Codable {
    /// Names given to Security constants, by the alias's own name (`attrAccount` for
    /// `enum K { static let attrAccount = kSecAttrAccount as String }`) → constant.
    package private(set) var aliases: [String: String] = [:]
    /// Functions and computed properties that return a query literal, by signature.
    package private(set) var builders: [String: QueryBuilder] = [:]
    /// Alias and builder names declared twice with different meanings.
    package private(set) var ambiguousNames: Set<String> = []
    /// What each function does directly (until ``resolve()``, which drops it).
    package private(set) var functions: [String: FunctionEffects] = [:]
    /// Functions that delete items (`SecItemDelete`, or a call of such a function) and add none.
    package private(set) var deletingFunctions: Set<String> = []
    /// Functions that add items (`SecItemAdd`, or a call of such a function).
    package private(set) var addingFunctions: Set<String> = []

    /// No facts.
    package init() {}

    /// Adds what one file declares (one walk of the tree).
    package mutating func collect(from tree: SourceFileSyntax, path: String) {
        let collector = QueryFactsCollector()
        collector.walk(tree)
        for (name, constant) in collector.aliases { add(alias: name, constant) }
        for (name, builder) in collector.builders { add(builder: name, builder) }
        for (name, effects) in collector.functions { functions[name, default: FunctionEffects()].formUnion(effects) }
    }

    /// Adds another file's facts.
    package mutating func merge(_ other: QueryFacts) {
        ambiguousNames.formUnion(other.ambiguousNames)
        for name in other.ambiguousNames {
            aliases[name] = nil
            builders[name] = nil
        }
        for (name, constant) in other.aliases { add(alias: name, constant) }
        for (name, builder) in other.builders { add(builder: name, builder) }
        for (name, effects) in other.functions { functions[name, default: FunctionEffects()].formUnion(effects) }
        deletingFunctions.formUnion(other.deletingFunctions)
        addingFunctions.formUnion(other.addingFunctions)
    }

    /// Closes the merged facts over themselves: builder keys through aliases, builders built
    /// on builders, and a function that calls a deleting (adding) function deletes (adds). A
    /// function that both deletes and adds replaces an item and is not a deleting function.
    /// Call once, after the last merge.
    package mutating func resolve() {
        let unresolved = builders
        var memo: [String: QueryBuilder] = [:]
        for (name, builder) in unresolved {
            let resolved = builder.resolved(aliases: aliases, builders: unresolved, remainingBases: 4, memo: &memo)
            // A dictionary of other keys (`["name": name]`, `[CodingKeys.id: id]`) is no query.
            builders[name] = resolved.entries.isEmpty ? nil : resolved
        }
        let deleting = closure(of: { $0.deletes })
        addingFunctions = closure(of: { $0.adds })
        // A signature some declaration of which only deletes stays deleting, whatever another
        // type's method of the same name does (`SessionCache.remove(_:)` adding an item must not
        // hide `Keychain.remove(_:)`).
        deletingFunctions = deleting.filter {
            !addingFunctions.contains($0) || functions[$0]?.someDeclarationOnlyDeletes == true
        }
        functions = [:]
    }

    /// The constant a name stands for (`kSecAttrAccount`, or `attrAccount` aliasing it).
    package func constant(named name: String) -> String? {
        if name.hasPrefix("kSec") || name.hasPrefix("kCF") || name.hasPrefix("errSec") { return name }
        return aliases[name]
    }

    /// Whether a call calls one of the module's deleting functions.
    package func isDeleting(_ call: FunctionCallExprSyntax) -> Bool {
        !deletingFunctions.isEmpty && call.shortSignature.map(deletingFunctions.contains) == true
    }

    /// Whether a call calls one of the module's adding functions.
    package func isAdding(_ call: FunctionCallExprSyntax) -> Bool {
        !addingFunctions.isEmpty && call.shortSignature.map(addingFunctions.contains) == true
    }

    /// Whether the text names a deleting function (so a file without `SecItem` still needs the
    /// query rules: `remove(key)` then `set(value, key: key)`).
    package func mentionsDeletingFunction(in text: SourceText) -> Bool {
        guard !deletingFunctions.isEmpty else { return false }
        // Searching for many names would cost more than the walk it saves.
        if deletingFunctions.count > 32 { return true }
        var names: Set<Substring> = []
        for signature in deletingFunctions {
            // The name alone: `remove (key)` and `remove /* … */(key)` are calls too.
            if let open = signature.firstIndex(of: "(") { names.insert(signature[..<open]) }
        }
        return names.contains { text.bytes.containsSequence(Array($0.utf8)) }
    }

    private mutating func add(alias name: String, _ constant: String) {
        guard !ambiguousNames.contains(name) else { return }
        if let known = aliases[name], known != constant {
            aliases[name] = nil
            ambiguousNames.insert(name)
        } else {
            aliases[name] = constant
        }
    }

    private mutating func add(builder name: String, _ builder: QueryBuilder) {
        guard !ambiguousNames.contains(name) else { return }
        if let known = builders[name], known != builder {
            builders[name] = nil
            ambiguousNames.insert(name)
        } else {
            builders[name] = builder
        }
    }

    /// The functions with an effect directly or through the functions they call (a walk over
    /// the reversed call graph: each function is visited once).
    private func closure(of effect: (FunctionEffects) -> Bool) -> Set<String> {
        var callers: [String: [String]] = [:]
        for (name, effects) in functions { for callee in effects.calls { callers[callee, default: []].append(name) } }
        var reached = Set(functions.filter { effect($0.value) }.keys)
        var pending = Array(reached)
        while let callee = pending.popLast() {
            for caller in callers[callee] ?? [] where reached.insert(caller).inserted { pending.append(caller) }
        }
        return reached
    }
}

/// What a function does directly: SecItem calls and the functions it calls with arguments.
package struct FunctionEffects: Sendable, Hashable, Codable {
    /// It calls `SecItemDelete`.
    package var deletes = false
    /// It calls `SecItemAdd`.
    package var adds = false
    /// Short signatures of the functions it calls.
    package var calls: Set<String> = []

    /// Whether one declaration of this signature calls `SecItemDelete` and not `SecItemAdd`
    /// (set when declarations are merged; a single declaration's is `deletes && !adds`).
    package var someDeclarationOnlyDeletes = false

    /// Adds another declaration's effects (overloads and same-named methods share a signature).
    mutating func formUnion(_ other: FunctionEffects) {
        let mineOnlyDeletes = someDeclarationOnlyDeletes || (deletes && !adds)
        let theirsOnlyDeletes = other.someDeclarationOnlyDeletes || (other.deletes && !other.adds)
        deletes = deletes || other.deletes
        adds = adds || other.adds
        calls.formUnion(other.calls)
        someDeclarationOnlyDeletes = mineOnlyDeletes || theirsOnlyDeletes
    }
}

extension [UInt8] {
    /// Whether `needle` occurs in these bytes.
    fileprivate func containsSequence(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= count else { return false }
        return withUnsafeBufferPointer { haystack in
            var start = 0
            while start <= haystack.count - needle.count {
                if haystack[start] == first {
                    var matched = 1
                    while matched < needle.count && haystack[start + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                start += 1
            }
            return false
        }
    }
}
