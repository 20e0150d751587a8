import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Background sync: pushes after local writes, pulls when another device notifies.
final class BackgroundSyncTests: SyncTestCase {
    func testChangesPropagateWithoutAnyoneCallingSync() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let synchronizers = try circle([laptop, server])
        let events = EventLog()
        let background = synchronizers[1].startInBackground(pollInterval: .seconds(3600)) { events.append($0) }
        defer { background.stop() }
        XCTAssertTrue(wait { events.count > 0 }, "the first background sync happens at once")

        // Another device pushes: the NOTIFY wakes the background sync.
        try laptop.add(password("pushed", "elsewhere", "v1"))
        try synchronizers[0].syncNow()
        XCTAssertTrue(
            wait { (try? self.passwords(server)) == ["pushed/elsewhere": "v1"] }, "the item arrived by notification")

        // A local write (here, by this process; any process would do): pushed without a call.
        try server.add(password("written", "here", "v2"))
        XCTAssertTrue(
            wait {
                _ = try? synchronizers[0].syncNow()
                return (try? self.passwords(laptop))?["written/here"] == "v2"
            }, "the local write was pushed")
        XCTAssertFalse(events.failures.contains { $0.code == .tampered })
    }

    func testAnUnreachableServerIsRetriedAndNothingIsLost() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let synchronizers = try circle([laptop, server])
        let events = EventLog()
        let background = synchronizers[1].startInBackground(pollInterval: .seconds(1)) { events.append($0) }
        defer { background.stop() }
        XCTAssertTrue(wait { events.count > 0 })
        postgres.stop(mode: "fast")
        try server.add(password("offline", "write", "queued"))
        XCTAssertTrue(wait { events.failures.contains { $0.code == .serverUnreachable } }, "the failure is reported")
        try postgres.start()
        XCTAssertTrue(
            wait(seconds: 20) {
                _ = try? synchronizers[0].syncNow()
                return (try? self.passwords(laptop))?["offline/write"] == "queued"
            }, "pushed once the server is back")
    }

    /// Issue 34 §4: a record the server drops after every device had it goes unnoticed by an
    /// incremental sync, but background sync checks every record on a schedule and reports it.
    func testARecordTheServerDropsIsReportedByTheScheduledVerification() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        try laptop.add(password("kept", "user", "value"))
        let synchronizers = try circle([laptop, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        XCTAssertEqual(try passwords(phone), ["kept/user": "value"])
        let events = EventLog()
        let background = synchronizers[1].startInBackground(
            pollInterval: .seconds(1), verificationInterval: .seconds(3)
        ) { events.append($0) }
        defer { background.stop() }
        XCTAssertTrue(wait { events.count > 0 }, "the first (verifying) sync")
        XCTAssertTrue(events.failures.isEmpty)

        let circle = try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID.uuidString
        try postgres.psql("DELETE FROM keychain_sync_records WHERE circle_id = '\(circle)'")
        XCTAssertNoThrow(try synchronizers[0].syncNow(), "an incremental sync does not read what it already had")
        XCTAssertTrue(
            wait { events.failures.contains { $0.code == .tampered } },
            "the scheduled verification reports the dropped record")
        XCTAssertEqual(try passwords(phone), ["kept/user": "value"], "nothing was applied")
    }

    /// Polls `condition` every 100 ms for up to `seconds`.
    private func wait(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return condition()
    }
}

/// The events a background sync reported.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [BackgroundSync.Event] = []

    func append(_ event: BackgroundSync.Event) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return events.count
    }

    var failures: [SyncError] {
        lock.lock()
        defer { lock.unlock() }
        return events.compactMap { if case .failure(let error) = $0 { error } else { nil } }
    }
}
