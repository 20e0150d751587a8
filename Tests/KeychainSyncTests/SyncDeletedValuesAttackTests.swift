import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// What the server can do against the circle's remembered deleted values (``DeletedValues``):
/// drop them, replay an older list, swap in another circle's, or hide them behind an older or
/// downgraded manifest. Each is refused as tampering by the device that reads them, and a
/// member that already holds them is not affected.
final class SyncDeletedValuesAttackTests: SyncTestCase {
    private let leaked = "leaked-credential"
    private let backupPassphrase = "backup passphrase"

    private struct Circle {
        var keychains: [Keychain]
        var synchronizers: [KeychainSynchronizer]
        var backup: URL
        var circleID: UUID
        /// The manifest body (hex) from before the compaction.
        var manifestBeforeCompaction: String
    }

    /// Three members; `bank` was backed up on the first, deleted on the second, merged
    /// everywhere and compacted away; `old` is still there, to be deleted later.
    private func compactedCircle(prefix: String = "") throws -> Circle {
        let a = try device(prefix + "a")
        let b = try device(prefix + "b")
        let c = try device(prefix + "c")
        try a.add(password("bank", "alice", leaked))
        try a.add(password("old", "alice", "old-secret"))
        try a.add(password("mail", "alice", "kept"))
        let synchronizers = try circle([a, b, c])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let backup = directory.appendingPathComponent(prefix + "a.backup")
        try a.exportBackup(to: backup, passphrase: backupPassphrase)
        try b.delete(Query(.genericPassword, [.service: "bank"], synchronizable: .yes))
        for index in [1, 0, 2] { try synchronizers[index].syncNow() }
        let circleID = try XCTUnwrap(SyncStateStore.load(from: a)).circleID
        let before = try postgres.psql(
            "SELECT encode(body, 'hex') FROM keychain_sync_manifests WHERE circle_id = '\(circleID)'")
        XCTAssertEqual(try synchronizers[1].compactDeletions(), 1)
        return Circle(
            keychains: [a, b, c], synchronizers: synchronizers, backup: backup, circleID: circleID,
            manifestBeforeCompaction: before.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func deletedValuesBody(_ circleID: UUID) throws -> String {
        try postgres.psql(
            "SELECT encode(body, 'hex') FROM keychain_sync_deleted_values WHERE circle_id = '\(circleID)'"
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func setDeletedValuesBody(_ circleID: UUID, hex: String) throws {
        try postgres.psql(
            "UPDATE keychain_sync_deleted_values SET body = decode('\(hex)', 'hex') WHERE circle_id = '\(circleID)'")
    }

    /// Asserts that `body` fails as tampering, with a message naming `what`.
    private func assertTampered<T>(
        _ body: @autoclosure () throws -> T, mentioning what: String, _ message: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
            XCTAssertEqual((error as? SyncError)?.code, .tampered, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(what), "\(error) should mention \(what)", file: file, line: line)
        }
    }

    /// A device set up from the old backup, approved by the second member, yet to finish joining.
    private func joinFromTheBackup(_ circle: Circle, name: String) throws -> KeychainSynchronizer {
        let d = try device(name)
        try d.importBackup(from: circle.backup, passphrase: backupPassphrase)
        let code = try XCTUnwrap(circle.synchronizers[1].status().circleCode)
        let joiner = KeychainSynchronizer(keychain: d)
        try circle.synchronizers[1].approve(
            joiner.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: name))
        return joiner
    }

    private func assertRevokedEverywhere(_ circle: Circle, file: StaticString = #filePath, line: UInt = #line) throws {
        for synchronizer in circle.synchronizers { try synchronizer.syncNow() }
        for keychain in circle.keychains {
            XCTAssertNil(
                try passwords(keychain)["bank/alice"], "the revoked credential stayed deleted", file: file, line: line)
        }
    }

    /// The server drops the list: the members, which hold it, are not affected; a device that
    /// joins (and would need it to recognise its restored copy) refuses the circle's state.
    func testDroppingTheDeletedValuesIsRefusedByADeviceThatNeedsThem() throws {
        let circle = try compactedCircle()
        for synchronizer in circle.synchronizers { try synchronizer.syncNow() }
        try postgres.psql("DELETE FROM keychain_sync_deleted_values WHERE circle_id = '\(circle.circleID)'")
        for synchronizer in circle.synchronizers {
            XCTAssertNoThrow(try synchronizer.syncNow(), "harmless to a member that holds the list")
        }

        let joiner = try joinFromTheBackup(circle, name: "d")
        assertTampered(try joiner.finishJoining(), mentioning: "deleted values")
        XCTAssertEqual(
            try passwords(try reopen("d"))["bank/alice"], leaked, "nothing was decided on the joining device")
        try assertRevokedEverywhere(circle)
    }

    /// The server answers with the list as it was before a later compaction (a replay), or with
    /// another circle's list (a swap): a member that has not read the newest one refuses both.
    func testAnOlderOrAnotherCirclesListOfDeletedValuesIsRefused() throws {
        let circle = try compactedCircle()
        for synchronizer in circle.synchronizers { try synchronizer.syncNow() }
        let first = try deletedValuesBody(circle.circleID)
        XCTAssertFalse(first.isEmpty)

        // A second deletion is compacted; the third member has not synced since.
        try circle.keychains[0].delete(Query(.genericPassword, [.service: "old"], synchronizable: .yes))
        try circle.synchronizers[0].syncNow()
        try circle.synchronizers[1].syncNow()
        try circle.synchronizers[2].syncNow()
        XCTAssertEqual(try circle.synchronizers[0].compactDeletions(), 1)
        let second = try deletedValuesBody(circle.circleID)
        XCTAssertNotEqual(first, second)

        try setDeletedValuesBody(circle.circleID, hex: first)
        assertTampered(try circle.synchronizers[2].syncNow(), mentioning: "deleted values", "a replayed list")

        let other = try compactedCircle(prefix: "other-")
        try setDeletedValuesBody(circle.circleID, hex: try deletedValuesBody(other.circleID))
        assertTampered(try circle.synchronizers[2].syncNow(), mentioning: "deleted values", "another circle's list")

        try setDeletedValuesBody(circle.circleID, hex: second)
        XCTAssertNoThrow(try circle.synchronizers[2].syncNow(), "the list the manifest names")
        try assertRevokedEverywhere(circle)
    }

    /// The server hides the list behind the manifest from before the compaction (a rollback), or
    /// strips the list's hash from the manifest so that it reads as the earlier format (a
    /// downgrade): both are refused.
    func testHidingTheListBehindAnOlderOrDowngradedManifestIsRefused() throws {
        let circle = try compactedCircle()
        let member = circle.synchronizers[0]
        try member.syncNow()
        let manifest = "keychain_sync_manifests"
        let this = "WHERE circle_id = '\(circle.circleID)'"
        let current = try postgres.psql("SELECT encode(body, 'hex') FROM \(manifest) \(this)").trimmingCharacters(
            in: .whitespacesAndNewlines)
        XCTAssertEqual(current.count, 2 * 140, "a manifest that names deleted values")

        let counter = try postgres.psql("SELECT counter FROM \(manifest) \(this)").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let joiner = try joinFromTheBackup(circle, name: "d")

        // Downgrade: the same manifest without the hash (the earlier 108-byte format).
        try postgres.psql(
            "UPDATE \(manifest) SET body = substring(body from 1 for 76) || substring(body from 109 for 32) \(this)")
        assertTampered(try member.syncNow(), mentioning: "fails authentication", "a stripped manifest")
        assertTampered(try joiner.finishJoining(), mentioning: "fails authentication")
        XCTAssertEqual(
            try passwords(try reopen("d"))["bank/alice"], leaked, "nothing was decided on the joining device")

        // Rollback: the manifest from before the compaction, which named no deleted values.
        XCTAssertEqual(circle.manifestBeforeCompaction.count, 2 * 108)
        try postgres.psql(
            "UPDATE \(manifest) SET body = decode('\(circle.manifestBeforeCompaction)', 'hex'), counter = \(counter) - 1 \(this)"
        )
        assertTampered(try member.syncNow(), mentioning: "older state", "a manifest from before the compaction")

        try postgres.psql("UPDATE \(manifest) SET body = decode('\(current)', 'hex'), counter = \(counter) \(this)")
        XCTAssertNoThrow(try member.syncNow())
        XCTAssertEqual(try joiner.syncNow().revokedCopiesRemoved, 1)
        XCTAssertEqual(
            try passwords(try reopen("d")), ["mail/alice": "kept", "old/alice": "old-secret"],
            "the joining device dropped its restored copy")
        try assertRevokedEverywhere(circle)
    }
}
