import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Issue 35 §2: a typo in the circle code filed a join request into the circle with a history
/// pin it could never match: a member admitted the device, the device then reported the server
/// as tampering, and its roster entry held back compaction. A typo is now refused at `join` (and
/// at `approve` for the approval code) before anything is sent to the server.
final class SyncCodeTypoTests: SyncTestCase {
    /// A server no statement can reach: any attempt to send something fails as `serverUnreachable`.
    private let unreachable = "host=/nonexistent-keychain-sync-test dbname=k connect_timeout=1"

    func testEveryTypoInTheCircleCodeIsRefusedAtJoinAndNothingReachesTheServer() throws {
        let founder = KeychainSynchronizer(keychain: try device("laptop"))
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let newcomer = try device("newcomer")
        let joiner = KeychainSynchronizer(keychain: newcomer)
        let requestsBefore = try requestCount()
        let typos = CodeTypos.of(code)
        XCTAssertGreaterThan(typos.count, 56 * 31)
        for typo in typos {
            // Against the real server (no request filed) and an unreachable one (nothing was even tried).
            for server in [postgres.connectionString, unreachable] {
                assertSyncError(
                    .invalidCode, try joiner.requestToJoin(server: server, circleCode: typo, deviceName: "newcomer"),
                    typo)
            }
        }
        XCTAssertThrowsError(
            try joiner.requestToJoin(server: postgres.connectionString, circleCode: typos[0], deviceName: "newcomer")
        ) { error in
            XCTAssertTrue("\(error)".contains("The circle code has a typo"), "\(error)")
        }
        XCTAssertEqual(try requestCount(), requestsBefore, "no join request reached the server")
        XCTAssertNil(try SyncStateStore.load(from: newcomer), "the keychain records no join")
        assertSyncError(
            .serverUnreachable, try joiner.requestToJoin(server: unreachable, circleCode: code, deviceName: "newcomer"),
            "the intact code goes on to the server")

        // The intact code joins; the roster holds the founder and the newcomer only.
        try founder.approve(
            joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "newcomer"))
        XCTAssertTrue(try joiner.finishJoining())
        XCTAssertEqual(try founder.status().members.map(\.name), ["laptop", "newcomer"])
    }

    func testEveryTypoInTheApprovalCodeIsRefusedAtApproveAndNothingReachesTheServer() throws {
        let laptop = try device("laptop")
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: try device("newcomer"))
        let approval = try joiner.requestToJoin(
            server: postgres.connectionString, circleCode: code, deviceName: "newcomer")
        let rosterBefore = try rosterCount()

        // The member's server is out of reach for the typos: approving would sync with it first.
        var state = try XCTUnwrap(SyncStateStore.load(from: laptop))
        let server = state.server
        state.server = unreachable
        _ = try SyncStateStore.save(state, in: laptop)
        for typo in CodeTypos.of(approval) {
            XCTAssertThrowsError(try founder.approve(typo), typo) { error in
                XCTAssertEqual((error as? SyncError)?.code, .invalidCode, "refused before syncing: \(error)")
                XCTAssertTrue("\(error)".contains("The approval code has a typo"), "\(error)")
            }
        }
        assertSyncError(.serverUnreachable, try founder.approve(approval), "the intact code goes on to the server")
        state.server = server
        _ = try SyncStateStore.save(state, in: laptop)

        XCTAssertEqual(try rosterCount(), rosterBefore, "no roster entry was added")
        XCTAssertFalse(try joiner.finishJoining(), "nothing was approved")
        XCTAssertEqual(try founder.approveDevice(approval).name, "newcomer")
        XCTAssertTrue(try joiner.finishJoining())
    }

    // MARK: - Helpers

    private func requestCount() throws -> Int {
        Int(
            try postgres.psql("SELECT count(*) FROM keychain_sync_requests").trimmingCharacters(
                in: .whitespacesAndNewlines)) ?? -1
    }

    private func rosterCount() throws -> Int {
        Int(
            try postgres.psql("SELECT count(*) FROM keychain_sync_roster").trimmingCharacters(
                in: .whitespacesAndNewlines)) ?? -1
    }
}
