import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// A device whose state went back (a restored snapshot, a stale save), a value made after a
/// deletion its device never saw, and another process's writes under the local item cache.
final class SyncRestoredStateTests: SyncTestCase {
    /// Two processes sync one keychain (`keychain sync watch` and a one-off `keychain sync now`,
    /// which the docs allow). The slow one loaded the state before the other merged a deletion,
    /// and saves what it derived from that older state after a compaction removed the deletion.
    /// The device still syncs: the deletion it went back before is applied again.
    func testAStaleStateSavedAfterACompactionDoesNotWedgeTheDevice() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        try laptop.add(password("gone", "user", "deleted"))
        try laptop.add(password("kept", "user", "stays"))
        let synchronizers = try circle([laptop, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        XCTAssertEqual(try passwords(phone).count, 2)

        // Process 2 on the phone loads the state here and is still reading the keychain...
        let loadedByProcess2 = try XCTUnwrap(SyncStateStore.load(from: phone))

        // ...while the laptop deletes an item, process 1 on the phone merges the deletion
        // (and acknowledges it), and the laptop compacts it away.
        try laptop.delete(Query(.genericPassword, [.service: "gone"], synchronizable: .yes))
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(phone), ["kept/user": "stays"])
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 1)

        // Process 2 found nothing to push and saves the state it derived from what it loaded.
        try SyncStateStore.save(loadedByProcess2, in: try reopen("phone"))

        let phoneAgain = KeychainSynchronizer(keychain: try reopen("phone"))
        XCTAssertNoThrow(try phoneAgain.syncNow(), "an honest circle: no tampering happened")
        XCTAssertNoThrow(try phoneAgain.syncNow(verifyingEverything: true))
        XCTAssertEqual(try passwords(try reopen("phone")), ["kept/user": "stays"])
        XCTAssertNoThrow(try phoneAgain.leave(offline: true))
    }

    /// The more common cause: the phone's keychain directory is restored from a file-system or VM
    /// snapshot taken before a deletion that the circle has since compacted. Its state is older
    /// than its own acknowledgement, and it still syncs.
    func testADeviceRestoredFromASnapshotStillSyncsAfterACompaction() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        try laptop.add(password("gone", "user", "deleted"))
        try laptop.add(password("kept", "user", "stays"))
        let synchronizers = try circle([laptop, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        let live = directory.appendingPathComponent("phone")
        let snapshot = directory.appendingPathComponent("phone-snapshot")
        try FileManager.default.copyItem(at: live, to: snapshot)

        try laptop.delete(Query(.genericPassword, [.service: "gone"], synchronizable: .yes))
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        XCTAssertEqual(try synchronizers[0].compactDeletions(), 1)

        try FileManager.default.removeItem(at: live)
        try FileManager.default.copyItem(at: snapshot, to: live)
        let restored = KeychainSynchronizer(keychain: try reopen("phone"))
        XCTAssertNoThrow(try restored.syncNow(), "an honest circle: no tampering happened")
        XCTAssertEqual(try passwords(try reopen("phone")), ["kept/user": "stays"])
    }

    /// A deletion is dated when the deleting device's sync noticed it, not when it was made. An
    /// item another device made after the deletion, never synced (the circle's record was made
    /// and deleted while that device was away), is newer than the value the deletion removed and
    /// survives it.
    func testAValueMadeAfterADeletionThatItsDeviceNeverSawIsNotDestroyed() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let synchronizers = try circle([laptop, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }

        // The laptop makes an item, syncs it, and deletes it (offline from here).
        try laptop.add(password("app", "token", "laptop-token"))
        try synchronizers[0].syncNow()
        try laptop.delete(Query(.genericPassword, [.service: "app"], synchronizable: .yes))
        Thread.sleep(forTimeInterval: 1.2)

        // Afterwards the phone, which never saw the laptop's item, makes its own under the same key.
        try phone.add(password("app", "token", "phone-only-token"))
        Thread.sleep(forTimeInterval: 1.2)

        // The laptop comes back online and pushes its deletion (dated now), then the phone syncs.
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()

        let survivors = try passwords(phone).merging(try passwords(laptop)) { first, _ in first }
        XCTAssertEqual(
            survivors["app/token"], "phone-only-token",
            "a value made after the deletion, that the deleting device never saw, must survive somewhere")
    }

    /// The local item cache: a sync in a long-running process after writes by another process
    /// (a new row in place of a deleted one, an update, a delete) pushes exactly those.
    func testTheCacheSeesOtherProcessesWrites() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        for index in 0..<5 { try laptop.add(password("s\(index)", "user", "v\(index)")) }
        let synchronizers = try circle([laptop, phone])
        for synchronizer in synchronizers { try synchronizer.syncNow() }
        try synchronizers[0].syncNow()  // the cache is warm in this process

        let other = try reopen("laptop")  // "another process"
        try other.delete(Query(.genericPassword, [.service: "s4"], synchronizable: .yes))
        try other.add(password("s4", "user", "re-added"))
        _ = try other.update(
            Query(.genericPassword, [.service: "s1"], synchronizable: .yes),
            with: ItemChanges(data: Data("changed".utf8)))
        try other.delete(Query(.genericPassword, [.service: "s2"], synchronizable: .yes))
        let report = try synchronizers[0].syncNow()
        XCTAssertLessThan(report.itemsRead, 5)
        try synchronizers[1].syncNow()
        XCTAssertEqual(
            try passwords(phone), ["s0/user": "v0", "s1/user": "changed", "s3/user": "v3", "s4/user": "re-added"])
    }

    /// Two processes syncing one keychain take turns: the second waits for the first's lock.
    func testSyncsOfOneKeychainInTwoProcessesTakeTurns() throws {
        let laptop = try device("laptop")
        let phone = try device("phone")
        let synchronizers = try circle([laptop, phone])
        let path = laptop.location.databaseURL.path + "-sync.lock"
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        // Another process holds the lock for half a second.
        let fd = open(path, O_RDWR | O_CLOEXEC)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let released = Date().addingTimeInterval(0.5)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
            flock(fd, LOCK_UN)
            close(fd)
        }
        try synchronizers[0].syncNow()
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(released), -0.05, "the sync waited for the other process")
    }
}
