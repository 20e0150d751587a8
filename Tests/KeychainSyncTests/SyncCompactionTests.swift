import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Deletion records are removed from the server once every member has merged them, and never
/// before: no device misses a deletion, and nothing deleted comes back.
final class SyncCompactionTests: SyncTestCase {
    private func recordCount(_ circleID: UUID) throws -> Int {
        Int(
            try postgres.psql("SELECT count(*) FROM keychain_sync_records WHERE circle_id = '\(circleID)'")
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func testDeletionsEveryMemberMergedAreCompactedAndNothingComesBack() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let phone = try device("phone")
        for name in ["a", "b", "c"] { try laptop.add(password(name, "user", "secret-\(name)")) }
        let synchronizers = try circle([laptop, server, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let circleID = try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID
        try laptop.delete(Query(.genericPassword, [.service: "a"], synchronizable: .yes))
        try laptop.delete(Query(.genericPassword, [.service: "b"], synchronizable: .yes))
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 0, "the phone has not merged the deletions yet")
        XCTAssertEqual(try recordCount(circleID), 3)

        try synchronizers[2].syncNow()
        XCTAssertEqual(try passwords(phone), ["c/user": "secret-c"])
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 2)
        XCTAssertEqual(try recordCount(circleID), 1)
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 0, "nothing left to compact")
        for synchronizer in synchronizers { try synchronizer.syncNow(verifyingEverything: true) }
        for keychain in [laptop, server, phone] {
            XCTAssertEqual(try passwords(keychain), ["c/user": "secret-c"])
            XCTAssertEqual(
                try XCTUnwrap(SyncStateStore.load(from: keychain)).entries.count, 1,
                "the tombstones were forgotten everywhere")
        }
        // The same item added again after its deletion was compacted syncs as a new one.
        try server.add(password("a", "user", "again"))
        for synchronizer in [synchronizers[1], synchronizers[0], synchronizers[2]] { try synchronizer.syncNow() }
        for keychain in [laptop, server, phone] {
            XCTAssertEqual(try passwords(keychain), ["a/user": "again", "c/user": "secret-c"])
        }
    }

    func testAnAcknowledgementTheServerMadeCompactsNothing() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("gone", "user", "deleted"))
        let synchronizers = try circle([laptop, server])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        try laptop.delete(Query(.genericPassword, [.service: "gone"], synchronizable: .yes))
        try synchronizers[0].syncNow()
        let laptopState = try XCTUnwrap(SyncStateStore.load(from: laptop))
        let serverState = try XCTUnwrap(SyncStateStore.load(from: server))
        // The server copies the laptop's acknowledgement to the device that has not merged the deletion.
        try postgres.psql(
            """
            UPDATE keychain_sync_acknowledgements SET body = (SELECT body FROM keychain_sync_acknowledgements
              WHERE device_id = '\(laptopState.deviceID)') WHERE device_id = '\(serverState.deviceID)'
            """)
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 0)
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(server), [:], "the deletion reached the device")
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 1)
    }

    func testARemovedDeviceHoldsCompactionBackNoLonger() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let phone = try device("phone")
        try laptop.add(password("gone", "user", "deleted"))
        let synchronizers = try circle([laptop, server, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        try laptop.delete(Query(.genericPassword, [.service: "gone"], synchronizable: .yes))
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 0, "the lost phone never merged it")
        try synchronizers[0].removeDevice("device-2")
        try synchronizers[1].syncNow()
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 1)
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(server), [:])
    }
}
