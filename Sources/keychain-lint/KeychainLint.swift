import ArgumentParser
import Foundation
import SecureStorageLint

/// `keychain-lint`: finds insecure storage and Keychain misuse in Swift sources.
@main
struct KeychainLint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain-lint",
        abstract: "Find insecure storage and Keychain misuse in Swift code.",
        discussion: """
            Parses every .swift file under the given paths (hidden directories and .build are skipped) \
            and reports, for each rule, where a secret can be lost or exposed. `keychain lint` runs this tool.

            Rules reason about a whole module: every file's declarations (query helpers, Security \
            constant aliases, credential types and constants, main-actor types) are read first, and \
            each file is then linted knowing those of its module. A module is a package target \
            (Sources/<Target>, Tests/<Target>) or else the directory given on the command line. Test \
            code found in directories (test targets, *Tests.swift, *Spec.swift, fixtures and mocks) \
            writes bad data on purpose and is skipped unless --include-tests is given; a directory or \
            file named on the command line is always linted.

            Each file is read, parsed and linted in a worker process, which is killed when the file \
            takes longer than --time-limit; such a file, and any file that is unreadable, over 16 MiB, \
            nests `[` more than 16 deep or any brackets more than 128 deep, is not linted: the others \
            are, and the report lists it (text: `path: error: not linted: … [reason]`; JSON: \
            "notLinted"; SARIF: a tool execution notification).

            Exit status: 0 when every file was linted and no finding is at or above --fail-on; 1 when \
            every file was linted and a finding is at or above --fail-on; 74 when a file was not \
            linted (whatever the findings in the others, which the report still lists) or the report \
            could not be written; 64 for a usage error (an unknown option or rule, a path that does \
            not exist).

            Suppress one finding with a comment on the line before it, giving the reason:
              // keychain-lint:disable-next-line delete-then-add -- reproduces the seed bug on purpose

            Examples:
              keychain-lint Sources
              keychain-lint --sarif --output lint.sarif Sources Tests
              keychain-lint --json --fail-on error App/
              keychain-lint --explain delete-then-add
            """,
        version: "keychain-lint (SecureStorage) \(SARIFReport.toolVersion)"
    )

    @Argument(help: "Files and directories to lint.")
    var paths: [String] = []

    @Option(help: "Report format: text, json or sarif.")
    var format: ReportFormat = .text

    @Flag(help: "The same as --format json.")
    var json = false

    @Flag(help: "The same as --format sarif.")
    var sarif = false

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(
        name: .customLong("fail-on"),
        help: "Exit with status 1 when a finding is at least this severe: note, warning or error.")
    var failOn: Severity = .warning

    @Option(help: "A rule not to run (repeatable).")
    var disable: [String] = []

    @Option(help: "Run only this rule (repeatable).")
    var only: [String] = []

    @Option(help: "A path or glob to skip, relative to the current directory (repeatable).")
    var exclude: [String] = []

    @Flag(
        name: .customLong("include-tests"),
        help: "Also lint test code found in directories (test targets, *Tests.swift, fixtures, mocks).")
    var includeTests = false

    @Option(help: "Files linted at once (default: one per core).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(
        name: .customLong("time-limit"),
        help: "Seconds one file may take to be parsed and linted before it is abandoned and reported as not linted.")
    var timeLimit: Double = InputLimits.defaultTimeLimit

    /// Run as a worker of another keychain-lint (paths on standard input, outcomes on standard output).
    @Flag(help: .hidden)
    var worker = false

    @Option(help: "Print the explanation and fix of a rule, then exit.")
    var explain: String?

    @Flag(name: .customLong("list-rules"), help: "List the rules with their severities, then exit.")
    var listRules = false

    mutating func validate() throws {
        if json && sarif { throw ValidationError("--json and --sarif cannot be used together.") }
        for id in disable + only + (explain.map { [$0] } ?? []) where RuleID(rawValue: id) == nil {
            throw ValidationError("'\(id)' is not a rule; keychain-lint --list-rules lists them.")
        }
        if paths.isEmpty && explain == nil && !listRules && !worker {
            throw ValidationError("Give at least one file or directory to lint.")
        }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if !(timeLimit > 0 && timeLimit <= 86_400) {
            throw ValidationError("--time-limit must be more than 0 and at most 86400 seconds.")
        }
    }

    func run() throws {
        if worker {
            LintWorkerService.serve(with: SourceFileLinter(enabledRules: enabledRules))
            return
        }
        if listRules {
            for rule in RuleCatalog.all {
                print(
                    "\(rule.id.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0)) \(rule.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(rule.summary)"
                )
            }
            return
        }
        if let explain, let id = RuleID(rawValue: explain) {
            let rule = RuleCatalog.descriptor(of: id)
            print(
                "\(rule.id.rawValue) (\(rule.severity.rawValue)): \(rule.summary)\n\n\(rule.explanation)\n\nReported:\n    \(rule.example)\nInstead:\n    \(rule.fix)\n\nSuppress:\n    // keychain-lint:disable-next-line \(rule.id.rawValue) -- reason"
            )
            return
        }
        let found: (files: [String], skippedTestFiles: [String])
        do {
            found = try SourceFileFinder(exclusions: exclude, includesTests: includeTests).search(paths)
        } catch {
            throw ValidationError(error.description)
        }
        let rules = enabledRules
        let workerArguments =
            ["--worker"] + RuleID.allCases.filter { !rules.contains($0) }.flatMap { ["--disable", $0.rawValue] }
        let pool = LintWorkerPool(
            executable: Self.ownExecutable, arguments: workerArguments, timeLimit: timeLimit, jobs: jobs)
        var run: LintRun
        do {
            let roots = paths.map(SourceFileFinder.normalized)
            run = try pool.lint(
                found.files, modules: ModuleMap.moduleIndices(of: found.files, roots: roots), roots: roots)
            run.skippedTestFiles = found.skippedTestFiles
        } catch {
            FileHandle.standardError.write(Data("keychain-lint: \(TextReport.visible(error.description))\n".utf8))
            throw ExitCode(LintExitStatus.notLinted)
        }
        for file in run.notLinted {
            FileHandle.standardError.write(
                Data("keychain-lint: \(TextReport.visible(file.path)): \(file.reason.message); not linted\n".utf8))
        }
        let chosen: ReportFormat = json ? .json : sarif ? .sarif : format
        let report =
            switch chosen {
            case .text: TextReport.render(run)
            case .json: JSONReport.render(run)
            case .sarif: SARIFReport.render(run, workingDirectory: FileManager.default.currentDirectoryPath)
            }
        if let output {
            do {
                try Data(report.utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                FileHandle.standardError.write(
                    Data(
                        "keychain-lint: cannot write the report to \(TextReport.visible(output)): \(TextReport.visible(error.localizedDescription))\n"
                            .utf8))
                throw ExitCode(LintExitStatus.notLinted)
            }
            if chosen != .text || !run.findings.isEmpty || !run.notLinted.isEmpty {
                FileHandle.standardError.write(Data((TextReport.summary(run) + "\n").utf8))
            }
        } else {
            FileHandle.standardOutput.write(Data(report.utf8))
        }
        let status = LintExitStatus.of(run, failingOn: failOn)
        if status != LintExitStatus.clean { throw ExitCode(status) }
    }

    /// The rules chosen by --only and --disable.
    private var enabledRules: Set<RuleID> {
        var rules =
            only.isEmpty ? Set(RuleID.allCases) : Set(only.compactMap(RuleID.init(rawValue:)) + [.unknownSuppression])
        rules.subtract(disable.compactMap(RuleID.init(rawValue:)))
        return rules
    }

    /// This executable, started again as the workers.
    private static var ownExecutable: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}

/// The report formats.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif
}

extension Severity: ExpressibleByArgument {}
