import Crypto
import Foundation
import KeychainCore
@testable import KeychainSync
import XCTest

/// Attacks from the review of the first sync slice: a server-made key rotation, a locked
/// keychain taken for empty, an app's write racing a sync, items that may not sync, and
/// passwords in connection strings.
final class SyncReviewAttackTests: SyncTestCase {
    func testTheServerCannotRotateTheCircleToAKeyOfItsOwn() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("db", "root", "secret-before"))
        let synchronizers = try circle([laptop, server])
        try synchronizers[1].syncNow()
        let state = try XCTUnwrap(SyncStateStore.load(from: server))
        let circle = state.circleID
        // The server knows the device's public key (it carried the join request) and makes a
        // generation-1 key, a wrap of it to the device, and a manifest of an empty circle under it.
        let forged = CircleKey(circleID: circle, generation: 1, secret: SymmetricKey(size: .bits256))
        let wrap = try KeyWrap.wrap(
            forged, counterFloor: 0, to: state.agreementKey.publicKey, device: state.deviceID, signedBy: .init())
        let manifest = Manifest(counter: 1000, generation: 1, digest: SetDigest(), recordCount: 0, author: UUID())
        try postgres.psql(
            "INSERT INTO keychain_sync_key_wraps VALUES ('\(circle)', '\(state.deviceID)', 1, '\\x\(hex(wrap))')")
        try postgres.psql(
            "UPDATE keychain_sync_manifests SET counter = 1000, body = '\\x\(hex(manifest.sealed(key: forged)))' WHERE circle_id = '\(circle)'"
        )
        try postgres.psql("DELETE FROM keychain_sync_records WHERE circle_id = '\(circle)'")
        try server.add(password("written", "after", "must-not-leak"))
        assertSyncError(.tampered, try synchronizers[1].syncNow())
        XCTAssertEqual(
            try postgres.psql("SELECT count(*) FROM keychain_sync_records WHERE circle_id = '\(circle)'")
                .trimmingCharacters(in: .whitespacesAndNewlines),
            "0", "nothing was uploaded under the server's key")
        XCTAssertEqual(try XCTUnwrap(SyncStateStore.load(from: server)).entriesGeneration, 0, "the device kept its key")
    }

    func testALockedKeychainIsNotTakenForEmpty() throws {
        let laptop = try device("laptop")
        let server = try device("server", passphrase: "pass phrase")
        try laptop.add(password("foreground", "token", "ak", accessibility: .whenUnlocked))
        try laptop.add(password("background", "token", "ck", accessibility: .afterFirstUnlock))
        let synchronizers = try circle([laptop, server])
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(server).count, 2)
        try server.lock()
        // Locked, the whenUnlocked item cannot be read: it must not be pushed as deleted.
        try server.update(
            Query(.genericPassword, [.service: "background"], synchronizable: .yes),
            with: ItemChanges(data: Data("ck2".utf8)))
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        XCTAssertEqual(try passwords(laptop), ["foreground/token": "ak", "background/token": "ck2"])
        try server.unlock(passphrase: "pass phrase")
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(server), ["foreground/token": "ak", "background/token": "ck2"])
    }

    func testAnAppsWriteDuringASyncIsNotOverwritten() throws {
        let keychain = try device("phone")
        try keychain.add(password("db", "root", "read by the sync"))
        let query = Query(.genericPassword, [.service: "db"], synchronizable: .yes)
        let read = try XCTUnwrap(keychain.synchronizableItems().items.first)
        // An app writes after the sync read the item, before the sync applies a remote value.
        try keychain.update(query, with: ItemChanges(data: Data("written by the app".utf8)))
        var remote = read
        remote.data = Data("from another device".utf8)
        let outcomes = try keychain.applySynchronized([
            SynchronizedChange(.upsert, remote, expectedLocalDigest: read.valueDigest)
        ])
        XCTAssertEqual(outcomes, [.changedLocally])
        XCTAssertEqual(try keychain.findFirst(query, returning: [.data])?.data, Data("written by the app".utf8))
        // And an item added meanwhile is not deleted by a remote deletion decided without it.
        let deletion = try keychain.applySynchronized([SynchronizedChange(.delete, remote, expectedLocalDigest: nil)])
        XCTAssertEqual(deletion, [.changedLocally])
        XCTAssertNotNil(try keychain.findFirst(query))
    }

    func testItemsThatMayNotSyncAreRefusedOnArrival() throws {
        let keychain = try device("phone")
        func item(_ attributes: [AttributeKey: AttributeValue]) -> SynchronizedItem {
            SynchronizedItem(
                itemClass: .genericPassword, attributes: [.service: "s", .account: "a"].merging(attributes) { $1 },
                data: Data("v".utf8))
        }
        // No accessibility: some access groups default to a this-device-only class.
        XCTAssertFalse(keychain.acceptsSynchronized(item([.synchronizable: 1, .accessGroup: "com.apple.apsd"])))
        XCTAssertFalse(keychain.acceptsSynchronized(item([.synchronizable: 1, .accessible: "cku"])))
        XCTAssertFalse(keychain.acceptsSynchronized(item([.synchronizable: 0, .accessible: "ck"])))
        XCTAssertFalse(keychain.acceptsSynchronized(item([.synchronizable: 1, .accessible: .data(Data("ck".utf8))])))
        XCTAssertFalse(
            keychain.acceptsSynchronized(item([.synchronizable: 1, .accessible: "ck", .port: 443])),
            "not an attribute of the class")
        XCTAssertTrue(keychain.acceptsSynchronized(item([.synchronizable: 1, .accessible: "ck"])))
        XCTAssertThrowsError(
            try keychain.applySynchronized([
                SynchronizedChange(
                    .upsert, item([.synchronizable: 1, .accessGroup: "com.apple.apsd"]),
                    expectedLocalDigest: nil)
            ]))
        XCTAssertEqual(try keychain.findAll(Query(.genericPassword, synchronizable: .any)).count, 0)
    }

    func testConnectionStringPasswordsAreNeverRepeated() throws {
        XCTAssertTrue(KeychainSynchronizer.holdsPassword("host=db password=hunter2 dbname=k"))
        XCTAssertTrue(KeychainSynchronizer.holdsPassword("postgresql://alice:hunter2@db/k"))
        XCTAssertFalse(KeychainSynchronizer.holdsPassword("host=db dbname=k user=alice"))
        let laptop = try device("laptop")
        for malformed in [
            "host=/nonexistent passwordhunter2zz", "postgresql://alice:hunter2zz@/%zz",
            "host=/nonexistent password=hunter2zz connect_timeout=1"
        ] {
            do {
                _ = try KeychainSynchronizer(keychain: laptop).createCircle(server: malformed, deviceName: "x")
                XCTFail("connected with \(malformed)")
            } catch {
                XCTAssertFalse("\(error)".contains("hunter2zz"), "\(error)")
            }
        }
        XCTAssertEqual(PrintableText.sanitized("name\u{1B}[31m\u{202E}evil"), "name?[31m?evil")
    }

    func testAnIdleSyncSkipsTheKeychainReadButNeverMissesAWrite() throws {
        let laptop = try device("laptop")
        let server = try device("server", passphrase: "pass phrase")
        try laptop.add(password("a", "1", "ak", accessibility: .whenUnlocked))
        try laptop.add(password("b", "2", "ak", accessibility: .whenUnlocked))
        let synchronizers = try circle([laptop, server])
        try synchronizers[1].syncNow()
        let marker = try XCTUnwrap(SyncStateStore.load(from: server)).localMarker
        XCTAssertEqual(marker, try server.changeMarker(), "the state carries the marker its own transaction ended with")
        XCTAssertEqual(try synchronizers[1].syncNow().pushed, 0)
        // A deletion while locked (deleting needs no class key): the locked sync cannot tell it
        // from an unreadable item, and must not record the keychain as seen.
        try server.lock()
        try server.delete(Query(.genericPassword, [.service: "a"], synchronizable: .yes))
        try synchronizers[1].syncNow()
        try server.unlock(passphrase: "pass phrase")
        XCTAssertEqual(try synchronizers[1].syncNow().pushed, 1, "the deletion is pushed once the keychain can be read")
        try synchronizers[0].syncNow()
        XCTAssertEqual(try passwords(laptop), ["b/2": "ak"])
        // Any write after an idle sync is seen.
        XCTAssertEqual(try synchronizers[1].syncNow().pushed, 0)
        try server.update(
            Query(.genericPassword, [.service: "b"], synchronizable: .yes),
            with: ItemChanges(data: Data("changed".utf8)))
        XCTAssertEqual(try synchronizers[1].syncNow().pushed, 1)
    }

    func testAWriteDuringASyncKeepsTheNextSyncFromSkipping() throws {
        let keychain = try device("phone")
        try keychain.add(password("a", "1", "v"))
        var stateItem = NewItem(
            .genericPassword, attributes: [.service: "state", .account: "s", .synchronizable: 0], data: Data(),
            accessibility: .afterFirstUnlockThisDeviceOnly)
        stateItem.owner = .sync
        let snapshot = try keychain.synchronizableItems()
        try keychain.add(password("b", "2", "written while the sync ran"))
        var recorded: Int64?
        try keychain.applySynchronized([], seenMarker: snapshot.marker) { _, marker in
            recorded = marker
            return stateItem
        }
        XCTAssertNil(recorded, "no marker when something wrote since the snapshot")
        let unchanged = try keychain.synchronizableItems()
        try keychain.applySynchronized([], seenMarker: unchanged.marker) { _, marker in
            recorded = marker
            return stateItem
        }
        XCTAssertNotNil(recorded)
        XCTAssertEqual(recorded, try keychain.changeMarker(), "the marker the transaction ended with")
    }

    func testAnItemThisDeviceKeepsIsNeverDeletedElsewhere() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        // The same primary key: synchronizable on the server, this-device-only on the laptop.
        try laptop.add(password("shared", "key", "laptop's own", accessibility: .afterFirstUnlockThisDeviceOnly))
        try server.add(password("shared", "key", "server's"))
        let synchronizers = try circle([laptop, server])
        try synchronizers[1].syncNow()
        try synchronizers[0].syncNow()
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        XCTAssertEqual(
            try allPasswords(server)["shared/key"], "server's", "the laptop pushed no deletion for the item it keeps")
        XCTAssertEqual(try allPasswords(laptop)["shared/key"], "laptop's own", "and kept its own")
    }

    func testARotationWaitsForAnUnlockedKeychain() throws {
        let laptop = try device("laptop", passphrase: "pass phrase")
        let server = try device("server")
        let phone = try device("phone")
        let synchronizers = try circle([laptop, server, phone])
        try laptop.lock()
        assertSyncError(.invalidState, try synchronizers[0].removeDevice("device-2"))
        try laptop.unlock(passphrase: "pass phrase")
        XCTAssertNoThrow(try synchronizers[0].removeDevice("device-2"))
    }

    func testASequenceThatWentBackwardsHeals() throws {
        let laptop = try device("laptop")
        let server = try device("server")
        try laptop.add(password("first", "1", "v"))
        let synchronizers = try circle([laptop, server])
        try synchronizers[1].syncNow()
        // A table-only restore: the sequence starts again below what devices have pulled.
        try postgres.psql("ALTER SEQUENCE keychain_sync_sequence RESTART WITH 1")
        try laptop.add(password("second", "2", "after the restore"))
        try synchronizers[0].syncNow()
        XCTAssertNoThrow(
            try synchronizers[1].syncNow(), "an incremental pull that does not add up is read again in full")
        XCTAssertEqual(try passwords(server)["second/2"], "after the restore")
        try laptop.add(password("third", "3", "later"))
        try synchronizers[0].syncNow()
        try synchronizers[1].syncNow()
        XCTAssertEqual(try passwords(server)["third/3"], "later")
    }

}
