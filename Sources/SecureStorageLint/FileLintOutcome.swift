/// What linting one file gave: its findings, or why it was not linted. Worker processes send it
/// to the process that started them as one line of JSON.
package enum FileLintOutcome: Sendable, Hashable, Codable {
    /// The file was parsed and linted; these are its findings, ordered by position.
    case linted([Finding])
    /// The file was not linted.
    case notLinted(NotLintedReason)
}

/// What the first pass over one file gave: the facts it contributes to its module, or why it
/// cannot be linted.
package enum FactsOutcome: Sendable, Hashable, Codable {
    /// The file was parsed; these are its facts.
    case collected(ModuleFacts)
    /// The file cannot be linted.
    case notLinted(NotLintedReason)
}
