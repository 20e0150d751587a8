import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Deleting a synchronizable item is how a user revokes a leaked credential everywhere. A copy
/// of the deleted value restored from a backup (`keychain export` / `keychain import`), on a
/// member or on a device set up later, never brings it back, whether the deletion is still on
/// the server or was compacted away (security review, issue 34 §2).
final class SyncRevokedStaysRevokedTests: SyncTestCase {
    private let leaked = "leaked-credential"
    private let backupPassphrase = "backup passphrase"

    /// Three members that all hold the credential; the first exported a backup of its keychain.
    private func circleWithABackup() throws -> (
        keychains: [Keychain], synchronizers: [KeychainSynchronizer], backup: URL
    ) {
        let a = try device("a")
        let b = try device("b")
        let c = try device("c")
        try a.add(password("bank", "alice", leaked))
        try a.add(password("mail", "alice", "kept"))
        let synchronizers = try circle([a, b, c])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        for keychain in [a, b, c] { XCTAssertEqual(try passwords(keychain)["bank/alice"], leaked) }
        let backup = directory.appendingPathComponent("a.backup")
        try a.exportBackup(to: backup, passphrase: backupPassphrase)
        return ([a, b, c], synchronizers, backup)
    }

    /// The user revokes the credential on B, and every member syncs the deletion.
    private func revokeOnB(_ keychains: [Keychain], _ synchronizers: [KeychainSynchronizer]) throws {
        try keychains[1].delete(Query(.genericPassword, [.service: "bank"], synchronizable: .yes))
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        try synchronizers[2].syncNow()
        for keychain in keychains { XCTAssertNil(try passwords(keychain)["bank/alice"]) }
    }

    private func assertRevokedEverywhere(
        _ keychains: [Keychain], _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for (index, keychain) in keychains.enumerated() {
            XCTAssertEqual(
                try passwords(keychain), ["mail/alice": "kept"], "device \(index): \(message)", file: file, line: line)
        }
    }

    /// (a) A restores its old backup over its keychain after the deletion merged everywhere: the
    /// restored copy is taken as the deletion, removed on A, and reported.
    func testARestoredBackupOnAMemberDoesNotUndoTheDeletion() throws {
        let (keychains, synchronizers, backup) = try circleWithABackup()
        try revokeOnB(keychains, synchronizers)

        try keychains[0].importBackup(from: backup, passphrase: backupPassphrase, onDuplicate: .replace)
        XCTAssertEqual(try passwords(keychains[0])["bank/alice"], leaked, "the restore brought the old copy back here")
        let report = try synchronizers[0].syncNow()
        XCTAssertEqual(report.revokedCopiesRemoved, 1, "the sync says it removed the restored copy of a deleted item")
        XCTAssertEqual(report.pushed, 0, "nothing went back to the circle")
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        assertRevokedEverywhere(keychains, "the revoked credential stays deleted")
        XCTAssertEqual(try synchronizers[0].syncNow().revokedCopiesRemoved, 0, "reported once")
    }

    /// (a) The same after the deletion was compacted away (the background sync does it daily).
    func testARestoredBackupOnAMemberDoesNotUndoACompactedDeletion() throws {
        let (keychains, synchronizers, backup) = try circleWithABackup()
        try revokeOnB(keychains, synchronizers)
        XCTAssertEqual(try synchronizers[1].compactDeletions(), 1)
        for synchronizer in synchronizers { try synchronizer.syncNow() }

        try keychains[0].importBackup(from: backup, passphrase: backupPassphrase, onDuplicate: .replace)
        let report = try synchronizers[0].syncNow()
        XCTAssertEqual(report.revokedCopiesRemoved, 1)
        XCTAssertEqual(report.pushed, 0)
        for synchronizer in synchronizers { try synchronizer.syncNow(verifyingEverything: true) }
        assertRevokedEverywhere(keychains, "the revoked credential stays deleted after compaction")
    }

    /// (a) A member that restores the backup before it even saw the compaction: the same.
    func testARestoreBeforeTheMemberSawTheCompactionDoesNotUndoIt() throws {
        let (keychains, synchronizers, backup) = try circleWithABackup()
        try revokeOnB(keychains, synchronizers)
        XCTAssertEqual(try synchronizers[1].compactDeletions(), 1)

        try keychains[2].importBackup(from: backup, passphrase: backupPassphrase, onDuplicate: .replace)
        XCTAssertEqual(try synchronizers[2].syncNow().revokedCopiesRemoved, 1)
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        assertRevokedEverywhere(keychains, "the revoked credential stays deleted")
    }

