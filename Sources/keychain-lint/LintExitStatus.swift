import SecureStorageLint

/// keychain-lint's exit statuses, so that CI can tell a file it could not lint from findings.
enum LintExitStatus {
    /// Every file was linted, and no finding is at or above `--fail-on`.
    static let clean: Int32 = 0
    /// Every file was linted, and a finding is at or above `--fail-on`.
    static let findings: Int32 = 1
    /// A usage error: an unknown option or rule, a path that does not exist (ArgumentParser's).
    static let usage: Int32 = 64
    /// A file was not linted (unreadable, too large, too deep, over the time limit, or its worker
    /// crashed), or the report could not be written. It wins over ``findings``: the report still
    /// lists the findings of the other files, but a clean or failing verdict on the whole would
    /// hide the file nobody looked at.
    static let notLinted: Int32 = 74

    /// The status a run ends with.
    static func of(_ run: LintRun, failingOn threshold: Severity) -> Int32 {
        if !run.notLinted.isEmpty { return notLinted }
        if run.findings.contains(where: { $0.severity >= threshold }) { return findings }
        return clean
    }
}
