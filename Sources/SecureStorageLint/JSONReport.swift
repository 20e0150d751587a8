/// The `--json` report, for scripts:
///
/// ```json
/// {"version":1,"files":12,"findings":[{"file":"Sources/App/Keychain.swift","line":13,"column":9,
///   "utf16Column":9,"rule":"delete-then-add","severity":"warning","message":"…",
///   "related":{"line":17,"column":22,"message":"the item is added again here"}}],
///  "notLinted":[{"file":"Sources/Deep.swift","reason":"too-deep","message":"nests brackets 22 deep …"}],
///  "skippedTestFiles":1,"skippedTestFilePaths":["Sources/AppTests/LoginTests.swift"],
///  "summary":{"errors":0,"warnings":1,"notes":0,"notLinted":1}}
/// ```
///
/// `reason` is one of ``NotLintedReason/code``'s names; `skippedTestFiles` counts the test files
/// found in directories and left out, listed in `skippedTestFilePaths` (``TestCodePaths``; `--include-tests` lints them).
package enum JSONReport {
    /// The report of a run, one JSON object ending in a newline.
    package static func render(_ run: LintRun) -> String {
        let counts = run.counts
        let findings = run.findings.map { finding -> String in
            var object =
                "{\"file\":\(JSONText.string(finding.file)),\"line\":\(finding.position.line),\"column\":\(finding.position.column),"
                + "\"utf16Column\":\(finding.position.utf16Column),\"rule\":\(JSONText.string(finding.rule.rawValue)),"
                + "\"severity\":\(JSONText.string(finding.severity.rawValue)),\"message\":\(JSONText.string(finding.message))"
            if let related = finding.related {
                object +=
                    ",\"related\":{\"line\":\(related.position.line),\"column\":\(related.position.column),\"message\":\(JSONText.string(related.message))}"
            }
            return object + "}"
        }
        let notLinted = run.notLinted.map { file in
            "{\"file\":\(JSONText.string(file.path)),\"reason\":\(JSONText.string(file.reason.code)),\"message\":\(JSONText.string(file.reason.message))}"
        }
        return "{\"version\":1,\"files\":\(run.fileCount),\"findings\":[" + findings.joined(separator: ",")
            + "],\"notLinted\":[" + notLinted.joined(separator: ",")
            + "],\"skippedTestFiles\":\(run.skippedTestFiles.count),\"skippedTestFilePaths\":["
            + run.skippedTestFiles.map(JSONText.string).joined(separator: ",")
            + "],\"summary\":{\"errors\":\(counts[.error] ?? 0),\"warnings\":\(counts[.warning] ?? 0),\"notes\":\(counts[.note] ?? 0),\"notLinted\":\(run.notLinted.count)}}\n"
    }
}
