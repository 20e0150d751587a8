import Foundation
import KeychainCore
import StressSupport

/// Several threads on two instances of one keychain, each thread mixing writes to its own items
/// (whose every outcome and value it can predict), adds and deletes racing on shared items
/// (whose outcomes it counts), and upserts of one hot item.
///
/// Prints one JSON object (``MixedReport``); exits 1 when anything unexpected surfaced, such as a
/// `database is locked` error or a value that is not the last one written.
struct MixedWorkload {
    let location: KeychainLocation
    let process: Int
    let threads: Int
    let operations: Int
    static let sharedKeys = 6
    static let ownKeysPerThread = 8

    init(_ arguments: StressArguments) throws {
        location = try arguments.location
        process = try arguments.integer("process")
        threads = try arguments.integer("threads", default: 4)
        operations = try arguments.integer("operations", default: 100)
    }

    func run() throws {
        // 8 writer connections take turns on one file: allow each a long wait for its turn, so
        // the suite measures lost work, not the busy timeout (5 s by default) of a loaded machine.
        let options = KeychainOptions(busyTimeout: .seconds(120))
        let instances = [
            try Keychain(location: location, options: options), try Keychain(location: location, options: options)
        ]
        let reports = NSLock()
        nonisolated(unsafe) var merged = MixedReport()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let report = runThread(thread, on: instances[thread % instances.count])
            reports.lock()
            merged.merge(report)
            reports.unlock()
        }
        let json = try JSONEncoder().encode(merged)
        FileHandle.standardOutput.write(json + Data("\n".utf8))
        if !merged.failures.isEmpty { exit(1) }
    }

    private func runThread(_ thread: Int, on keychain: Keychain) -> MixedReport {
        var report = MixedReport()
        var own: [String: Int] = [:]
        let base = (process * threads + thread) * 1_000_000
        for index in 0..<operations {
            do {
                let key = "p\(process)-t\(thread)-k\(index % Self.ownKeysPerThread)"
                let operation = StressOperation.allCases.randomElement()!
                let outcome = try operation.perform(
                    on: keychain, service: "own", key: key, value: stressValue(sequence: base + index))
                let expected = operation.expectedOutcome(present: own[key] != nil)
                if outcome != expected {
                    report.failures.append(
                        "\(operation.rawValue) \(key): \(outcome.rawValue), expected \(expected.rawValue)")
                }
                if outcome == .ok { own[key] = operation == .delete ? nil : base + index }
                let stored = try keychain.findFirst(
                    Query(.genericPassword, [.service: "own", .account: .string(key)]), returning: .data)?.data
                if stored != own[key].map(stressValue(sequence:)) {
                    report.failures.append(
                        "\(key) reads back \(stored.map { String(decoding: $0.prefix(12), as: UTF8.self) } ?? "nothing") after \(operation.rawValue)"
                    )
                }

                let shared = "s\(Int.random(in: 0..<Self.sharedKeys))"
                let race: StressOperation = Bool.random() ? .add : .delete
                if try race.perform(
                    on: keychain, service: "shared", key: shared, value: Data("p\(process)t\(thread)".utf8)) == .ok
                {
                    report.sharedSuccesses[shared + "/" + race.rawValue, default: 0] += 1
                }
                _ = try StressOperation.upsert.perform(
                    on: keychain, service: "hot", key: "hot", value: Data("hot-p\(process)-t\(thread)-\(index)".utf8))
            } catch {
                report.failures.append("operation \(index) of thread \(thread): \(error)")
            }
        }
        report.ownItems = own
        return report
    }
}
