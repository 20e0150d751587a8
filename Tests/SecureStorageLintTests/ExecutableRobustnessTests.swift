import Foundation
import XCTest
@testable import SecureStorageLint

/// The `keychain-lint` executable against files that would make it run for hours: each file is
/// linted in a worker process killed at the time limit, every report lists the files not linted,
/// and the exit status says so even when findings were made elsewhere.
final class ExecutableRobustnessTests: XCTestCase {
    typealias LintResult = LintExecutable.Result

    func lint(_ arguments: [String]) throws -> LintResult { try LintExecutable.run(arguments) }

    func testAFileOverTheTimeLimitIsAbandonedAndTheOthersLinted() throws {
        var files = Dictionary(uniqueKeysWithValues: LintAttacks.slow.map { ($0.name, $0.source) })
        files["Ordinary.swift"] = LintAttacks.ordinary
        let directory = try sourceTree(files)
        // One worker: each slow file kills it, and the next file needs a new one.
        let result = try lint(["--json", "--jobs", "1", "--time-limit", "1", directory.path])
        XCTAssertLessThan(result.elapsed, .seconds(10), "keychain-lint took \(result.elapsed)")
        XCTAssertEqual(result.status, 74, result.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let notLinted = try XCTUnwrap(report["notLinted"] as? [[String: String]])
        XCTAssertEqual(
            notLinted.map { $0["file"] },
            ["DeepBlocks.swift", "Generics.swift", "LessThan.swift"].map { directory.appendingPathComponent($0).path })
        XCTAssertEqual(notLinted.map { $0["reason"] }, ["time-limit", "time-limit", "time-limit"])
        // The file after the slow ones was linted by a new worker.
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.map { $0["rule"] as? String }, ["delete-then-add"])
        XCTAssertTrue(
            result.stderr.contains(
                "LessThan.swift: took longer than 1 s to parse and lint (--time-limit), and was abandoned; not linted"),
            result.stderr)
    }

