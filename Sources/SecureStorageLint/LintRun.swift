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
    /// Test files found in directories and left out (`--include-tests` lints them).
    package var skippedTestFiles: [String] = []

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
    /// (the benchmarks and tests; `keychain-lint` lints in worker processes, ``LintWorkerPool``):
    /// the facts of every file first, merged per module (``ModuleMap``, `roots` being the paths
    /// the files were found under), then every file knowing its module's facts.
    package static func lint(_ files: [String], with linter: SourceFileLinter, jobs: Int, roots: [String] = [])
        -> LintRun
    {
        let modules = ModuleMap.moduleIndices(of: files, roots: roots)
        let collected = onThreads(files.count, jobs: jobs, empty: FactsOutcome.collected(ModuleFacts())) {
            linter.collectFacts(atPath: files[$0])
        }
        let facts = LintWorkerPool.merge(collected, modules: modules)
        let outcomes = onThreads(files.count, jobs: jobs, empty: FileLintOutcome.linted([])) { index in
            if case .notLinted(let reason) = collected[index] { return .notLinted(reason) }
            return linter.lintFile(
                atPath: files[index], module: facts[modules[index]],
                isTestCode: TestCodePaths.isTestCode(files[index], roots: roots))
        }
        return LintRun(files: files, outcomes: outcomes)
    }

    /// `work` for every index below `count`, on up to `jobs` large-stack threads.
    private static func onThreads<Outcome: Sendable>(
        _ count: Int, jobs: Int, empty: Outcome, _ work: @escaping @Sendable (Int) -> Outcome
    ) -> [Outcome] {
        let results = UnsafeMutableBufferPointer<Outcome>.allocate(capacity: count)
        results.initialize(repeating: empty)
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        let workers = max(1, min(jobs, count))
        let done = DispatchGroup()
        for worker in 0..<workers {
            done.enter()
            LargeStackThread.start {
                for index in stride(from: worker, to: count, by: workers) { shared[index] = work(index) }
                done.leave()
            }
        }
        done.wait()
        return Array(results)
    }

    /// The number of findings of each severity.
    package var counts: [Severity: Int] {
        var counts: [Severity: Int] = [:]
        for finding in findings { counts[finding.severity, default: 0] += 1 }
        return counts
    }
}
