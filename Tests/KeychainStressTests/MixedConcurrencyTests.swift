import Foundation
import KeychainCore
import StressSupport
import XCTest

/// Issue 7's concurrency suite: 4 processes × 4 threads (`keychain-stress mixed`), each thread on
/// one of two instances per process, mixing writes to its own items, add/delete races on shared
/// items and upserts of one hot item. Afterwards: no error surfaced (no `database is locked`), no
/// lost update, no duplicate, every shared item exists exactly when its successful adds outnumber
/// its successful deletes, and the keychain verifies.
///
/// `STRESS_OPERATIONS` sets the operations per thread (default 60).
final class MixedConcurrencyTests: XCTestCase {
    func testFourProcessesOfFourThreadsLoseNothing() throws {
        let processes = 4
        let operations = ProcessInfo.processInfo.environment["STRESS_OPERATIONS"].flatMap(Int.init) ?? 60
        let scratch = try ScratchDirectory("kc-mixed")
        let home = scratch.file("keychain")
        let started = Date()
        let helpers = try (0..<processes).map { process in
            try StressHelper.start(
                [
                    "mixed", "--keychain", home.path, "--process", "\(process)", "--threads", "4", "--operations",
                    "\(operations)"
                ],
                output: scratch.file("out-\(process)"), errors: scratch.file("err-\(process)"))
        }
        var merged = MixedReport()
        for (process, helper) in helpers.enumerated() {
            guard StressHelper.wait(for: helper, timeout: 600) else {
                helpers.forEach(StressHelper.killHard)
                return XCTFail("process \(process) did not finish within 10 minutes (killed)")
            }
            let output = try Data(contentsOf: scratch.file("out-\(process)"))
            let errors = try String(contentsOf: scratch.file("err-\(process)"), encoding: .utf8)
            XCTAssertEqual(helper.terminationStatus, 0, "process \(process): \(errors)")
            guard let report = try? JSONDecoder().decode(MixedReport.self, from: output) else {
                return XCTFail("process \(process) printed no report: \(errors)")
            }
            merged.merge(report)
        }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(merged.failures, [])

        let keychain = try Keychain(location: KeychainLocation(directory: home))
        let own = try keychain.findAll(Query(.genericPassword, [.service: "own"]), returning: [.attributes, .data])
        var stored: [String: Int] = [:]
        for item in own {
            let key = try XCTUnwrap(item.attributes[.account]?.stringValue)
            XCTAssertNil(
                stored.updateValue(try XCTUnwrap(stressSequence(of: XCTUnwrap(item.data))), forKey: key),
                "\(key) exists twice")
        }
        XCTAssertEqual(stored, merged.ownItems, "the threads' own items differ from their last acknowledged writes")

        let shared = try keychain.findAll(Query(.genericPassword, [.service: "shared"]))
        let present = Dictionary(grouping: shared) { $0.attributes[.account]?.stringValue ?? "?" }
        for index in 0..<6 {
            let key = "s\(index)"
            let balance =
                merged.sharedSuccesses["\(key)/add", default: 0] - merged.sharedSuccesses["\(key)/delete", default: 0]
            XCTAssertLessThanOrEqual(present[key]?.count ?? 0, 1, "\(key) exists more than once")
            XCTAssertEqual(
                balance, present[key]?.count ?? 0,
                "\(key): successful adds minus deletes must equal the copies that exist")
        }
        let hot = try keychain.findAll(Query(.genericPassword, [.service: "hot"]), returning: [.attributes, .data])
        XCTAssertEqual(hot.count, 1, "the upserted item must exist exactly once")
        // The last upsert wins, and whichever thread wrote last, it was that thread's last write.
        let hotValue = hot.first?.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        XCTAssertTrue(
            hotValue.hasPrefix("hot-p") && hotValue.hasSuffix("-\(operations - 1)"),
            "the hot item holds \(hotValue), not a thread's last write")

        let report = try keychain.verify()
        XCTAssertTrue(report.isClean, "\(report.damagedItems) \(report.databaseProblems) \(report.stateProblem ?? "")")
        let writes = processes * 4 * operations * 3
        print(
            "concurrency: \(processes) processes × 4 threads × \(operations) rounds (\(writes) writes, \(writes / 3) read-backs) in \(String(format: "%.1f", elapsed)) s; \(stored.count) own items, \(shared.count) shared, verify clean"
        )
    }
}
