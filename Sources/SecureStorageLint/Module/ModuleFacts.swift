import SwiftSyntax

/// What the rules know about the module a file belongs to, beyond the file itself: collected
/// from every file of the module first (``collect(from:path:)``), merged (``merge(_:)``), closed
/// over (``resolve()``), then handed to each file's rules through ``FileLintContext/module``.
///
/// Each part belongs to the rules that use it: queries built and deleted through helpers
/// (``QueryFacts``), credentials known by name, type and constant (``CredentialFacts``), and
/// which types run on the main actor (``ActorFacts``). Facts hold names, never the text of
/// string literals that could be secrets: worker processes send them to each other.
package struct ModuleFacts: Sendable, Hashable, Codable {
    /// Query builders, deleting and adding functions, Security constant aliases.
    package var queries = QueryFacts()
    /// Credential-named constants, properties and types.
    package var credentials = CredentialFacts()
    /// Main-actor types and the inheritance that makes a type one.
    package var actors = ActorFacts()

    /// No facts.
    package init() {}

    /// The facts one parsed file contributes.
    package static func collect(from parsed: ParsedSource, path: String) -> ModuleFacts {
        var facts = ModuleFacts()
        facts.queries.collect(from: parsed.tree, path: path)
        facts.credentials.collect(from: parsed.tree, path: path)
        facts.actors.collect(from: parsed.tree, path: path)
        return facts
    }

    /// Adds another file's facts.
    package mutating func merge(_ other: ModuleFacts) {
        queries.merge(other.queries)
        credentials.merge(other.credentials)
        actors.merge(other.actors)
    }

    /// Closes the merged facts over themselves (a function that calls a deleting function
    /// deletes; a subclass of a main-actor class is one). Call once, after the last merge.
    package mutating func resolve() {
        queries.resolve()
        credentials.resolve()
        actors.resolve()
    }

    /// The resolved facts of one parsed file alone (a file linted on its own).
    package static func ofSingleFile(_ parsed: ParsedSource, path: String) -> ModuleFacts {
        var facts = collect(from: parsed, path: path)
        facts.resolve()
        return facts
    }
}
