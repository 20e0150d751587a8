import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Review of issue 34 §2 ("revoked sync secrets stay revoked"): a removal with `--rebuild`
/// (`removeDevice(_:rebuilding: true)`, what a member must run when the device being removed
/// damaged the circle's records) makes the new generation's records from this device's items
/// only: deletions that were not compacted yet are dropped, and their values are not added to
/// the circle's DeletedValues either. A restored copy of such a value then comes back everywhere.
final class Review34SyncAttackTests: SyncTestCase {
    private let leaked = "leaked-credential"
    private let backupPassphrase = "backup passphrase"

    /// A, B and C hold `bank/alice`; A exports a backup; B deletes the item (the user revokes
    /// the leaked credential) and every member merges the deletion, not compacted yet.
    private func revokedCredentialInACircleOfThree() throws -> (
        a: Keychain, b: Keychain, synchronizers: [KeychainSynchronizer], backup: URL
    ) {
        let a = try device("a")
        let b = try device("b")
        let c = try device("c")
        try a.add(password("bank", "alice", leaked))
        try a.add(password("mail", "alice", "kept"))
        let synchronizers = try circle([a, b, c])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let backup = directory.appendingPathComponent("a.backup")
        try a.exportBackup(to: backup, passphrase: backupPassphrase)
        try b.delete(Query(.genericPassword, [.service: "bank"], synchronizable: .yes))
        for synchronizer in [synchronizers[1], synchronizers[0], synchronizers[2]] { try synchronizer.syncNow() }
        for keychain in [a, b, c] { XCTAssertNil(try passwords(keychain)["bank/alice"]) }
        return (a, b, synchronizers, backup)
    }

    /// Reproduction: A, B, C hold `bank/alice`; A exports a backup; B deletes it and everyone
    /// syncs (not compacted); B runs `keychain sync remove device-2 --rebuild`; A syncs, restores
    /// its backup, syncs: the revoked credential is back on A and B.
    func testARebuildingRemovalDoesNotForgetADeletionThatWasNotCompacted() throws {
        let (a, b, synchronizers, backup) = try revokedCredentialInACircleOfThree()

        // C (say, the stolen device) is removed with --rebuild.
        _ = try synchronizers[1].removeDevice("device-2", rebuilding: true)
        try synchronizers[0].syncNow()

        // A restores its old backup, as the other restore tests do.
        try a.importBackup(from: backup, passphrase: backupPassphrase, onDuplicate: .replace)
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        XCTAssertNil(
            try passwords(b)["bank/alice"], "the revoked credential came back on B after the rebuilding removal")
        XCTAssertNil(
            try passwords(a)["bank/alice"], "the revoked credential came back on A after the rebuilding removal")
    }

    /// Second review: the values are read back from the deletion records on the server; a rebuild
    /// over records the server dropped (the damage it is run for) must not forget them silently.
    /// Reproduction: as Review34SyncAttackTests, but before B runs
    /// `keychain sync remove device-2 --rebuild` the server (or device-2, which writes there)
    /// deletes the circle's records (`DELETE FROM keychain_sync_records WHERE circle_id = …`);
    /// A restores its backup and syncs: the revoked credential is back on A and B.
    func testReview34bARebuildOverDroppedDeletionRecordsIsRefusedUnlessTheUserAcceptsIt() throws {
        let (a, b, synchronizers, _) = try revokedCredentialInACircleOfThree()

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
    }
}
