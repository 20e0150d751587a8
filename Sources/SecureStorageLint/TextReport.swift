/// The human-readable report: one `path:line:column: severity: message [rule]` line per finding
/// (the compilers' format, which editors and CI logs turn into links), one
/// `path: error: not linted: reason [code]` line per file not linted, then a summary line.
package enum TextReport {
    /// The report of a run.
    package static func render(_ run: LintRun) -> String {
        var output = ""
        for finding in run.findings {
            let file = visible(finding.file)
            output +=
                "\(file):\(finding.position.line):\(finding.position.column): \(finding.severity.rawValue): \(visible(finding.message)) [\(finding.rule.rawValue)]\n"
            if let related = finding.related {
                output += "\(file):\(related.position.line):\(related.position.column): note: \(related.message)\n"
            }
        }
        for file in run.notLinted {
            output += notLintedLine(file) + "\n"
        }
        output += summary(run) + "\n"
        return output
    }

    /// `Sources/Deep.swift: error: not linted: nests brackets 22 deep (…) [too-deep]`.
    package static func notLintedLine(_ file: NotLintedFile) -> String {
        "\(visible(file.path)): error: not linted: \(file.reason.message) [\(file.reason.code)]"
    }

    /// Control characters escaped (`\n` → `\u{A}`), so that a file name or a quoted key cannot
    /// start a line of its own or send escape sequences to the terminal.
    package static func visible(_ text: String) -> String {
        // Also the bidirectional overrides and isolates, which can make a line read otherwise than it is.
        func isHidden(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                || scalar.value == 0x200E || scalar.value == 0x200F
        }
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `3 findings (1 error, 1 warning, 1 note) in 12 files`, followed by `; 1 file not linted`
    /// when one was not, and by `; 40 test files skipped (--include-tests)` when test code was
    /// left out.
    package static func summary(_ run: LintRun) -> String {
        let counts = run.counts
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let notLinted =
            (run.notLinted.isEmpty ? "" : "; \(count(run.notLinted.count, "file")) not linted")
            + (run.skippedTestFiles.isEmpty
                ? "" : "; \(count(run.skippedTestFiles.count, "test file")) skipped (--include-tests)")
        if run.findings.isEmpty { return "no findings in \(count(run.fileCount, "file"))" + notLinted }
        return
            "\(count(run.findings.count, "finding")) (\(count(counts[.error] ?? 0, "error")), \(count(counts[.warning] ?? 0, "warning")), \(count(counts[.note] ?? 0, "note"))) in \(count(run.fileCount, "file"))"
            + notLinted
    }
}
