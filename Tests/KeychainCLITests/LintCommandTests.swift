import Foundation
import XCTest

/// `keychain lint` and `keychain-lint` as processes: output formats, exit statuses, what is
/// passed through, and that no secret is ever echoed.
final class LintCommandTests: CLITestCase {
    static let linter = builtExecutable("keychain-lint")

    /// A source tree in the scratch directory: one file per entry.
    func tree(_ files: [String: String]) throws -> URL {
        let root = scratch.appendingPathComponent("src")
        for (name, text) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    let deleteThenAdd = """
        import Security
        func save(_ query: [String: Any]) -> OSStatus {
            let removed = SecItemDelete(query as CFDictionary)
            guard removed == errSecSuccess || removed == errSecItemNotFound else { return removed }
            return SecItemAdd(query as CFDictionary, nil)
        }

        """

    func testFindingsExitOneWithCompilerStyleLines() throws {
        let root = try tree(["Store.swift": deleteThenAdd, "Clean.swift": "let theme = \"dark\"\n"])
        let result = try run(["lint", root.path], input: Data())
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(
            result.stdout.hasPrefix(
                "\(root.path)/Store.swift:3:19: warning: SecItemDelete removes the item that SecItemAdd adds again below;"
            ), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("\(root.path)/Store.swift:5:12: note: the item is added again here"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("1 finding (0 errors, 1 warning, 0 notes) in 2 files\n"), result.stdout)
    }

    func testFailOnDecidesTheStatus() throws {
        let root = try tree(["Store.swift": deleteThenAdd])
        XCTAssertEqual(try run(["lint", "--fail-on", "error", root.path], input: Data()).status, 0)
        XCTAssertEqual(try run(["lint", "--fail-on", "note", root.path], input: Data()).status, 1)
        XCTAssertEqual(try run(["lint", "--disable", "delete-then-add", root.path], input: Data()).status, 0)
        XCTAssertEqual(try run(["lint", "--only", "hardcoded-secret", root.path], input: Data()).status, 0)
    }

    func testCleanCodeExitsZero() throws {
        let root = try tree(["Clean.swift": "let theme = \"dark\"\n"])
        let result = try run(["lint", root.path], input: Data())
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "no findings in 1 file\n")
    }

    func testUsageErrorsExit64() throws {
        let root = try tree(["Clean.swift": "let x = 1\n"])
        for arguments in [
            ["lint", "--bogus", root.path], ["lint"], ["lint", root.path + "/missing"],
            ["lint", "--disable", "no-such-rule", root.path],
            ["lint", "--json", "--sarif", root.path], ["lint", "--fail-on", "fatal", root.path]
        ] {
            let result = try run(arguments, input: Data())
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("Error:"), result.stderr)
        }
    }

    func testJSONAndSARIFReports() throws {
        let root = try tree(["Store.swift": deleteThenAdd])
        let json = try run(["lint", "--json", root.path], input: Data())
        XCTAssertEqual(json.status, 1)
        let findings = try XCTUnwrap(try json.json()["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["rule"] as? String }, ["delete-then-add"])
        let report = scratch.appendingPathComponent("lint.sarif")
        let sarif = try run(["lint", "--sarif", "--output", report.path, root.path], input: Data())
        XCTAssertEqual(sarif.status, 1)
        XCTAssertEqual(sarif.stdout, "")
        XCTAssertEqual(sarif.stderr, "1 finding (0 errors, 1 warning, 0 notes) in 1 file\n")
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "2.1.0")
    }

    func testHelpAndVersionAreTheLinters() throws {
        let help = try run(["lint", "--help"], input: Data())
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: keychain-lint"), help.stdout)
        let explain = try run(["lint", "--explain", "delete-then-add"], input: Data())
        XCTAssertTrue(explain.stdout.contains("errSecDuplicateItem"), explain.stdout)
        let toolHelp = try keychain("--help")
        XCTAssertTrue(toolHelp.stdout.contains("lint"), toolHelp.stdout)
    }

    func testUnreadableFilesAreReportedAndTheRestLinted() throws {
        let root = try tree(["Store.swift": deleteThenAdd])
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("Gone.swift").path, withDestinationPath: "/nonexistent/Gone.swift")
        let result = try run(["lint", "--fail-on", "error", root.path], input: Data())
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("Gone.swift: cannot be read; not linted"), result.stderr)
        XCTAssertTrue(result.stdout.contains("[delete-then-add]"))
    }

    /// A file built to make the parser run for hours (22 levels of `[` in an interpolation) is
    /// refused at once, and the status says a file was not linted rather than that findings were made.
    func testAFileNotLintedWinsOverFindingsInTheExitStatus() throws {
        let deep =
            "let s = \"\\(" + String(repeating: "[", count: 22) + "1" + String(repeating: "]", count: 22) + ")\"\n"
        let root = try tree(["Store.swift": deleteThenAdd, "Deep.swift": deep])
        let result = try run(["lint", root.path], input: Data())
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stdout.contains("Deep.swift: error: not linted: nests brackets 22 deep"), result.stdout)
        XCTAssertTrue(result.stdout.contains("[delete-then-add]"), result.stdout)
    }

    func testSecretsFoundAreNeverEchoed() throws {
        let token = "ghp_" + "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"
        let root = try tree([
            "Config.swift":
                "let githubToken = \"\(token)\"\nlet clientSecret = \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\"\n"
        ])
        for format in ["text", "json", "sarif"] {
            let result = try run(["lint", "--format", format, root.path], input: Data())
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stdout.contains("hardcoded-secret"), result.stdout)
            XCTAssertFalse(result.stdout.contains("wWPw5k4a") || result.stderr.contains("wWPw5k4a"), format)
            XCTAssertFalse(result.stdout.contains("9f86d081") || result.stderr.contains("9f86d081"), format)
        }
    }

    func testAMissingLinterIsReportedNotCrashedOn() throws {
        let alone = scratch.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        let copy = alone.appendingPathComponent("keychain")
        try FileManager.default.copyItem(at: Self.executable, to: copy)
        let result = try run(["lint", "Sources"], input: Data(), executable: copy, changing: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 127)
        XCTAssertTrue(result.stderr.contains("swift build --product keychain-lint"), result.stderr)
    }
}
