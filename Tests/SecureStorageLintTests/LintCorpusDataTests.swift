import Foundation
import XCTest

/// The ground truth of the real-app benchmark (`Benchmarks/LintCorpus/*.tsv`, read by
/// `scripts/bench-lint-corpus`) is well formed: exact headers and column counts, categories, roles,
/// tools and verdicts from their closed lists, every app named in apps.tsv, no duplicate rows.
final class LintCorpusDataTests: XCTestCase {
    /// `Benchmarks/LintCorpus/` of this checkout.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/LintCorpus")

    /// The categories a documented bug may have (score.py's list).
    static let categories: Set<String> = [
        "userdefaults", "plist-file", "file", "archive", "keychain-misuse", "core-data", "sqlite", "realm",
        "couchbase", "yapdatabase", "cookie", "url-cache", "pasteboard", "log", "hardcoded", "icloud-kv", "other"
    ]

    func testAppsAreWellFormed() throws {
        let rows = try Self.rows(of: "apps.tsv", columns: ["app", "repo", "commit", "role", "swift_files"])
        XCTAssertEqual(LintCorpusTable.problems(apps: rows), [])
        XCTAssertTrue(rows.contains { $0[3] == "training" } && rows.contains { $0[3] == "well-written" })
    }

    func testDocumentedBugsAreWellFormed() throws {
        let apps = try Self.rows(of: "apps.tsv", columns: ["app", "repo", "commit", "role", "swift_files"])
        let bugs = try Self.rows(of: "documented-bugs.tsv", columns: ["app", "file", "line", "category", "why"])
        XCTAssertFalse(bugs.isEmpty)
        XCTAssertEqual(LintCorpusTable.problems(bugs: bugs, apps: apps, categories: Self.categories), [])
    }

    func testLabelsAreWellFormed() throws {
        let apps = try Self.rows(of: "apps.tsv", columns: ["app", "repo", "commit", "role", "swift_files"])
        let labels = try Self.rows(
            of: "labels.tsv", columns: ["app", "file", "line", "tool", "rule", "verdict", "why"])
        XCTAssertFalse(labels.isEmpty)
        XCTAssertEqual(LintCorpusTable.problems(labels: labels, apps: apps), [])
    }

    /// The checks themselves reject each kind of malformed row, so the tests above cannot pass vacuously.
    func testMalformedRowsAreRejected() throws {
        let apps = try LintCorpusTable.parse(
            "app\trepo\tcommit\trole\tswift_files\nA\to/a\t\(String(repeating: "a", count: 40))\ttraining\t3\n",
            columns: ["app", "repo", "commit", "role", "swift_files"])
        XCTAssertEqual(LintCorpusTable.problems(apps: apps), [])
        XCTAssertThrowsError(try LintCorpusTable.parse("app\trepo\nA\n", columns: ["app", "repo"]))
        XCTAssertThrowsError(try LintCorpusTable.parse("repo\tapp\nA\tB\n", columns: ["app", "repo"]))
        XCTAssertThrowsError(try LintCorpusTable.parse("app\trepo\nA\tB", columns: ["app", "repo"]))
        XCTAssertFalse(LintCorpusTable.problems(apps: apps + [["B", "o/b", "short", "library", "x"]]).isEmpty)
        XCTAssertFalse(LintCorpusTable.problems(apps: apps + apps).isEmpty)
        let bug = ["A", "F.swift", "3", "log", "why"]
        XCTAssertEqual(LintCorpusTable.problems(bugs: [bug], apps: apps, categories: Self.categories), [])
        for bad in [
            ["Z", "F.swift", "3", "log", "why"], ["A", "F.m", "3", "log", "why"], ["A", "F.swift", "0", "log", "why"],
            ["A", "F.swift", "3", "logging", "why"], ["A", "F.swift", "3", "log", ""]
        ] {
            XCTAssertFalse(
                LintCorpusTable.problems(bugs: [bad], apps: apps, categories: Self.categories).isEmpty, "\(bad)")
        }
        XCTAssertFalse(LintCorpusTable.problems(bugs: [bug, bug], apps: apps, categories: Self.categories).isEmpty)
        let label = ["A", "F.swift", "3", "mobsfscan", "ios_log", "true", "why"]
        XCTAssertEqual(LintCorpusTable.problems(labels: [label], apps: apps), [])
        for bad in [
            ["A", "F.swift", "3", "semgrep", "ios_log", "true", "why"],
            ["A", "F.swift", "3", "mobsfscan", "ios_log", "maybe", "why"],
            ["A", "F.swift", "x", "mobsfscan", "ios_log", "true", "why"],
            ["Z", "F.swift", "3", "mobsfscan", "ios_log", "true", "why"]
        ] {
            XCTAssertFalse(LintCorpusTable.problems(labels: [bad], apps: apps).isEmpty, "\(bad)")
        }
        let relabelled = ["A", "F.swift", "3", "mobsfscan", "ios_log", "false", "why not"]
        XCTAssertFalse(LintCorpusTable.problems(labels: [label, relabelled], apps: apps).isEmpty)
    }

