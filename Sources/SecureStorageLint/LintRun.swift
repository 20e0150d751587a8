import Foundation

/// The result of linting many files: every finding in a stable order, and the files that were
/// not linted.
package struct LintRun: Sendable {
    /// The files given (linted or not).
    package var fileCount: Int
    /// Every finding, ordered by file, line and column.
    package var findings: [Finding]
    /// Files that were not linted, with why, in the order given.
    package var notLinted: [NotLintedFile]

    /// A run over `fileCount` files.
    package init(fileCount: Int, findings: [Finding], notLinted: [NotLintedFile] = []) {
        self.fileCount = fileCount
        self.findings = findings
        self.notLinted = notLinted
    }

    /// A run of `files` and what linting each gave, in the same order.
    package init(files: [String], outcomes: [FileLintOutcome]) {
        var findings: [Finding] = []
        var notLinted: [NotLintedFile] = []
        for (path, outcome) in zip(files, outcomes) {
            switch outcome {
            case .linted(let found): findings.append(contentsOf: found)
            case .notLinted(let reason): notLinted.append(NotLintedFile(path: path, reason: reason))
            }
        }
        self.init(fileCount: files.count, findings: findings, notLinted: notLinted)
    }

    /// Lints `files` with `linter` in this process, on up to `jobs` threads, with no time limit
    /// (the benchmarks and tests; `keychain-lint` lints in worker processes, ``LintWorkerPool``).
    package static func lint(_ files: [String], with linter: SourceFileLinter, jobs: Int) -> LintRun {
        let results = UnsafeMutableBufferPointer<FileLintOutcome>.allocate(capacity: files.count)
        results.initialize(repeating: .linted([]))
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        let workers = max(1, min(jobs, files.count))
        let done = DispatchGroup()
        for worker in 0..<workers {
            done.enter()
            LargeStackThread.start {
                for index in stride(from: worker, to: files.count, by: workers) {
                    shared[index] = linter.lintFile(atPath: files[index])
                }
                done.leave()
            }
        }
        done.wait()
        return LintRun(files: files, outcomes: Array(results))
    }

    /// The number of findings of each severity.
    package var counts: [Severity: Int] {
        var counts: [Severity: Int] = [:]
        for finding in findings { counts[finding.severity, default: 0] += 1 }
        return counts
    }
}
