import SwiftSyntax

/// Module-wide facts about types isolated to the main actor, by attribute, conformance or inheritance.
package struct ActorFacts: Sendable, Hashable, Codable {
    /// No facts.
    package init() {}

    /// Adds what one file declares.
    package mutating func collect(from tree: SourceFileSyntax, path: String) {}

    /// Adds another file's facts.
    package mutating func merge(_ other: ActorFacts) {}

    /// Closes the merged facts over themselves; called once, after the last merge.
    package mutating func resolve() {}
}
