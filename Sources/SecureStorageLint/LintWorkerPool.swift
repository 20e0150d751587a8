import Foundation
#if !LINT_UNDER_BENCHMARK
import SecureStorageFoundation  // Locked (the benchmarks compile it into their copy of the linter)
#endif

/// Lints files in worker processes, at most `jobs` at once, abandoning any file that takes
/// longer than a time limit: the worker linting it is killed (the only way to stop swift-syntax
/// mid-parse and get the core back), reported as ``NotLintedReason/overTimeLimit(seconds:)``, and
/// a new worker takes the next file. A worker that crashes costs only its file as well.
///
/// A run is two passes over the files (see ``LintWorkerRequest``): the workers first collect
/// every file's ``ModuleFacts``, which this process merges per module, and then lint every file
/// knowing its module's facts. A file that cannot be read or parsed in the first pass is not
/// linted and adds nothing to its module.
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

    /// Lints `files`, each knowing the facts of the files of the same module (`modules[i]` is
    /// the module of `files[i]`, see ``ModuleMap``; `roots` are the paths they were found under);
    /// throws when a worker cannot be started.
    package func lint(_ files: [String], modules: [Int], roots: [String]) throws(LintWorkerError) -> LintRun {
        // A worker that dies while a request is written must not take this process with it.
        signal(SIGPIPE, SIG_IGN)
        let slots = (0..<max(1, min(jobs, files.count))).map { _ in WorkerSlot() }
        defer { for slot in slots { slot.worker?.stop() } }

        let collected: [FactsOutcome] = try run(files.count, on: slots, empty: .collected(ModuleFacts())) {
            slot, index in
            switch slot.ask(.collect(path: files[index]), as: FactsOutcome.self, pool: self) {
            case .success(let outcome): outcome
            case .failure(let reason): .notLinted(reason)
            }
        }
        let moduleFacts = Self.merge(collected, modules: modules)
        // The second pass takes the files module by module, so that each worker is told a
        // module's facts once, however the paths interleave modules (`App/x.swift` sorts between
        // `App/Sources/A/…` and `App/Sources/B/…`).
        let byModule = files.indices.sorted { (modules[$0], $0) < (modules[$1], $1) }
        let outcomes: [FileLintOutcome] = try run(files.count, on: slots, empty: .linted([]), order: byModule) {
            slot, index in
            if case .notLinted(let reason) = collected[index] { return .notLinted(reason) }
            let module = modules[index]
            if slot.module != module && !slot.unsendableModules.contains(module) {
                let sent = slot.ask(
                    .module(moduleFacts[module]), as: Bool.self, pool: self, timeLimit: Self.moduleTimeLimit)
                if case .success = sent {
                    slot.module = module
                } else {
                    // The facts could not be handed over (too large to decode in time): the file is
                    // not to blame, so a new worker lints it knowing only its own facts.
                    slot.unsendableModules.insert(module)
                    slot.module = nil
                    slot.worker = try? LintWorkerProcess(executable: executable, arguments: arguments)
                }
            }
            let request = LintWorkerRequest.lint(
                path: files[index], isTestCode: TestCodePaths.isTestCode(files[index], roots: roots))
            return switch slot.ask(request, as: FileLintOutcome.self, pool: self) {
            case .success(let outcome): outcome
            case .failure(let reason): .notLinted(reason)
            }
        }
        return LintRun(files: files, outcomes: outcomes)
    }

    /// The seconds a worker may take to take in a module's facts (decoding them, not linting).
    static let moduleTimeLimit: Double = 60

    /// The resolved facts of each module, from the facts of its files.
    package static func merge(_ collected: [FactsOutcome], modules: [Int]) -> [ModuleFacts] {
        var facts = [ModuleFacts](repeating: ModuleFacts(), count: (modules.max() ?? -1) + 1)
        for (outcome, module) in zip(collected, modules) {
            if case .collected(let found) = outcome { facts[module].merge(found) }
        }
        for index in facts.indices { facts[index].resolve() }
        return facts
    }

    /// Runs `work` for every index, slot `k` taking the `k`-th, `k + slots`-th, … index of
    /// `order` (all indices in order by default) on a thread of its own.
    private func run<Outcome>(
        _ count: Int, on slots: [WorkerSlot], empty: Outcome, order: [Int]? = nil,
        _ work: @escaping (WorkerSlot, Int) -> Outcome
    ) throws(LintWorkerError) -> [Outcome] {
        let results = UnsafeMutableBufferPointer<Outcome>.allocate(capacity: count)
        results.initialize(repeating: empty)
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        nonisolated(unsafe) let work = work
        let startFailure = Locked<LintWorkerError?>(nil)  // the first worker start-up failure
        let done = DispatchGroup()
        let slotCount = slots.count
        for (number, slot) in slots.enumerated() {
            nonisolated(unsafe) let slot = slot
            done.enter()
            Thread.detachNewThread { [self] in
                defer { done.leave() }
                for position in stride(from: number, to: count, by: slotCount) {
                    let index = order?[position] ?? position
                    if slot.worker == nil {
                        do throws(LintWorkerError) {
                            slot.worker = try LintWorkerProcess(executable: executable, arguments: arguments)
                            slot.module = nil
                        } catch {
                            startFailure.withLock { if $0 == nil { $0 = error } }
                            return
                        }
                    }
                    shared[index] = work(slot, index)
                }
            }
        }
        done.wait()
        if let failure = startFailure.withLock({ $0 }) { throw failure }
        return Array(results)
    }
}

/// One worker process of the pool and the module whose facts it was last told; only the
/// thread of its slot uses it.
final class WorkerSlot {
    /// The running worker, or nil after it was killed or crashed.
    var worker: LintWorkerProcess?
    /// The module whose facts the worker holds.
    var module: Int?
    /// Modules whose facts a worker of this slot could not take in; their files are linted
    /// knowing only their own facts.
    var unsendableModules: Set<Int> = []

    /// Asks the worker and, when it times out or fails, forgets it (it was killed) and says why
    /// the file is not linted.
    func ask<Value: Decodable>(
        _ request: LintWorkerRequest, as: Value.Type, pool: LintWorkerPool, timeLimit: Double? = nil
    ) -> Result<Value, NotLintedReason> {
        guard let worker else { return .failure(.linterCrashed(status: "no worker")) }
        switch worker.ask(request, timeLimit: timeLimit ?? pool.timeLimit) as LintWorkerProcess.Answer<Value> {
        case .answered(let value):
            return .success(value)
        case .timedOut:
            self.worker = nil
            return .failure(.overTimeLimit(seconds: timeLimit ?? pool.timeLimit))
        case .failed(let status):
            self.worker = nil
            return .failure(.linterCrashed(status: status))
        }
    }
}
