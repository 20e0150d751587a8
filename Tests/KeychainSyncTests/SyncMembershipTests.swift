import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Joining, leaving and removing devices.
final class SyncMembershipTests: SyncTestCase {
    func testARemovedDeviceReadsNothingWrittenAfterItsRemoval() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let phone = try device("phone")
        try laptop.add(password("before", "removal", "known to all"))
        let synchronizers = try circle([laptop, server, phone])
        let (a, b, lost) = (synchronizers[0], synchronizers[1], synchronizers[2])
        try b.syncNow()
        XCTAssertEqual(try passwords(phone), ["before/removal": "known to all"])
        let lostState = try XCTUnwrap(SyncStateStore.load(from: phone))

        let kept = try a.removeDevice("device-2")
        XCTAssertEqual(
            kept.map(\.name).sorted(), ["device-0", "device-1"], "the new key went to the remaining members only")
        try laptop.add(password("after", "removal", "secret from the phone"))
        try a.syncNow()
        try b.syncNow()
        XCTAssertEqual(try b.status().generation, 1)
        XCTAssertEqual(
            try passwords(server), ["before/removal": "known to all", "after/removal": "secret from the phone"],
            "the remaining member took the new key and every record under it")
        XCTAssertEqual(try a.status().members.map(\.name).sorted(), ["device-0", "device-1"])

        assertSyncError(.removed, try lost.syncNow())
        XCTAssertEqual(try passwords(phone), ["before/removal": "known to all"])
        // With the keys it had, the lost device opens no record on the server now.
        let oldKey = try XCTUnwrap(lostState.currentKey)
        let connection = try SyncServer.connect(postgres.connectionString, circleID: lostState.circleID)
        let records = try connection.allRecords()
        XCTAssertEqual(records.count, 2)
        for record in records {
            XCTAssertThrowsError(
                try RecordSealer.open(record.body, recordID: record.recordID, version: record.version, key: oldKey))
        }
        XCTAssertNil(try connection.keyWrap(for: lostState.deviceID, generation: 1), "no new key was wrapped to it")
    }

    func testPendingChangesOfAMemberSurviveARotation() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let phone = try device("phone")
        try laptop.add(password("shared", "item", "v1"))
        let synchronizers = try circle([laptop, server, phone])
        try synchronizers[1].syncNow()
        // The server changes an item offline while the laptop removes the phone.
        try server.update(
            Query(.genericPassword, [.service: "shared"], synchronizable: .yes),
            with: ItemChanges(data: Data("v2".utf8)))
        try synchronizers[0].removeDevice("device-2")
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        XCTAssertEqual(try passwords(laptop), ["shared/item": "v2"])
        XCTAssertEqual(try passwords(server), ["shared/item": "v2"])
    }

    func testADeletionMadeOfflineSurvivesARotation() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let phone = try device("phone")
        try laptop.add(password("shared", "item", "v1"))
        try laptop.add(password("other", "item", "stays"))
        let synchronizers = try circle([laptop, server, phone])
        try synchronizers[1].syncNow()
        // The server deletes an item offline while the laptop removes the phone.
        try server.delete(Query(.genericPassword, [.service: "shared"], synchronizable: .yes))
        try synchronizers[0].removeDevice("device-2")
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        XCTAssertEqual(
            try passwords(laptop), ["other/item": "stays"], "the deletion reached the laptop under the new key")
        XCTAssertEqual(try passwords(server), ["other/item": "stays"])
    }

    func testLeavingKeepsTheItemsAndStopsSyncing() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("kept", "item", "v"))
        let synchronizers = try circle([laptop, server])
        try synchronizers[1].leave()
        XCTAssertEqual(try passwords(server), ["kept/item": "v"])
        assertSyncError(.notAMember, try synchronizers[1].syncNow())
        XCTAssertEqual(try synchronizers[0].status().members.count, 1)
        XCTAssertNil(try SyncStateStore.load(from: server))
    }

    func testOneCirclePerKeychain() throws {
        let laptop = try device("laptop")
        let sync = KeychainSynchronizer(keychain: laptop)
        let code = try sync.createCircle(server: postgres.connectionString, deviceName: "laptop")
        assertSyncError(.invalidState, try sync.createCircle(server: postgres.connectionString, deviceName: "again"))
        assertSyncError(
            .invalidState,
            try sync.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "again"))
        assertSyncError(.invalidState, try sync.removeDevice("laptop"))
    }

    func testAnUnreachableServerLosesNothing() throws {
        let laptop = try device("laptop")
        let sync = KeychainSynchronizer(keychain: laptop)
        _ = try sync.createCircle(server: postgres.connectionString, deviceName: "laptop")
        var state = try XCTUnwrap(SyncStateStore.load(from: laptop))
        let reachable = state.server
        state.server = "host=/nonexistent-\(UUID().uuidString.prefix(6)) dbname=x connect_timeout=1"
        try SyncStateStore.save(state, in: laptop)
        try laptop.add(password("offline", "write", "queued"))
        assertSyncError(.serverUnreachable, try sync.syncNow())
        state.server = reachable
        try SyncStateStore.save(state, in: laptop)
        XCTAssertEqual(try sync.syncNow().pushed, 1, "the write made offline is pushed once the server is back")
    }
}