    /// (b) A new device set up from the old backup joins after the deletion was compacted: the
    /// value does not come back to the circle, and the new device drops it.
    func testADeviceSetUpFromAnOldBackupJoinsAfterTheCompactionWithoutTheDeletedValue() throws {
        let (keychains, synchronizers, backup) = try circleWithABackup()
        try revokeOnB(keychains, synchronizers)
        XCTAssertEqual(try synchronizers[1].compactDeletions(), 1)

        let d = try device("d")
        try d.importBackup(from: backup, passphrase: backupPassphrase)
        XCTAssertEqual(try passwords(d)["bank/alice"], leaked)
        let code = try XCTUnwrap(synchronizers[1].status().circleCode)
        let joined = KeychainSynchronizer(keychain: d)
        try synchronizers[1].approve(
            joined.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "device-3"))
        let report = try XCTUnwrap(joined.finishJoiningWithReport())
        XCTAssertEqual(report.revokedCopiesRemoved, 1, "the first sync says it removed the restored copy")
        XCTAssertEqual(report.pushed, 0)
        XCTAssertEqual(try passwords(d), ["mail/alice": "kept"], "the joining device dropped the restored copy")
        XCTAssertEqual(try joined.syncNow().pushed, 0)
        for synchronizer in synchronizers { try synchronizer.syncNow(verifyingEverything: true) }
        assertRevokedEverywhere(keychains + [d], "the revoked credential did not come back with the new device")
    }

    /// (a, b) The remembered deleted values survive a key rotation: a member restoring the backup
    /// afterwards, and a device set up from it that joins afterwards, still drop the copy.
    func testTheDeletedValuesSurviveAKeyRotation() throws {
        let (keychains, synchronizers, backup) = try circleWithABackup()
        try revokeOnB(keychains, synchronizers)
        XCTAssertEqual(try synchronizers[1].compactDeletions(), 1)
        try synchronizers[1].removeDevice("device-2")
        try synchronizers[0].syncNow()

        try keychains[0].importBackup(from: backup, passphrase: backupPassphrase, onDuplicate: .replace)
        XCTAssertEqual(try synchronizers[0].syncNow().revokedCopiesRemoved, 1)
        let d = try device("d")
        try d.importBackup(from: backup, passphrase: backupPassphrase)
        let code = try XCTUnwrap(synchronizers[0].status().circleCode)
        let joined = KeychainSynchronizer(keychain: d)
        try synchronizers[0].approve(
            joined.requestToJoin(server: postgres.connectionString, circleCode: code, deviceName: "device-3"))
        XCTAssertEqual(try XCTUnwrap(joined.finishJoiningWithReport()).revokedCopiesRemoved, 1)
        for synchronizer in [synchronizers[0], synchronizers[1], joined] {
            try synchronizer.syncNow(verifyingEverything: true)
        }
        for keychain in [keychains[0], keychains[1], d] {
            XCTAssertEqual(try passwords(keychain), ["mail/alice": "kept"])
        }
    }

    /// A member that did not know the deleted values (one running an earlier version, simulated by
    /// forgetting them) pushes its restored copy all the same: the others take it for the
    /// deletion and delete it again, and it is removed from that member too.
    func testACompactedDeletedValuePushedAnywayIsDeletedAgain() throws {
        let (keychains, synchronizers, backup) = try circleWithABackup()
        try revokeOnB(keychains, synchronizers)
        XCTAssertEqual(try synchronizers[1].compactDeletions(), 1)
        for synchronizer in synchronizers { try synchronizer.syncNow() }

        var forgetful = try XCTUnwrap(SyncStateStore.load(from: keychains[2]))
        XCTAssertFalse(forgetful.deletedValues.isEmpty)
        forgetful.deletedValues = DeletedValues()
        try SyncStateStore.save(forgetful, in: keychains[2])
        try keychains[2].importBackup(from: backup, passphrase: backupPassphrase, onDuplicate: .replace)
        XCTAssertEqual(try synchronizers[2].syncNow().pushed, 1, "the copy went back to the circle")

        try synchronizers[0].syncNow()
        XCTAssertNil(
            try passwords(keychains[0])["bank/alice"], "not applied: taken for the deletion, which was pushed again")
        for synchronizer in [synchronizers[2], synchronizers[1], synchronizers[0]] { try synchronizer.syncNow() }
        assertRevokedEverywhere(keychains, "deleted again everywhere")
    }

    /// (c) Adding the same service and account again after the deletion, with a new value (even
    /// the same secret, written anew), is no restored copy: it syncs, before and after compaction.
    func testAddingTheItemAgainAfterTheDeletionStillSyncs() throws {
        let (keychains, synchronizers, _) = try circleWithABackup()
        try revokeOnB(keychains, synchronizers)

        try keychains[2].add(password("bank", "alice", "new-credential"))
        let report = try synchronizers[2].syncNow()
        XCTAssertEqual(report.revokedCopiesRemoved, 0)
        XCTAssertEqual(report.pushed, 1)
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        for keychain in keychains { XCTAssertEqual(try passwords(keychain)["bank/alice"], "new-credential") }

        // Revoked again and compacted; then the user writes the old secret anew on purpose.
        try revokeOnB(keychains, synchronizers)
        XCTAssertEqual(try synchronizers[1].compactDeletions(), 1)
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        try keychains[0].add(password("bank", "alice", leaked))
        XCTAssertEqual(try synchronizers[0].syncNow().pushed, 1)
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        for keychain in keychains {
            XCTAssertEqual(try passwords(keychain)["bank/alice"], leaked, "a deliberate re-add is no revoked copy")
        }
    }

    /// (c) Saying so: editing a restored item (any update moves its modification date) makes it
    /// a new value, which syncs.
    func testEditingARestoredItemBringsItBackOnPurpose() throws {
        let (keychains, synchronizers, backup) = try circleWithABackup()
        try revokeOnB(keychains, synchronizers)
        XCTAssertEqual(try synchronizers[1].compactDeletions(), 1)
        for synchronizer in synchronizers { try synchronizer.syncNow() }

        try keychains[0].importBackup(from: backup, passphrase: backupPassphrase, onDuplicate: .replace)
        _ = try keychains[0].update(
            Query(.genericPassword, [.service: "bank"], synchronizable: .yes),
            with: ItemChanges(attributes: [.label: .string("restored on purpose")]))
        let report = try synchronizers[0].syncNow()
        XCTAssertEqual(report.revokedCopiesRemoved, 0)
        XCTAssertEqual(report.pushed, 1)
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        for keychain in keychains { XCTAssertEqual(try passwords(keychain)["bank/alice"], leaked) }
    }
}
