/// The human-readable report: one `path:line:column: severity: message [rule]` line per finding
/// (the compilers' format, which editors and CI logs turn into links), then a summary line.
package enum TextReport {
    /// The report of a run.
    package static func render(_ run: LintRun) -> String {
        var output = ""
        for finding in run.findings {
            output += "\(finding.file):\(finding.position.line):\(finding.position.column): \(finding.severity.rawValue): \(finding.message) [\(finding.rule.rawValue)]\n"
            if let related = finding.related {
                output += "\(finding.file):\(related.position.line):\(related.position.column): note: \(related.message)\n"
            }
        }
        output += summary(run) + "\n"
        return output
    }

    /// `3 findings (1 error, 1 warning, 1 note) in 12 files`.
    package static func summary(_ run: LintRun) -> String {
        let counts = run.counts
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        if run.findings.isEmpty { return "no findings in \(count(run.fileCount, "file"))" }
        return "\(count(run.findings.count, "finding")) (\(count(counts[.error] ?? 0, "error")), \(count(counts[.warning] ?? 0, "warning")), \(count(counts[.note] ?? 0, "note"))) in \(count(run.fileCount, "file"))"
    }
}
