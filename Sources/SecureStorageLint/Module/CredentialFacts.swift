import SwiftSyntax

/// Module-wide facts about constants whose value names a credential, properties and types that hold credentials.
package struct CredentialFacts: Sendable, Hashable, Codable {
    /// No facts.
    package init() {}

    /// Adds what one file declares.
    package mutating func collect(from tree: SourceFileSyntax, path: String) {}

    /// Adds another file's facts.
    package mutating func merge(_ other: CredentialFacts) {}

    /// Closes the merged facts over themselves; called once, after the last merge.
    package mutating func resolve() {}
}
