import Foundation
import KeychainCore
@testable import KeychainSync
import ServiceLifecycleTestKit
import XCTest

/// SyncService run as a task: it syncs what another device pushes, and ends with its task.
final class SyncServiceTests: SyncTestCase {
    func testTheServiceSyncsUntilItsTaskIsCancelled() async throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let synchronizers = try circle([laptop, server])
        let events = ServiceEventLog()
        let service = SyncService(synchronizer: synchronizers[1], pollInterval: .seconds(3600)) { events.append($0) }
        let task = Task { await service.run() }
        let firstRound = await eventually { events.synced > 0 }
        XCTAssertTrue(firstRound, "the first round happens at once")

        try laptop.add(password("pushed", "elsewhere", "v1"))
        try synchronizers[0].syncNow()
        let arrived = await eventually { (try? self.passwords(server)) == ["pushed/elsewhere": "v1"] }
        XCTAssertTrue(arrived, "the push woke the service")

        task.cancel()
        await task.value
        let roundsBefore = events.synced
        try laptop.add(password("pushed", "after", "v2"))
        try synchronizers[0].syncNow()
        try await Task.sleep(for: .seconds(1))
        XCTAssertEqual(events.synced, roundsBefore, "no round after the task ended")
        XCTAssertEqual(try passwords(server), ["pushed/elsewhere": "v1"])
        XCTAssertTrue(events.failures.isEmpty, "\(events.failures)")
    }

    /// Idle, the service does nothing (no round without a change, no busy loop), and a graceful
    /// shutdown of its group ends it.
    func testAnIdleServiceRestsAndAGracefulShutdownEndsIt() async throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let synchronizers = try circle([laptop, server])
        let events = ServiceEventLog()
        let service = SyncService(synchronizer: synchronizers[1], pollInterval: .seconds(3600)) { events.append($0) }
        try await testGracefulShutdown { trigger in
            let task = Task { await service.run() }
            let firstRound = await eventually { events.synced > 0 }
            XCTAssertTrue(firstRound, "the first round happens at once")
            // The first round saves the state, a change that the round after it finds settled.
            try await Task.sleep(for: .seconds(1))
            let settled = events.synced
            XCTAssertLessThanOrEqual(settled, 2)
            try await Task.sleep(for: .seconds(2))
            XCTAssertEqual(events.synced, settled, "no round while nothing changes")
            trigger.triggerGracefulShutdown()
            await task.value
        }
        XCTAssertTrue(events.failures.isEmpty, "\(events.failures)")
    }

    /// Checks `condition` every 100 ms for up to `seconds`.
    private func eventually(seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return condition()
    }
}

/// The events a sync service reported.
final class ServiceEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SyncServiceEvent] = []

    func append(_ event: SyncServiceEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var synced: Int {
        lock.lock()
        defer { lock.unlock() }
        return events.filter { if case .synced = $0 { true } else { false } }.count
    }

    var failures: [SyncError] {
        lock.lock()
        defer { lock.unlock() }
        return events.compactMap {
            switch $0 {
            case .syncFailed(let error), .compactionFailed(let error): error
            default: nil
            }
        }
    }
}
