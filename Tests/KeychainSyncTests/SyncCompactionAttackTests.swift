import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Attacks on compaction and on removals through the server's unauthenticated columns, from the
/// second review of the roster fixes.
final class SyncCompactionAttackTests: SyncTestCase {
    private func circleID(_ keychain: Keychain) throws -> UUID {
        try XCTUnwrap(SyncStateStore.load(from: keychain)).circleID
    }

    /// The server renumbers a fresh tombstone below an offline member's acknowledgement: since
    /// compaction goes by the counters sealed in the records, nothing is compacted too early.
    func testARenumberedTombstoneIsNotCompactedBeforeAnOfflineMemberMergedIt() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let tablet = try device("tablet")
        try laptop.add(password("x", "user", "revoked-credential"))
        try laptop.add(password("keep", "user", "k"))
        let synchronizers = try circle([laptop, phone, tablet])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let circle = try circleID(laptop)
        try laptop.delete(Query(.genericPassword, [.service: "x"], synchronizable: .yes))
        try synchronizers[0].syncNow()
        try synchronizers[2].syncNow()
        try postgres.psql(
            """
            UPDATE keychain_sync_records SET sequence = 1 WHERE circle_id = '\(circle)'
              AND sequence = (SELECT max(sequence) FROM keychain_sync_records WHERE circle_id = '\(circle)')
            """)
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 0, "the phone never merged the deletion")
        try synchronizers[1].syncNow(verifyingEverything: true)
        XCTAssertNil(try passwords(phone)["x/user"], "the revoked credential is deleted on the phone")
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 1)
        try synchronizers[0].removeDevice("device-2")
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        XCTAssertNil(try passwords(laptop)["x/user"], "nothing deleted came back after a rotation")
        XCTAssertNil(try passwords(phone)["x/user"])
    }

    /// A record the device agreed with that disappears from the server (not a compacted
    /// deletion) is caught by a full pull, instead of leaving a stale agreement behind.
    func testAnAgreedRecordThatDisappearsIsCaught() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        try laptop.add(password("x", "user", "v1"))
        try laptop.add(password("y", "user", "v1"))
        let synchronizers = try circle([laptop, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let circle = try circleID(laptop)
        // A member (or the server with a member's help) rewrites the manifest without one record.
        let thief = try XCTUnwrap(SyncStateStore.load(from: laptop))
        let key = try XCTUnwrap(thief.currentKey)
        let connection = try SyncServer.connect(postgres.connectionString, circleID: circle)
        let row = try XCTUnwrap(connection.manifest(forUpdate: false))
        var manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
        let victim = try XCTUnwrap(thief.entries.first { !$0.value.isTombstone })
        manifest.digest.remove(
            recordID: victim.key, version: victim.value.version, content: victim.value.digest, key: key)
        manifest.recordCount -= 1
        manifest.counter += 1
        try connection.writeManifest(counter: manifest.counter, body: manifest.sealed(key: key))
        try postgres.psql(
            "DELETE FROM keychain_sync_records WHERE circle_id = '\(circle)' AND record_id = '\\x\(hex(victim.key))'")
        assertSyncError(.tampered, try synchronizers[1].syncNow(verifyingEverything: true))
        XCTAssertEqual(try passwords(phone).count, 2, "nothing was applied")
    }

    /// A compaction point beyond the manifest's counter, or one going back, is refused.
    func testACompactionPointOutOfPlaceIsRefused() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        try laptop.add(password("x", "user", "v1"))
        let synchronizers = try circle([laptop, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let state = try XCTUnwrap(SyncStateStore.load(from: laptop))
        let key = try XCTUnwrap(state.currentKey)
        let connection = try SyncServer.connect(postgres.connectionString, circleID: state.circleID)
        let row = try XCTUnwrap(connection.manifest(forUpdate: false))
        var manifest = try Manifest.open(row.body, counter: row.counter) { $0 == key.generation ? key : nil }
        manifest.compactedThrough = manifest.counter + 5
        try connection.writeManifest(counter: manifest.counter, body: manifest.sealed(key: key))
        assertSyncError(.tampered, try synchronizers[1].syncNow())
    }

    /// The server shows a member that missed a removal the circle as it was before it; a removal
    /// that member then makes forks the circle, and the member that made the first removal finds
    /// out at its next sync (the history it verified is not continued).
    func testAForkAfterAHeldBackRemovalIsCaughtByTheOtherSide() throws {
        let laptop = try device("laptop")
        let desktop = try device("desktop")
        let phone = try device("phone")
        let tablet = try device("tablet")
        try laptop.add(password("old", "user", "o"))
        let synchronizers = try circle([laptop, desktop, phone, tablet])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let circle = try circleID(laptop)
        let tables = [
            "keychain_sync_manifests", "keychain_sync_records", "keychain_sync_roster", "keychain_sync_key_wraps",
            "keychain_sync_acknowledgements"
        ]
        let tag = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(8).lowercased()
        for table in tables {
            try postgres.psql(
                "CREATE TABLE snap_\(tag)_\(table) AS SELECT * FROM \(table) WHERE circle_id = '\(circle)'")
        }
        try synchronizers[1].removeDevice("device-2")
        let desktopView = try synchronizers[1].status().rosterFingerprint
        for table in tables {
            try postgres.psql(
                "DELETE FROM \(table) WHERE circle_id = '\(circle)'; INSERT INTO \(table) SELECT * FROM snap_\(tag)_\(table)"
            )
        }
        try synchronizers[0].removeDevice("device-3")
        let laptopView = try synchronizers[0].status().rosterFingerprint
        XCTAssertNotEqual(laptopView, desktopView, "the fork shows in the membership fingerprints")
        XCTAssertEqual(
            laptopView.split(separator: "-").first, desktopView.split(separator: "-").first,
            "same length, different history")
        assertSyncError(.tampered, try synchronizers[1].syncNow(), "the desktop's verified history is not continued")
    }
}
