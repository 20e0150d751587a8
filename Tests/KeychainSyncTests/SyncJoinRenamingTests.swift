import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Issue 35 §4: a join asked for again with another name kept the first one (the name is
/// sealed under the approval code, so the request cannot change in place). It is now withdrawn
/// and filed again, and an approval racing the withdrawal admits nothing.
final class SyncJoinRenamingTests: SyncTestCase {
    func testAWaitingRequestIsFiledAgainUnderTheNewName() throws {
        let founder = KeychainSynchronizer(keychain: try device("laptop"))
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: try device("phone"))
        XCTAssertNil(try joiner.pendingJoinName())
        let first = try joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "first")
        XCTAssertEqual(
            try joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "first"), first,
            "the same name: the same request")
        let second = try joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "second")
        XCTAssertNotEqual(second, first)
        XCTAssertEqual(try joiner.pendingJoinName(), "second")
        let third = try joiner.renameJoinRequest(to: "third")
        XCTAssertEqual(try joiner.renameJoinRequest(to: "third"), third)

        for withdrawn in [first, second] { assertSyncError(.invalidCode, try founder.approve(withdrawn)) }
        XCTAssertEqual(try founder.approveDevice(third).name, "third")
        assertSyncError(.invalidState, try joiner.renameJoinRequest(to: "fourth"), "approved: the name stays")
        assertSyncError(
            .invalidState,
            try joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "fourth"))
        XCTAssertTrue(try joiner.finishJoining())
        XCTAssertNil(try joiner.pendingJoinName())
        XCTAssertEqual(try founder.status().members.map(\.name), ["laptop", "third"])
        assertSyncError(
            .notAMember, try KeychainSynchronizer(keychain: try device("tablet")).renameJoinRequest(to: "x"))
    }

    /// The joining device withdraws its request while a member is admitting it (a trigger does
    /// it inside the member's transaction, after the key was wrapped): the answer finds no open
    /// request, and the admission and the key wrap are rolled back with it.
    func testAnApprovalThatFindsItsRequestWithdrawnAdmitsNothing() throws {
        let founder = KeychainSynchronizer(keychain: try device("laptop"))
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: try device("phone"))
        let approval = try joiner.requestToJoin(
            server: postgres.connectionString, circleCode: code, deviceName: "phone")
        let requestID = try XCTUnwrap(SyncStateStore.load(from: joiner.keychain)).deviceID
        try postgres.psql(
            """
            CREATE FUNCTION keychain_sync_test_withdraw() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN DELETE FROM keychain_sync_requests WHERE request_id = NEW.device_id; RETURN NULL; END $$;
            CREATE TRIGGER keychain_sync_test_withdraw AFTER INSERT ON keychain_sync_key_wraps FOR EACH ROW
              WHEN (NEW.device_id = '\(requestID)') EXECUTE FUNCTION keychain_sync_test_withdraw();
            """)
        defer {
            _ = try? postgres.psql(
                "DROP TRIGGER keychain_sync_test_withdraw ON keychain_sync_key_wraps; DROP FUNCTION keychain_sync_test_withdraw()"
            )
        }

        XCTAssertThrowsError(try founder.approve(approval)) { error in
            XCTAssertEqual((error as? SyncError)?.code, .invalidCode)
            XCTAssertTrue(
                "\(error)".contains("The new device withdrew that join request while it was being approved"), "\(error)"
            )
        }
        XCTAssertEqual(try founder.status().members.map(\.name), ["laptop"], "the admission was rolled back")
        let wraps = try postgres.psql("SELECT count(*) FROM keychain_sync_key_wraps WHERE device_id = '\(requestID)'")
        XCTAssertEqual(wraps.trimmingCharacters(in: .whitespacesAndNewlines), "0", "the key wrap was rolled back")
        XCTAssertNotNil(
            try postgres.psql("SELECT request_id FROM keychain_sync_requests WHERE request_id = '\(requestID)'")
                .range(of: requestID.uuidString.lowercased()),
            "the request itself is back too: the trigger's delete was rolled back")
    }
}