    /// Every attack, the slow file and a file with a finding: all three reports name each file not
    /// linted with its reason, and the status is 74 (not linted), not 1 (findings).
    func testEveryReportListsTheFilesNotLintedAndTheStatusSaysSo() throws {
        var files = Dictionary(uniqueKeysWithValues: LintAttacks.all.map { ($0.name, $0.source) })
        files["Slow.swift"] = LintAttacks.slow[0].source
        files["Ordinary.swift"] = LintAttacks.ordinary
        let directory = try sourceTree(files)
        let expected = (LintAttacks.all.map { ($0.name, $0.reason.code) } + [("Slow.swift", "time-limit")]).sorted {
            $0.0 < $1.0
        }

        let text = try lint(["--time-limit", "3", directory.path])
        XCTAssertLessThan(text.elapsed, .seconds(10), "keychain-lint took \(text.elapsed)")
        XCTAssertEqual(text.status, 74, text.stderr)
        for (name, code) in expected {
            XCTAssertTrue(text.stdout.contains("\(directory.path)/\(name): error: not linted: "), name)
            XCTAssertTrue(
                text.stdout.contains("/\(name): error: not linted: ") && text.stdout.contains(" [\(code)]\n"), name)
        }
        XCTAssertTrue(
            text.stdout.contains(
                "\(directory.path)/Interpolation.swift: error: not linted: nests brackets 22 deep (more than 16), where the Swift parser takes exponential time [too-deep]\n"
            ), text.stdout)
        XCTAssertTrue(text.stdout.contains("[delete-then-add]"), text.stdout)
        XCTAssertTrue(
            text.stdout.hasSuffix(
                "1 finding (0 errors, 1 warning, 0 notes) in \(files.count) files; \(expected.count) files not linted\n"
            ), text.stdout)

        let json = try lint(["--json", "--time-limit", "3", directory.path])
        XCTAssertEqual(json.status, 74, json.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let notLinted = try XCTUnwrap(report["notLinted"] as? [[String: String]])
        XCTAssertEqual(notLinted.map { URL(fileURLWithPath: $0["file"] ?? "").lastPathComponent }, expected.map(\.0))
        XCTAssertEqual(notLinted.map { $0["reason"] }, expected.map(\.1))
        XCTAssertEqual((report["summary"] as? [String: Int])?["notLinted"], expected.count)

        let sarif = try lint(["--sarif", "--time-limit", "3", directory.path])
        XCTAssertEqual(sarif.status, 74, sarif.stderr)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let invocation = try XCTUnwrap((run["invocations"] as? [[String: Any]])?.first)
        XCTAssertEqual(invocation["executionSuccessful"] as? Bool, false)
        let notifications = try XCTUnwrap(invocation["toolExecutionNotifications"] as? [[String: Any]])
        XCTAssertEqual(notifications.map { ($0["descriptor"] as? [String: String])?["id"] }, expected.map(\.1))
        let uris = notifications.map {
            ((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]
                as? [String: String])?["uri"] ?? ""
        }
        XCTAssertEqual(uris.map { URL(string: $0)?.lastPathComponent }, expected.map(\.0))
        XCTAssertEqual(notifications.map { $0["level"] as? String }, Array(repeating: "error", count: expected.count))
        XCTAssertEqual((run["results"] as? [Any])?.count, 1)
    }

    func testExitStatusesTellFindingsFromFilesNotLinted() throws {
        let directory = try sourceTree([
            "Ordinary.swift": LintAttacks.ordinary, "Deep.swift": LintAttacks.all[0].source,
            "Clean.swift": "let x = 1\n"
        ])
        XCTAssertEqual(try lint([directory.appendingPathComponent("Clean.swift").path]).status, 0)
        XCTAssertEqual(try lint([directory.appendingPathComponent("Ordinary.swift").path]).status, 1)
        XCTAssertEqual(
            try lint(["--fail-on", "error", directory.appendingPathComponent("Ordinary.swift").path]).status, 0)
        XCTAssertEqual(try lint([directory.appendingPathComponent("Deep.swift").path]).status, 74)
        XCTAssertEqual(try lint([directory.path]).status, 74)
        let help = try lint(["--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(
            words.contains(
                "1 when every file was linted and a finding is at or above --fail-on; 74 when a file was not linted"),
            help.stdout)
    }

    #if os(Linux)
    /// A worker whose keychain-lint is killed (a cancelled CI job) stops its parse at once
    /// instead of running on for hours as an orphan.
    func testWorkersExitWhenKeychainLintIsKilled() throws {
        let directory = try sourceTree(["Slow.swift": LintAttacks.slow[0].source])
        try LintExecutable.require()
        let parent = Process()
        parent.executableURL = LintExecutable.executable
        parent.arguments = ["--time-limit", "600", directory.path]
        parent.standardOutput = FileHandle.nullDevice
        parent.standardError = FileHandle.nullDevice
        try parent.run()
        defer { if parent.isRunning { kill(parent.processIdentifier, SIGKILL) } }
        let clock = ContinuousClock()
        var workers: [Int32] = []
        let searching = clock.now
        while workers.isEmpty && clock.now - searching < .seconds(30) {
            usleep(100_000)
            workers = Self.children(of: parent.processIdentifier)
        }
        XCTAssertEqual(workers.count, 1, "keychain-lint started no worker")
        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        let killed = clock.now
        while workers.contains(where: Self.isRunning) && clock.now - killed < .seconds(10) { usleep(100_000) }
        XCTAssertFalse(workers.contains(where: Self.isRunning), "the worker outlived keychain-lint by 10 s")
        for worker in workers where Self.isRunning(worker) { kill(worker, SIGKILL) }
    }

    /// The processes whose parent is `parent` (from /proc/PID/stat).
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let afterName = stat.range(of: ") ", options: .backwards)
            else { return false }
            let fields = stat[afterName.upperBound...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent
        }
    }

    /// Whether `pid` exists and is not a zombie waiting to be reaped.
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.range(of: ") ", options: .backwards)
        else { return false }
        return !stat[afterName.upperBound...].hasPrefix("Z")
    }
    #endif

    /// The rules' fixtures give the same JSON report from the worker processes as linted in this
    /// process (which FixtureTests checks against each fixture's `// expect:` comments).
    func testFixturesLintIdenticallyInWorkerProcesses() throws {
        let files = try SourceFileFinder().files(in: [FixtureTests.fixtures.path])
        XCTAssertGreaterThan(files.count, 15)
        let inProcess = LintRun.lint(files, with: SourceFileLinter(), jobs: 2)
        XCTAssertEqual(inProcess.notLinted, [])
        XCTAssertGreaterThan(inProcess.findings.count, 30)
        let result = try lint(["--json", FixtureTests.fixtures.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stdout, JSONReport.render(inProcess))
    }
}
