/// A place in a source file: 1-based line, and 1-based columns counted in UTF-8 bytes (as
/// compilers print them) and in UTF-16 code units (as SARIF counts them).
package struct SourcePosition: Sendable, Hashable, Comparable, Codable {
    /// The 1-based line.
    package var line: Int
    /// The 1-based column in UTF-8 bytes.
    package var column: Int
    /// The 1-based column in UTF-16 code units.
    package var utf16Column: Int

    /// A position from its parts.
    package init(line: Int, column: Int, utf16Column: Int) {
        self.line = line
        self.column = column
        self.utf16Column = utf16Column
    }

    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// One problem found in one file by one rule.
package struct Finding: Sendable, Hashable, Codable {
    /// The rule that found it.
    package var rule: RuleID
    /// Its severity (the rule's).
    package var severity: Severity
    /// The file, as the linter was given it or found it under a given directory.
    package var file: String
    /// Where the problem is.
    package var position: SourcePosition
    /// What is wrong here, in one sentence.
    package var message: String
    /// A second place that is part of the problem (the `SecItemAdd` after a `SecItemDelete`).
    package var related: RelatedPosition?

    /// A finding from its parts.
    package init(
        rule: RuleID, severity: Severity, file: String, position: SourcePosition, message: String,
        related: RelatedPosition? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.file = file
        self.position = position
        self.message = message
        self.related = related
    }
}

/// A second place that belongs to a finding, with what it is.
package struct RelatedPosition: Sendable, Hashable, Codable {
    /// Where it is, in the finding's file.
    package var position: SourcePosition
    /// What happens there.
    package var message: String
}
