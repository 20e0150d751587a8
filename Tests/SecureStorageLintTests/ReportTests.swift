import Foundation
import XCTest
@testable import SecureStorageLint

/// The text, JSON and SARIF reports: shapes, escaping, columns and URIs.
final class ReportTests: XCTestCase {
    /// One delete-then-add in a file whose name and line need escaping and UTF-16 columns.
    let source = """
        func f(q: CFDictionary) -> OSStatus {
            /* 中文 😀 */ SecItemDelete(q)
            return SecItemAdd(q, nil)
        }
        """
    let path = "Sources/My App/\"Quoted\".swift"

    var run: LintRun {
        LintRun(fileCount: 1, findings: SourceFileLinter().lint(path: path, bytes: Array(source.utf8)))
    }

    func testColumnsAreBytesForTextAndUTF16ForSARIF() throws {
        let finding = try XCTUnwrap(run.findings.first { $0.rule == .deleteThenAdd })
        // "    /* 中文 😀 */ " is 4 + 3 + 6 + 1 + 4 + 4 bytes = 22 bytes, 4 + 3 + 2 + 1 + 2 + 4 = 16 UTF-16 units.
        XCTAssertEqual(finding.position.line, 2)
        XCTAssertEqual(finding.position.column, 23)
        XCTAssertEqual(finding.position.utf16Column, 17)
        XCTAssertEqual(finding.related?.position.line, 3)
    }

    func testTextReport() {
        let text = TextReport.render(run)
        XCTAssertTrue(
            text.hasPrefix("Sources/My App/\"Quoted\".swift:2:23: warning: SecItemDelete removes the item"), text)
        XCTAssertTrue(text.contains(" [delete-then-add]\n"))
        XCTAssertTrue(text.contains("Sources/My App/\"Quoted\".swift:3:12: note: the item is added again here\n"), text)
        XCTAssertTrue(text.hasSuffix("1 finding (0 errors, 1 warning, 0 notes) in 1 file\n"), text)
        XCTAssertEqual(TextReport.render(LintRun(fileCount: 3, findings: [])), "no findings in 3 files\n")
    }

    func testTextReportEscapesControlCharacters() {
        let named = LintRun(
            fileCount: 1,
            findings: SourceFileLinter().lint(
                path: "a\nb:1:1: error: forged\u{1B}[31m.swift", bytes: Array(source.utf8)))
        let text = TextReport.render(named)
        XCTAssertTrue(text.hasPrefix("a\\u{A}b:1:1: error: forged\\u{1B}[31m.swift:2:23: warning:"), text)
        XCTAssertEqual(text.split(separator: "\n").count, 3)
    }

