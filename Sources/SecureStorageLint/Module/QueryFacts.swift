import SwiftSyntax

/// Module-wide facts about query dictionaries built by helper functions, subscripts and computed properties, functions that delete or add items, and names given to Security constants.
package struct QueryFacts: Sendable, Hashable, Codable {
    /// No facts.
    package init() {}

    /// Adds what one file declares.
    package mutating func collect(from tree: SourceFileSyntax, path: String) {}

    /// Adds another file's facts.
    package mutating func merge(_ other: QueryFacts) {}

    /// Closes the merged facts over themselves; called once, after the last merge.
    package mutating func resolve() {}
}
