import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// The server as the attacker: it reads everything it stores, and edits, swaps, replays, drops
/// and rolls back rows with raw SQL. Each attack must be caught with `.tampered`, apply
/// nothing, and reveal nothing.
final class SyncServerAttackTests: SyncTestCase {
    private static let canaries = [
        "canary-service-7f3a", "canary-account-91c2", "canary-label-55e0", "canary-group-0b6d", "canary-secret-e4a8",
        "canary-comment-3d19", "canary-device-name-a1"
    ]

    func testTheServerStoresNothingItCanRead() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        var item = password(Self.canaries[0], Self.canaries[1], Self.canaries[4])
        item.attributes[.label] = .string(Self.canaries[2])
        item.attributes[.accessGroup] = .string(Self.canaries[3])
        item.attributes[.comment] = .string(Self.canaries[5])
        try laptop.add(item)
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: Self.canaries[6])
        let joiner = KeychainSynchronizer(keychain: server)
        try founder.approve(
            try joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: Self.canaries[6]))
        XCTAssertTrue(try joiner.finishJoining())
        var queried = Query(.genericPassword, [.service: .string(Self.canaries[0])], synchronizable: .yes)
        queried.accessGroups = [Self.canaries[3]]
        XCTAssertEqual(
            try server.findAll(queried, returning: [.data]).first?.data, Data(Self.canaries[4].utf8), "the item arrived"
        )
        try server.update(queried, with: ItemChanges(data: Data((Self.canaries[4] + "-v2").utf8)))
        try joiner.syncNow()
        try laptop.delete(
            Query(
                .genericPassword, [.service: .string(Self.canaries[0])], synchronizable: .yes,
                accessGroups: [Self.canaries[3]]))
        try founder.syncNow()
        try joiner.syncNow()
        try postgres.psql("CHECKPOINT")

        let dump = try postgres.dump()
        XCTAssertTrue(dump.contains("keychain_sync_records"), "the dump holds the sync tables")
        for canary in Self.canaries {
            XCTAssertFalse(dump.contains(canary), "pg_dump shows \(canary)")
            XCTAssertFalse(
                dump.contains(Data(canary.utf8).map { String(format: "%02x", $0) }.joined()),
                "pg_dump shows \(canary) as hex")
        }
        let files = postgres.dataFiles()
        XCTAssertGreaterThan(files.count, 100, "the whole data directory, write-ahead log included")
        for (path, contents) in files {
            for canary in Self.canaries {
                XCTAssertNil(contents.range(of: Data(canary.utf8)), "\(path) holds \(canary)")
            }
        }
    }

    func testAnAlteredRecordIsRefusedAndNothingApplied() throws {
        let (a, b, laptop, server, circle) = try syncedPair()
        try laptop.update(itemQuery, with: ItemChanges(data: Data("new".utf8)))
        try a.syncNow()
        // Flip one bit of the ciphertext.
        try postgres.psql(
            "UPDATE keychain_sync_records SET body = set_byte(body, 40, get_byte(body, 40) # 1) WHERE circle_id = '\(circle)'"
        )
        assertSyncError(.tampered, try b.syncNow())
        XCTAssertEqual(try passwords(server), ["db/root": "old"], "nothing was applied")
    }

    func testARecordMovedToAnotherIdOrVersionIsRefused() throws {
        let (a, b, laptop, _, circle) = try syncedPair()
        try laptop.add(password("second", "item", "two"))
        try a.syncNow()
        // Swap the two bodies.
        try postgres.psql(
            """
            WITH pair AS (SELECT record_id, body, row_number() OVER (ORDER BY record_id) AS n FROM keychain_sync_records WHERE circle_id = '\(circle)')
            UPDATE keychain_sync_records r SET body = (SELECT body FROM pair p WHERE p.n = 3 - (SELECT n FROM pair q WHERE q.record_id = r.record_id))
            WHERE circle_id = '\(circle)'
            """)
        assertSyncError(.tampered, try b.syncNow())
        // Put them back and claim a higher version for one.
        try postgres.psql(
            """
            WITH pair AS (SELECT record_id, body, row_number() OVER (ORDER BY record_id) AS n FROM keychain_sync_records WHERE circle_id = '\(circle)')
            UPDATE keychain_sync_records r SET body = (SELECT body FROM pair p WHERE p.n = 3 - (SELECT n FROM pair q WHERE q.record_id = r.record_id))
            WHERE circle_id = '\(circle)'
            """)
        XCTAssertNoThrow(try b.syncNow())
        try postgres.psql(
            "UPDATE keychain_sync_records SET version = version + 1, sequence = nextval('keychain_sync_sequence') WHERE circle_id = '\(circle)' AND record_id = (SELECT record_id FROM keychain_sync_records WHERE circle_id = '\(circle)' ORDER BY record_id LIMIT 1)"
        )
        assertSyncError(.tampered, try b.syncNow())
    }

    func testADroppedRecordIsCaught() throws {
        let (a, b, laptop, server, circle) = try syncedPair()
        try laptop.add(password("second", "item", "two"))
        try a.syncNow()
        try postgres.psql(
            "DELETE FROM keychain_sync_records WHERE circle_id = '\(circle)' AND record_id = (SELECT record_id FROM keychain_sync_records WHERE circle_id = '\(circle)' ORDER BY record_id DESC LIMIT 1)"
        )
        // A member that already had the dropped record keeps it; a full check notices the drop.
        _ = try? b.syncNow()
        XCTAssertEqual(try passwords(server)["db/root"], "old", "nothing was lost on the member")
        assertSyncError(.tampered, try b.syncNow(verifyingEverything: true))
        // A new device is not fooled either.
        let third = try device("third")
        let joiner = KeychainSynchronizer(keychain: third)
        let code = try XCTUnwrap(a.status().circleCode)
        try a.approve(
            try joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "third"))
        assertSyncError(.tampered, try joiner.finishJoining())
    }

    func testAReplayedOldVersionIsCaught() throws {
        let (a, b, laptop, server, circle) = try syncedPair()
        try postgres.psql(
            "CREATE TABLE IF NOT EXISTS saved_records AS SELECT * FROM keychain_sync_records WITH NO DATA")
        try postgres.psql("INSERT INTO saved_records SELECT * FROM keychain_sync_records WHERE circle_id = '\(circle)'")
        try laptop.update(itemQuery, with: ItemChanges(data: Data("new".utf8)))
        try a.syncNow()
        try b.syncNow()
        XCTAssertEqual(try passwords(server), ["db/root": "new"])
        // The old version comes back with a fresh sequence number, as if it were news.
        try postgres.psql(
            """
            UPDATE keychain_sync_records r SET version = s.version, body = s.body, sequence = nextval('keychain_sync_sequence')
            FROM saved_records s WHERE r.circle_id = s.circle_id AND r.record_id = s.record_id AND r.circle_id = '\(circle)'
            """)
        assertSyncError(.tampered, try b.syncNow())
        XCTAssertEqual(try passwords(server), ["db/root": "new"])
    }

    func testARolledBackCircleIsCaught() throws {
        let (a, b, laptop, server, circle) = try syncedPair()
        try postgres.psql(
            "CREATE TABLE IF NOT EXISTS saved_manifests AS SELECT * FROM keychain_sync_manifests WITH NO DATA")
        try postgres.psql(
            "CREATE TABLE IF NOT EXISTS saved_records AS SELECT * FROM keychain_sync_records WITH NO DATA")
        try postgres.psql(
            "INSERT INTO saved_manifests SELECT * FROM keychain_sync_manifests WHERE circle_id = '\(circle)'")
        try postgres.psql("INSERT INTO saved_records SELECT * FROM keychain_sync_records WHERE circle_id = '\(circle)'")
        try laptop.update(itemQuery, with: ItemChanges(data: Data("new".utf8)))
        try a.syncNow()
        try b.syncNow()
        // The whole circle as it was: a consistent, authentic, older state.
        try postgres.psql("DELETE FROM keychain_sync_records WHERE circle_id = '\(circle)'")
        try postgres.psql("INSERT INTO keychain_sync_records SELECT * FROM saved_records WHERE circle_id = '\(circle)'")
        try postgres.psql(
            "UPDATE keychain_sync_manifests m SET counter = s.counter, body = s.body FROM saved_manifests s WHERE m.circle_id = s.circle_id AND m.circle_id = '\(circle)'"
        )
        assertSyncError(.tampered, try a.syncNow())
        assertSyncError(.tampered, try b.syncNow())
        XCTAssertEqual(try passwords(server), ["db/root": "new"])
        XCTAssertEqual(try passwords(laptop), ["db/root": "new"])
    }

    func testAForgedManifestIsRefused() throws {
        let (_, b, _, _, circle) = try syncedPair()
        try postgres.psql(
            "UPDATE keychain_sync_manifests SET body = set_byte(body, 20, get_byte(body, 20) # 1) WHERE circle_id = '\(circle)'"
        )
        assertSyncError(.tampered, try b.syncNow())
        try postgres.psql(
            "UPDATE keychain_sync_manifests SET body = set_byte(body, 20, get_byte(body, 20) # 1), counter = counter + 5 WHERE circle_id = '\(circle)'"
        )
        assertSyncError(.tampered, try b.syncNow(), "the counter column must agree with the authenticated counter")
    }

    func testTheServerCannotAnswerAJoinWithAKeyOfItsOwn() throws {
        let laptop = try device("laptop")
        let newcomer = try device("newcomer")
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: newcomer)
        _ = try joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "newcomer")
        let state = try XCTUnwrap(SyncStateStore.load(from: newcomer))
        // The server wraps a key it made to the newcomer's public key.
        let fake = CircleKey.random(circleID: state.circleID)
        let wrapped = try KeyWrap.wrap(
            fake, counterFloor: 0, to: state.agreementKey.publicKey, device: state.deviceID, signedBy: .init())
        try postgres.psql(
            "UPDATE keychain_sync_requests SET answer = '\\x\(wrapped.map { String(format: "%02x", $0) }.joined())' WHERE request_id = '\(state.deviceID)'"
        )
        assertSyncError(.tampered, try joiner.finishJoining())
        XCTAssertFalse(try XCTUnwrap(SyncStateStore.load(from: newcomer)).isMember, "the newcomer did not take the key")
    }

    func testAMistypedOrForeignApprovalCodeApprovesNothing() throws {
        let laptop = try device("laptop")
        let newcomer = try device("newcomer")
        let founder = KeychainSynchronizer(keychain: laptop)
        let code = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        let joiner = KeychainSynchronizer(keychain: newcomer)
        let approval = try joiner.requestToJoin(
            server: postgres.connectionString, circleCode: code, deviceName: "newcomer")
        var mistyped = Array(approval)
        mistyped[0] = mistyped[0] == "A" ? "B" : "A"
        assertSyncError(.invalidCode, try founder.approve(String(mistyped)))
        XCTAssertFalse(try joiner.finishJoining(), "nothing was approved")
        assertSyncError(
            .invalidCode,
            try joiner.requestToJoin(server: postgres.connectionString, circleCode: "not-a-code", deviceName: "x"))
        XCTAssertNoThrow(
            try founder.approve(approval.lowercased().replacingOccurrences(of: "-", with: " ")),
            "case and separators do not matter")
        XCTAssertTrue(try joiner.finishJoining())
    }

    func testErrorsNeverCarrySecretsOrNames() throws {
        let (a, b, laptop, _, circle) = try syncedPair()
        try laptop.add(password("canary-service-in-error", "canary-account-in-error", "canary-secret-in-error"))
        try a.syncNow()
        try postgres.psql(
            "UPDATE keychain_sync_records SET body = set_byte(body, 40, get_byte(body, 40) # 1) WHERE circle_id = '\(circle)'"
        )
        do {
            try b.syncNow()
            XCTFail("the altered record was accepted")
        } catch {
            let text = "\(error) \(String(reflecting: error))"
            XCTAssertFalse(text.contains("canary"), text)
        }
    }

    // MARK: - Helpers

    private let itemQuery = Query(.genericPassword, [.service: "db", .account: "root"], synchronizable: .yes)

    /// Two devices holding db/root = "old", synced.
    private func syncedPair() throws -> (KeychainSynchronizer, KeychainSynchronizer, Keychain, Keychain, UUID) {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("db", "root", "old"))
        let synchronizers = try circle([laptop, server])
        try synchronizers[0].syncNow()
        XCTAssertEqual(try passwords(server), ["db/root": "old"])
        return (
            synchronizers[0], synchronizers[1], laptop, server,
            try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID
        )
    }
}
