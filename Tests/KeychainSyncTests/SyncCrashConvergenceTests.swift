#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Three devices, each a `sync-stress` process making random adds, updates and deletes and
/// syncing, killed with SIGKILL at random moments, with the PostgreSQL server crashed and
/// restarted in the middle. Afterwards every device holds the same synchronizable items, every
/// acknowledged add of its own is everywhere, and no …ThisDeviceOnly item left its device.
final class SyncCrashConvergenceTests: SyncTestCase {
    func testRandomChangesWithKillsAndAServerRestartConverge() throws {
        let helper = try Self.helper()
        let names = ["d0", "d1", "d2"]
        let devices = try names.map { try device($0) }
        _ = try circle(devices)
        var acknowledged: Set<String> = []
        var kills = 0
        let seed = UInt64.random(in: 1...1_000_000)
        print("sync crash convergence seed \(seed)")
        for round in 0..<12 {
            if round == 6 { try postgres.restart(mode: "immediate") }  // a server crash in the middle
            var processes: [(Process, URL)] = []
            for (index, name) in names.enumerated() {
                let output = directory.appendingPathComponent("out-\(round)-\(index)")
                _ = FileManager.default.createFile(atPath: output.path, contents: nil)
                _ = FileManager.default.createFile(atPath: output.appendingPathExtension("err").path, contents: nil)
                let process = Process()
                process.executableURL = helper
                process.arguments = [
                    directory.appendingPathComponent(name).path, "\(index)", "\(seed &+ UInt64(round * 10 + index))",
                    "40"
                ]
                process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) {
                    $1
                }
                process.standardOutput = try FileHandle(forWritingTo: output)
                process.standardError = try FileHandle(forWritingTo: output.appendingPathExtension("err"))
                try process.run()
                processes.append((process, output))
            }
            usleep(UInt32.random(in: 50_000...400_000))
            for (process, _) in processes where Bool.random() && process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            for (process, output) in processes {
                process.waitUntilExit()
                let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
                let errors = (try? String(contentsOf: output.appendingPathExtension("err"), encoding: .utf8)) ?? ""
                XCTAssertTrue(killed || process.terminationStatus == 0, "round \(round): sync-stress failed: \(errors)")
                let lines = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                acknowledged.formUnion(
                    lines.split(separator: "\n").filter { $0.hasPrefix("ack ") }.map { String($0.dropFirst(4)) })
            }
        }
        XCTAssertGreaterThan(kills, 0)
        // Settle: every device syncs until nothing changes.
        let synchronizers = try names.map { KeychainSynchronizer(keychain: try reopen($0)) }
        for _ in 0..<3 { for synchronizer in synchronizers { try synchronizer.syncNow() } }
        let keychains = synchronizers.map(\.keychain)
        let expected = try passwords(keychains[0]).filter { !$0.key.hasPrefix("stress/local-") }
        for (index, keychain) in keychains.enumerated() {
            let held = try allPasswords(keychain)
            XCTAssertEqual(held.filter { !$0.key.hasPrefix("stress/local-") }, expected, "device \(index) differs")
            for other in names.indices where other != index {
                XCTAssertNil(
                    held["stress/local-d\(other)"], "device \(other)'s ThisDeviceOnly item reached device \(index)")
            }
            XCTAssertTrue(try keychain.verify().isClean)
        }
        for own in acknowledged {
            XCTAssertNotNil(expected["stress/\(own)"], "the acknowledged add \(own) was lost")
        }
        XCTAssertGreaterThan(acknowledged.count, 0)
        // The server holds one record per item ever synced: no duplicates.
        let circle = try XCTUnwrap(SyncStateStore.load(from: keychains[0])).circleID
        let live = try XCTUnwrap(SyncStateStore.load(from: keychains[0])).entries.values.filter { !$0.isTombstone }
            .count
        XCTAssertEqual(live, expected.count)
        let records = Int(
            try postgres.psql("SELECT count(*) FROM keychain_sync_records WHERE circle_id = '\(circle)'")
                .trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(records, try XCTUnwrap(SyncStateStore.load(from: keychains[0])).entries.count)
    }

    /// The `sync-stress` executable built beside the test bundle.
    private static func helper() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4
        where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("sync-stress").path) {
            directory.deleteLastPathComponent()
        }
        let executable = directory.appendingPathComponent("sync-stress")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            let message = "sync-stress is not built; run `swift build --build-tests` first."
            if ProcessInfo.processInfo.environment["REQUIRE_TEST_EXECUTABLES"] != nil {
                throw SyncError(.invalidState, message)
            }
            throw XCTSkip(message)
        }
        return executable
    }
}
