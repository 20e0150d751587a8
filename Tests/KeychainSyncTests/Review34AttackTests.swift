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

    /// Reproduction: A, B, C hold `bank/alice`; A exports a backup; B deletes it and everyone
    /// syncs (not compacted); B runs `keychain sync remove device-2 --rebuild`; A syncs, restores
    /// its backup, syncs: the revoked credential is back on A and B.
    func testARebuildingRemovalDoesNotForgetADeletionThatWasNotCompacted() throws {
        let a = try device("a"), b = try device("b"), c = try device("c")
        try a.add(password("bank", "alice", leaked))
        try a.add(password("mail", "alice", "kept"))
        let synchronizers = try circle([a, b, c])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let backup = directory.appendingPathComponent("a.backup")
        try a.exportBackup(to: backup, passphrase: backupPassphrase)

        // The user revokes the leaked credential; every member merges the deletion.
        try b.delete(Query(.genericPassword, [.service: "bank"], synchronizable: .yes))
        for synchronizer in [synchronizers[1], synchronizers[0], synchronizers[2]] { try synchronizer.syncNow() }
        for keychain in [a, b, c] { XCTAssertNil(try passwords(keychain)["bank/alice"]) }

        // C (say, the stolen device) is removed with --rebuild.
        _ = try synchronizers[1].removeDevice("device-2", rebuilding: true)
        try synchronizers[0].syncNow()

        // A restores its old backup, as the other restore tests do.
        try a.importBackup(from: backup, passphrase: backupPassphrase, onDuplicate: .replace)
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        XCTAssertNil(try passwords(b)["bank/alice"], "the revoked credential came back on B after the rebuilding removal")
        XCTAssertNil(try passwords(a)["bank/alice"], "the revoked credential came back on A after the rebuilding removal")
    }
}