    func testJSONReport() throws {
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(JSONReport.render(run).utf8)) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, 1)
        XCTAssertEqual(object["files"] as? Int, 1)
        let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.count, 1)
        XCTAssertEqual(findings[0]["file"] as? String, path)
        XCTAssertEqual(findings[0]["line"] as? Int, 2)
        XCTAssertEqual(findings[0]["column"] as? Int, 23)
        XCTAssertEqual(findings[0]["utf16Column"] as? Int, 17)
        XCTAssertEqual(findings[0]["rule"] as? String, "delete-then-add")
        XCTAssertEqual(findings[0]["severity"] as? String, "warning")
        XCTAssertEqual((findings[0]["related"] as? [String: Any])?["line"] as? Int, 3)
        XCTAssertEqual(object["summary"] as? [String: Int], ["errors": 0, "warnings": 1, "notes": 0, "notLinted": 0])
        XCTAssertEqual((object["notLinted"] as? [Any])?.count, 0)
    }

    func testJSONEscapesControlCharacters() throws {
        let escaped = JSONText.string("a\"b\\c\nd\u{1}e")
        XCTAssertEqual(escaped, #""a\"b\\c\nd\u0001e""#)
        XCTAssertEqual(
            try JSONSerialization.jsonObject(with: Data(escaped.utf8), options: .fragmentsAllowed) as? String,
            "a\"b\\c\nd\u{1}e")
    }

    /// What SARIF 2.1.0 requires of a log, checked property by property (the schema's required
    /// properties and constraints for what the report emits).
    func testSARIFReportIsAValidLog() throws {
        let log = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(SARIFReport.render(run, workingDirectory: "/work/my repo").utf8))
                as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        XCTAssertNotNil(log["$schema"] as? String)
        let runs = try XCTUnwrap(log["runs"] as? [[String: Any]])
        XCTAssertEqual(runs.count, 1)
        let sarifRun = runs[0]
        XCTAssertEqual(sarifRun["columnKind"] as? String, "utf16CodeUnits")
        let base = try XCTUnwrap((sarifRun["originalUriBaseIds"] as? [String: [String: String]])?["SRCROOT"]?["uri"])
        XCTAssertEqual(base, "file:///work/my%20repo/")
        let driver = try XCTUnwrap((sarifRun["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "keychain-lint")
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.compactMap { $0["id"] as? String }, RuleID.allCases.map(\.rawValue))
        for rule in rules {
            XCTAssertNotNil((rule["shortDescription"] as? [String: String])?["text"])
            XCTAssertNotNil((rule["help"] as? [String: String])?["markdown"])
            XCTAssertTrue(
                ["note", "warning", "error"].contains(
                    (rule["defaultConfiguration"] as? [String: String])?["level"] ?? ""))
        }
        let results = try XCTUnwrap(sarifRun["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 1)
        let result = results[0]
        let ruleIndex = try XCTUnwrap(result["ruleIndex"] as? Int)
        XCTAssertEqual(rules[ruleIndex]["id"] as? String, result["ruleId"] as? String)
        XCTAssertEqual(result["level"] as? String, "warning")
        XCTAssertNotNil((result["message"] as? [String: String])?["text"])
        let location = try XCTUnwrap(
            ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        let artifact = try XCTUnwrap(location["artifactLocation"] as? [String: String])
        XCTAssertEqual(artifact["uri"], "Sources/My%20App/%22Quoted%22.swift")
        XCTAssertEqual(artifact["uriBaseId"], "SRCROOT")
        let region = try XCTUnwrap(location["region"] as? [String: Int])
        XCTAssertEqual(region, ["startLine": 2, "startColumn": 17])
        let related = try XCTUnwrap((result["relatedLocations"] as? [[String: Any]])?.first)
        XCTAssertEqual(related["id"] as? Int, 1)
    }

    func testSARIFAbsolutePathsAreFileURIs() throws {
        let absolute = LintRun(
            fileCount: 1, findings: SourceFileLinter().lint(path: "/tmp/a b.swift", bytes: Array(source.utf8)))
        let text = SARIFReport.render(absolute, workingDirectory: "/")
        XCTAssertTrue(text.contains(#""artifactLocation":{"uri":"file:///tmp/a%20b.swift"}"#), text)
    }

    /// A file not linted is in every report, named with its reason, beside the findings.
    func testFilesNotLintedAreInEveryReport() throws {
        var refused = run
        refused.fileCount = 2
        refused.notLinted = [NotLintedFile(path: "Sources/Deep\n.swift", reason: .bracketsTooDeep(depth: 22))]
        let text = TextReport.render(refused)
        XCTAssertTrue(
            text.contains(
                "\nSources/Deep\\u{A}.swift: error: not linted: nests brackets 22 deep (more than 16), where the Swift parser takes exponential time [too-deep]\n"
            ), text)
        XCTAssertTrue(text.hasSuffix("1 finding (0 errors, 1 warning, 0 notes) in 2 files; 1 file not linted\n"), text)

        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(JSONReport.render(refused).utf8)) as? [String: Any])
        XCTAssertEqual(
            object["notLinted"] as? [[String: String]],
            [
                [
                    "file": "Sources/Deep\n.swift", "reason": "too-deep",
                    "message": "nests brackets 22 deep (more than 16), where the Swift parser takes exponential time"
                ]
            ])
        XCTAssertEqual((object["summary"] as? [String: Int])?["notLinted"], 1)

        let log = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(SARIFReport.render(refused, workingDirectory: "/work").utf8))
                as? [String: Any])
        let sarifRun = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let invocation = try XCTUnwrap((sarifRun["invocations"] as? [[String: Any]])?.first)
        XCTAssertEqual(invocation["executionSuccessful"] as? Bool, false)
        let notification = try XCTUnwrap((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
        XCTAssertEqual(notification["level"] as? String, "error")
        XCTAssertEqual((notification["descriptor"] as? [String: String])?["id"], "too-deep")
        XCTAssertEqual(
            (notification["message"] as? [String: String])?["text"],
            "not linted: " + NotLintedReason.bracketsTooDeep(depth: 22).message)
        let artifact =
            (((notification["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
                "artifactLocation"]) as? [String: String]
        XCTAssertEqual(artifact, ["uri": "Sources/Deep%0A.swift", "uriBaseId": "SRCROOT"])
        XCTAssertEqual((sarifRun["results"] as? [Any])?.count, 1)

        let clean = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(SARIFReport.render(run, workingDirectory: "/work").utf8))
                as? [String: Any])
        let cleanInvocation = try XCTUnwrap(
            (((clean["runs"] as? [[String: Any]])?.first)?["invocations"] as? [[String: Any]])?.first)
        XCTAssertEqual(cleanInvocation["executionSuccessful"] as? Bool, true)
    }

    func testReportedVersionIsThePackageVersion() {
        XCTAssertEqual(SARIFReport.toolVersion, "0.13.0")
    }
}