    /// The rows of one file of the benchmark's data.
    static func rows(of name: String, columns: [String]) throws -> [[String]] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return try LintCorpusTable.parse(text, columns: columns)
    }
}

/// Parsing and checking of the benchmark's tab-separated tables.
enum LintCorpusTable {
    /// Why a table could not be parsed.
    struct Malformed: Error, CustomStringConvertible {
        /// What is wrong, and on which line.
        let description: String
    }

    /// The rows after the header line, which must be exactly `columns`; every row has as many fields,
    /// and the text ends with a newline and has no carriage return.
    static func parse(_ text: String, columns: [String]) throws -> [[String]] {
        guard text.hasSuffix("\n"), !text.contains("\r") else {
            throw Malformed(description: "the file must end with a newline and use \\n line ends only")
        }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.first, header.components(separatedBy: "\t") == columns else {
            throw Malformed(description: "the header must be \(columns.joined(separator: " "))")
        }
        return try lines.dropFirst().enumerated().map { offset, line in
            let fields = line.components(separatedBy: "\t")
            guard fields.count == columns.count else {
                throw Malformed(description: "line \(offset + 2): \(fields.count) fields, expected \(columns.count)")
            }
            return fields
        }
    }

    /// What is wrong with apps.tsv's rows (app, repo, commit, role, swift_files).
    static func problems(apps: [[String]]) -> [String] {
        var problems = duplicates(apps.map { $0[0] }, in: "apps.tsv")
        for row in apps {
            let commitIsHex = row[2].count == 40 && row[2].allSatisfy(\.isHexDigit)
            if row[0].isEmpty || !row[1].contains("/") || !commitIsHex
                || !["training", "wrapper", "well-written"].contains(row[3]) || (Int(row[4]) ?? 0) <= 0
            {
                problems.append("apps.tsv: bad row \(row)")
            }
        }
        return problems
    }

    /// What is wrong with documented-bugs.tsv's rows (app, file, line, category, why).
    static func problems(bugs: [[String]], apps: [[String]], categories: Set<String>) -> [String] {
        let training = Set(apps.filter { $0[3] == "training" }.map { $0[0] })
        var problems = duplicates(bugs.map { $0[0...2].joined(separator: "\t") }, in: "documented-bugs.tsv")
        for row in bugs
        where !training.contains(row[0]) || !isSwiftFile(row[1]) || !isLine(row[2])
            || !categories.contains(row[3]) || row[4].isEmpty
        {
            problems.append("documented-bugs.tsv: bad row \(row)")
        }
        return problems
    }

    /// What is wrong with labels.tsv's rows (app, file, line, tool, rule, verdict, why).
    static func problems(labels: [[String]], apps: [[String]]) -> [String] {
        let names = Set(apps.map { $0[0] })
        var problems = duplicates(labels.map { $0[0...4].joined(separator: "\t") }, in: "labels.tsv")
        for row in labels
        where !names.contains(row[0]) || !isSwiftFile(row[1]) || !isLine(row[2])
            || !["keychain-lint", "mobsfscan"].contains(row[3]) || row[4].isEmpty
            || !["true", "false", "debatable"].contains(row[5]) || row[6].isEmpty
        {
            problems.append("labels.tsv: bad row \(row)")
        }
        return problems
    }

    private static func isSwiftFile(_ path: String) -> Bool {
        path.hasSuffix(".swift") && !path.hasPrefix("/") && !path.hasPrefix("./")
    }

    private static func isLine(_ text: String) -> Bool {
        (Int(text) ?? 0) > 0
    }

    private static func duplicates(_ keys: [String], in file: String) -> [String] {
        var seen = Set<String>()
        return keys.compactMap { key in seen.insert(key).inserted ? nil : "\(file): duplicate \(key)" }
    }
}
