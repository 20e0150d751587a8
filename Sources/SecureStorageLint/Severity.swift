/// How serious a finding is, from a note worth reading to an error that should block a release.
///
/// Severities are ordered: `.note < .warning < .error`. `keychain-lint --fail-on warning` exits
/// with status 1 when any finding is a warning or an error.
package enum Severity: String, Sendable, CaseIterable, Comparable, Codable {
    /// Worth a look; often a choice that should be made explicitly.
    case note
    /// Probably a bug: a secret can be lost or exposed under some conditions.
    case warning
    /// A secret is exposed or unprotected as written.
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
