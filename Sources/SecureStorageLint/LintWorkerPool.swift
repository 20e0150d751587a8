import Foundation
#if !LINT_UNDER_BENCHMARK
import SecureStorageFoundation  // Locked (the benchmarks compile it into their copy of the linter)
#endif

/// Lints files in worker processes, at most `jobs` at once, abandoning any file that takes
/// longer than a time limit: the worker linting it is killed (the only way to stop swift-syntax
/// mid-parse and get the core back), reported as ``NotLintedReason/overTimeLimit(seconds:)``, and
/// a new worker takes the next file. A worker that crashes costs only its file as well.
package struct LintWorkerPool: Sendable {
    /// The executable started as a worker (`keychain-lint` itself).
    package var executable: String
    /// Its arguments (`--worker` and the rules to run).
    package var arguments: [String]
    /// The seconds one file may take.
    package var timeLimit: Double
    /// The number of workers.
    package var jobs: Int

    /// A pool starting `executable arguments…` as workers.
    package init(executable: String, arguments: [String], timeLimit: Double, jobs: Int) {
        self.executable = executable
        self.arguments = arguments
        self.timeLimit = timeLimit
        self.jobs = jobs
    }

    /// Lints `files`; throws when a worker cannot be started at all.
    package func lint(_ files: [String]) throws(LintWorkerError) -> LintRun {
        // A worker that dies while a request is written must not take this process with it.
        signal(SIGPIPE, SIG_IGN)
        let outcomes = UnsafeMutableBufferPointer<FileLintOutcome>.allocate(capacity: files.count)
        outcomes.initialize(repeating: .linted([]))
        defer { outcomes.deallocate() }
        nonisolated(unsafe) let shared = outcomes
        let startFailure = Locked<LintWorkerError?>(nil)  // the first worker start-up failure
        let slots = max(1, min(jobs, files.count))
        let done = DispatchGroup()
        for slot in 0..<slots {
            done.enter()
            Thread.detachNewThread { [self] in
                defer { done.leave() }
                var worker: LintWorkerProcess?
                for index in stride(from: slot, to: files.count, by: slots) {
                    if worker == nil {
                        do throws(LintWorkerError) {
                            worker = try LintWorkerProcess(executable: executable, arguments: arguments)
                        } catch {
                            startFailure.withLock { if $0 == nil { $0 = error } }
                            return
                        }
                    }
                    switch worker!.lint(files[index], timeLimit: timeLimit) {
                    case .answered(let outcome):
                        shared[index] = outcome
                    case .timedOut:
                        shared[index] = .notLinted(.overTimeLimit(seconds: timeLimit))
                        worker = nil
                    case .failed(let status):
                        shared[index] = .notLinted(.linterCrashed(status: status))
                        worker = nil
                    }
                }
            }
        }
        done.wait()
        if let failure = startFailure.withLock({ $0 }) { throw failure }
        return LintRun(files: files, outcomes: Array(outcomes))
    }
}
