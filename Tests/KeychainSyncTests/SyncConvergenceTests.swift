import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Adds, updates and deletes travel between the devices of a circle, exactly the items Apple
/// would sync, and conflicts resolve the same way everywhere.
final class SyncConvergenceTests: SyncTestCase {
    func testAddsUpdatesAndDeletesReachEveryDevice() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("api.example.com", "alice", "s3cret"))
        let (a, b) = try pair(laptop, server)
        XCTAssertEqual(
            try passwords(server), ["api.example.com/alice": "s3cret"],
            "the first sync of a new member brings the circle's items")

        try server.update(
            Query(.genericPassword, [.service: "api.example.com", .account: "alice"], synchronizable: .yes),
            with: ItemChanges(data: Data("rotated".utf8)))
        try b.syncNow()
        try a.syncNow()
        XCTAssertEqual(try passwords(laptop), ["api.example.com/alice": "rotated"])

        try laptop.delete(Query(.genericPassword, [.service: "api.example.com"], synchronizable: .yes))
        let report = try a.syncNow()
        XCTAssertEqual(report.pushed, 1, "the deletion is pushed as a tombstone")
        try b.syncNow()
        XCTAssertEqual(try passwords(server), [:])
    }

    func testAttributesAndDatesArriveExactly() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        var item = password("mail", "bob", "pw")
        item.attributes[.label] = "Mail for Bob"
        item.attributes[.comment] = "a comment"
        item.attributes[.generic] = .data(Data([1, 2, 3]))
        try laptop.add(item)
        _ = try pair(laptop, server)
        let query = Query(.genericPassword, [.service: "mail"], synchronizable: .yes)
        let original = try XCTUnwrap(laptop.findFirst(query, returning: [.attributes, .data]))
        let copy = try XCTUnwrap(server.findFirst(query, returning: [.attributes, .data]))
        XCTAssertEqual(copy.data, original.data)
        XCTAssertEqual(
            SynchronizedItem.portable(copy.attributes), SynchronizedItem.portable(original.attributes),
            "every attribute, the creation and modification dates included")
        XCTAssertNotEqual(
            copy.persistentReference, original.persistentReference, "persistent references stay device-local")
    }

    func testOnlyWhatAppleWouldSyncLeavesTheDevice() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("synced", "a", "1"))
        try laptop.add(password("local", "b", "2", synchronizable: false))
        try laptop.add(password("this-device", "c", "3", accessibility: .afterFirstUnlockThisDeviceOnly))
        try laptop.add(password("this-device-unlocked", "d", "4", accessibility: .whenUnlockedThisDeviceOnly))
        let (a, _) = try pair(laptop, server)
        XCTAssertEqual(try allPasswords(server), ["synced/a": "1"])
        let circle = try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID
        _ = a
        let records = try postgres.psql("SELECT count(*) FROM keychain_sync_records WHERE circle_id = '\(circle)'")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(records, "1", "nothing but the synchronizable item reached the server")
    }

    func testConcurrentUpdatesConvergeOnTheNewerValue() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("db", "root", "v0"))
        let (a, b) = try pair(laptop, server)
        let query = Query(.genericPassword, [.service: "db"], synchronizable: .yes)
        try laptop.update(query, with: ItemChanges(data: Data("older".utf8)))
        Thread.sleep(forTimeInterval: 0.01)
        try server.update(query, with: ItemChanges(data: Data("newer".utf8)))
        // The older change is pushed first; the newer one still wins everywhere.
        try a.syncNow()
        let report = try b.syncNow()
        XCTAssertEqual(report.conflicts, 1)
        try a.syncNow()
        XCTAssertEqual(try passwords(laptop), ["db/root": "newer"])
        XCTAssertEqual(try passwords(server), ["db/root": "newer"])
    }

    func testADeleteRacingAnUpdateResolvesTheSameEverywhere() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("db", "root", "v0"))
        let (a, b) = try pair(laptop, server)
        let query = Query(.genericPassword, [.service: "db"], synchronizable: .yes)
        try server.update(query, with: ItemChanges(data: Data("updated".utf8)))
        Thread.sleep(forTimeInterval: 0.01)
        try laptop.delete(query)
        try b.syncNow()
        // The laptop deleted the value it had; the update came after its last sync, so it is a
        // value the deletion never saw: the update wins on both devices and nothing is lost.
        try a.syncNow()
        try b.syncNow()
        XCTAssertEqual(try passwords(laptop), ["db/root": "updated"])
        XCTAssertEqual(try passwords(server), ["db/root": "updated"])
        // Once the laptop has seen the update, deleting it deletes it everywhere.
        try laptop.delete(query)
        try a.syncNow()
        try b.syncNow()
        XCTAssertEqual(try passwords(laptop), [:])
        XCTAssertEqual(try passwords(server), [:])
    }

    func testAnUpdateRacingADeleteLosesOnlyToADeletionThatSawIt() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("db", "root", "v0"))
        let (a, b) = try pair(laptop, server)
        let query = Query(.genericPassword, [.service: "db"], synchronizable: .yes)
        // The deletion is pushed first; the server's later offline update of the old value is
        // newer than the deletion (dated by the laptop's last sync) and brings the item back.
        try laptop.delete(query)
        try a.syncNow()
        Thread.sleep(forTimeInterval: 0.01)
        try server.update(query, with: ItemChanges(data: Data("updated offline".utf8)))
        try b.syncNow()
        try a.syncNow()
        XCTAssertEqual(try passwords(laptop), ["db/root": "updated offline"])
        XCTAssertEqual(try passwords(server), ["db/root": "updated offline"])
    }

    func testAnOldCopyOnAJoiningDeviceDoesNotUndoADeletion() throws {
        let laptop = try device("laptop")
        let restored = try device("restored")
        // The restored device holds an old copy of an item (from a backup, say)…
        try restored.add(password("old", "token", "revoked long ago"))
        Thread.sleep(forTimeInterval: 0.01)
        try laptop.add(password("old", "token", "revoked long ago"))
        try laptop.add(password("kept", "item", "k"))
        let founder = KeychainSynchronizer(keychain: laptop)
        _ = try founder.createCircle(server: postgres.connectionString, deviceName: "laptop")
        // …that the circle deleted before it joined.
        try laptop.delete(Query(.genericPassword, [.service: "old"], synchronizable: .yes))
        try founder.syncNow()
        let joiner = try join(restored, as: "restored", approvedBy: founder)
        try founder.syncNow()
        try joiner.syncNow()
        XCTAssertEqual(try passwords(laptop), ["kept/item": "k"])
        XCTAssertEqual(
            try passwords(restored), ["kept/item": "k"], "a copy older than the deletion it never agreed on loses")
    }

    func testThreeDevicesWithRandomChangesConverge() throws {
        let devices = try (0..<3).map { try device("d\($0)") }
        let synchronizers = try circle(devices)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<30 {
            let index = Int.random(in: 0..<3, using: &generator)
            let keychain = devices[index]
            let account = "acct-\(Int.random(in: 0..<8, using: &generator))"
            let query = Query(.genericPassword, [.service: "random", .account: .string(account)], synchronizable: .yes)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: _ = try keychain.addOrUpdate(password("random", account, "r\(round)-d\(index)"))
            case 1: _ = try? keychain.delete(query)
            default: _ = try? keychain.update(query, with: ItemChanges(data: Data("u\(round)-d\(index)".utf8)))
            }
            if Bool.random(using: &generator) { try synchronizers[Int.random(in: 0..<3, using: &generator)].syncNow() }
        }
        for _ in 0..<2 { for synchronizer in synchronizers { try synchronizer.syncNow() } }
        let expected = try passwords(devices[0])
        for keychain in devices.dropFirst() { XCTAssertEqual(try passwords(keychain), expected) }
    }

    func testARepeatedSyncChangesNothing() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("x", "y", "z"))
        let (a, b) = try pair(laptop, server)
        let circle = try XCTUnwrap(SyncStateStore.load(from: laptop)).circleID
        let counter = "SELECT counter FROM keychain_sync_manifests WHERE circle_id = '\(circle)'"
        let before = try postgres.psql(counter)
        XCTAssertEqual(try a.syncNow().pushed, 0)
        XCTAssertEqual(try b.syncNow().pushed, 0)
        XCTAssertEqual(try postgres.psql(counter), before, "a sync with nothing to push writes nothing")
    }

    func testWhileLockedOnlyAvailableClassesSyncAndTheRestFollowsAfterUnlock() throws {
        let laptop = try device("laptop")
        let server = try device("server", passphrase: "correct horse")
        let (a, b) = try pair(laptop, server)
        try server.lock()
        try laptop.add(password("background", "token", "ck", accessibility: .afterFirstUnlock))
        try laptop.add(password("foreground", "token", "ak", accessibility: .whenUnlocked))
        try a.syncNow()
        let report = try b.syncNow()
        XCTAssertEqual(report.deferredWhileLocked, 1, "the whenUnlocked item waits for the unlock")
        try server.unlock(passphrase: "correct horse")
        try b.syncNow()
        XCTAssertEqual(try passwords(server), ["background/token": "ck", "foreground/token": "ak"])
        try server.lock()
        try b.syncNow()  // a locked class is never taken for deleted
        try a.syncNow()
        XCTAssertEqual(try passwords(laptop), ["background/token": "ck", "foreground/token": "ak"])
    }

    func testAnInterruptedPushIsCompletedWithoutDuplicates() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        let (a, _) = try pair(laptop, server)
        try laptop.add(password("x", "y", "z"))
        try a.syncNow()
        // Forget that the push happened, as a crash after the server's commit would.
        var state = try XCTUnwrap(SyncStateStore.load(from: laptop))
        state.entries = [:]
        state.pulledSequence = 0
        try SyncStateStore.save(state, in: laptop)
        XCTAssertEqual(try a.syncNow().pushed, 0, "the record on the server is recognised as this device's value")
        XCTAssertEqual(
            try postgres.psql("SELECT count(*) FROM keychain_sync_records WHERE circle_id = '\(state.circleID)'")
                .trimmingCharacters(in: .whitespacesAndNewlines), "1")
    }

    /// Two devices in one circle, both synced.
    private func pair(_ first: Keychain, _ second: Keychain) throws -> (KeychainSynchronizer, KeychainSynchronizer) {
        let synchronizers = try circle([first, second])
        try synchronizers[0].syncNow()
        return (synchronizers[0], synchronizers[1])
    }
}
