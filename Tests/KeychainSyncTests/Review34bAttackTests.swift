import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Review 34b of the fix in 575a3b4 ("a rebuilding removal remembers the values of uncompacted
/// deletions"): the values are read back from the deletion records on the server, and a record
/// the server no longer holds is skipped silently. A rebuild is run precisely when the server's
/// state was damaged (by the departing member or the server): deleting the deletion records is
/// that same damage, and the revoked value comes back.
final class Review34bSyncAttackTests: SyncTestCase {
    private let leaked = "leaked-credential"
    private let backupPassphrase = "backup passphrase"

    /// Reproduction: as Review34SyncAttackTests, but before B runs
    /// `keychain sync remove device-2 --rebuild` the server (or device-2, which writes there)
    /// deletes the circle's records (`DELETE FROM keychain_sync_records WHERE circle_id = …`);
    /// A restores its backup and syncs: the revoked credential is back on A and B.
    func testReview34bARebuildOverDroppedDeletionRecordsIsRefusedUnlessTheUserAcceptsIt() throws {
        let a = try device("a"), b = try device("b"), c = try device("c")
        try a.add(password("bank", "alice", leaked))
        try a.add(password("mail", "alice", "kept"))
        let synchronizers = try circle([a, b, c])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let backup = directory.appendingPathComponent("a.backup")
        try a.exportBackup(to: backup, passphrase: backupPassphrase)

        try b.delete(Query(.genericPassword, [.service: "bank"], synchronizable: .yes))
        for synchronizer in [synchronizers[1], synchronizers[0], synchronizers[2]] { try synchronizer.syncNow() }
        for keychain in [a, b, c] { XCTAssertNil(try passwords(keychain)["bank/alice"]) }

        // The damage that makes the user run --rebuild: the circle's records are gone.
        let circle = try XCTUnwrap(SyncStateStore.load(from: b)).circleID
        try postgres.psql("DELETE FROM keychain_sync_records WHERE circle_id = '\(circle)'")
        // The rebuild would forget the revocation: it is refused, and nothing changes, unless
        // the user accepts that explicitly (`--forget-unreadable-deletions`).
        assertSyncError(.tampered, try synchronizers[1].removeDevice("device-2", rebuilding: true))
        XCTAssertEqual(try synchronizers[1].status().members.count, 3, "a refused removal changed nothing")
        _ = try synchronizers[1].removeDevice("device-2", rebuilding: true, forgettingUnreadableDeletions: true)
        XCTAssertEqual(try synchronizers[1].status().members.count, 2)
        try synchronizers[0].syncNow()
        XCTAssertNil(try passwords(a)["bank/alice"], "the rebuild itself brought nothing back")
        _ = backup
    }
}
