/// What a rule is for: its id, severity, a one-line summary and the paragraph that explains the
/// problem and its fix (`keychain-lint --explain ID`, and the help text of SARIF reports).
package struct RuleDescriptor: Sendable {
    /// The id used in output and in suppression comments.
    package var id: RuleID
    /// The rule's name in UpperCamelCase (SARIF `name`).
    package var name: String
    /// The severity of its findings.
    package var severity: Severity
    /// One line: what the rule finds.
    package var summary: String
    /// One paragraph: why it matters and what to write instead.
    package var explanation: String
    /// A line of code the rule reports, for `--explain`.
    package var example: String
    /// How to write that line instead.
    package var fix: String
}
