import Foundation
import GRDB
import XCTest
@_spi(Fuzzing) @_spi(Testing) @testable import KeychainCore

/// Issue 34 §1: items the library keeps for itself (sync state, sealer and file keys, migration
/// journals) live in a namespace of their own, recognised by what is sealed into the row and
/// its seal, never by their names. Each test plants or edits the way an attacker would: the
/// public API (what the `keychain` tool and every app reach), a crafted backup, a crafted sync
/// change, raw SQL on the file.
final class LibraryOwnedItemAttackTests: XCTestCase {
    private let owner = LibraryOwner.sync
    private let names: [AttributeKey: AttributeValue] = [
        .service: "KeychainSync", .account: "state", .accessGroup: "com.securestorage.sync"
    ]

    private func ownedItem(_ data: String) -> NewItem {
        var item = NewItem(
            .genericPassword, attributes: names, data: Data(data.utf8), accessibility: .afterFirstUnlockThisDeviceOnly)
        item.owner = owner
        return item
    }

    private func ownedQuery() -> Query {
        var query = Query(
            .genericPassword, [.service: "KeychainSync", .account: "state"], accessGroups: ["com.securestorage.sync"],
            limit: .one)
        query.owner = owner
        return query
    }

    private func appQuery() -> Query {
        Query(
            .genericPassword, [.service: "KeychainSync", .account: "state"], accessGroups: ["com.securestorage.sync"],
            limit: .one)
    }

    /// An app item of exactly the library's names (what `keychain add-generic-password` or an
    /// import creates) and the library's own item coexist; neither namespace sees the other.
    func testAnAppItemWithTheLibrarysNamesIsNeverTakenForTheLibrarysItem() throws {
        let test = try TestKeychain()
        let keychain = test.keychain
        try keychain.add(
            NewItem(
                .genericPassword, attributes: names, data: Data("attacker state".utf8), accessibility: .afterFirstUnlock
            ))
        XCTAssertKeychainError(
            .itemNotFound, try keychain.find(self.ownedQuery(), returning: .data),
            "an owned lookup must not see the planted item")
        try keychain.add(ownedItem("library state"))  // no duplicate: the namespaces never collide
        XCTAssertEqual(try keychain.find(ownedQuery(), returning: .data).first?.data, Data("library state".utf8))
        XCTAssertEqual(try keychain.find(appQuery(), returning: .data).first?.data, Data("attacker state".utf8))
        // Every public operation, the broadest included, leaves the library's item alone.
        XCTAssertEqual(try keychain.findAll(Query(.genericPassword, synchronizable: .any)).count, 1)
        XCTAssertEqual(try keychain.update(Query(.genericPassword), with: ItemChanges(data: Data("replaced".utf8))), 1)
        XCTAssertEqual(try keychain.delete(Query(.genericPassword, synchronizable: .any)), 1)
        XCTAssertEqual(try keychain.find(ownedQuery(), returning: .data).first?.data, Data("library state".utf8))
        // And the library's delete leaves apps' items alone.
        try keychain.add(
            NewItem(
                .genericPassword, attributes: names, data: Data("attacker again".utf8), accessibility: .afterFirstUnlock
            ))
        XCTAssertEqual(try keychain.delete(ownedQuery()), 1)
        XCTAssertEqual(try keychain.find(appQuery(), returning: .data).first?.data, Data("attacker again".utf8))
    }

    /// A persistent reference names a row; an app that guesses a library item's (row ids are
    /// small numbers) gets nothing.
    func testAPersistentReferenceToALibraryItemFindsNothing() throws {
        let test = try TestKeychain()
        let stored = try test.keychain.add(ownedItem("library state"), returning: .persistentReference)
        let reference = try XCTUnwrap(stored.persistentReference)
        XCTAssertKeychainError(
            .itemNotFound, try test.keychain.find(Query(persistentReference: reference), returning: .data))
        XCTAssertKeychainError(.itemNotFound, try test.keychain.delete(Query(persistentReference: reference)))
        XCTAssertKeychainError(
            .itemNotFound,
            try test.keychain.update(Query(persistentReference: reference), with: ItemChanges(data: Data("x".utf8))))
        XCTAssertEqual(try test.keychain.find(ownedQuery(), returning: .data).first?.data, Data("library state".utf8))
    }

    /// The owner attribute cannot be given through the public API, in an add, a query or an update.
    func testTheOwnerAttributeCannotBeNamedByAnApp() throws {
        let test = try TestKeychain()
        var attributes = names
        attributes[LibraryOwner.attribute] = .string("sync")
        XCTAssertKeychainError(
            .noSuchAttribute,
            try test.keychain.add(NewItem(.genericPassword, attributes: attributes, data: Data("x".utf8))))
        XCTAssertKeychainError(
            .noSuchAttribute, try test.keychain.find(Query(.genericPassword, [LibraryOwner.attribute: "sync"])))
        try test.keychain.add(NewItem(.genericPassword, attributes: names, data: Data("x".utf8)))
        XCTAssertKeychainError(
            .noSuchAttribute,
            try test.keychain.update(self.appQuery(), with: ItemChanges(attributes: [LibraryOwner.attribute: "sync"])))
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(self.ownedQuery()))
    }

    /// Library items never sync.
    func testALibraryItemCannotBeSynchronizable() throws {
        let test = try TestKeychain()
        var item = ownedItem("state")
        item.attributes[.synchronizable] = .bool(true)
        item.attributes[.accessible] = .string(Accessibility.afterFirstUnlock.rawValue)
        XCTAssertKeychainError(.invalidParameter, try test.keychain.add(item))
    }

    /// Backups never carry library items: the export leaves them out, and a backup crafted to
    /// hold one (the attacker's own passphrase, told to the victim) is refused whole.
    func testBackupsNeverCarryLibraryItemsInEitherDirection() throws {
        let test = try TestKeychain()
        var exportable = ownedItem("library key")
        exportable.attributes[.accessible] = .string(Accessibility.afterFirstUnlock.rawValue)
        try test.keychain.add(exportable)
        try test.keychain.add(
            NewItem(
                .genericPassword, attributes: [.service: "app", .account: "alice"], data: Data("app".utf8),
                accessibility: .afterFirstUnlock))
        let backup = test.directory.appendingPathComponent("exported.backup")
        let summary = try test.keychain.exportBackup(to: backup, passphrase: "backup pass")
        XCTAssertEqual(summary.exportedItems, 1)
        let plaintexts = try BackupCrafter.chunkPlaintexts(ofBackupAt: backup, passphrase: "backup pass")
        XCTAssertFalse(
            plaintexts.contains { $0.range(of: Data("library key".utf8)) != nil },
            "the library's item reached the backup")

        var writer = try BackupWriter(passphrase: "attacker pass", parameters: .insecureForTestingOnly)
        var file = writer.header
        let planted = BackupRecord(
            itemClass: .genericPassword,
            attributes: names.merging([.accessible: .string("ck"), LibraryOwner.attribute: .string("sync")]) { $1 },
            data: Data("attacker state".utf8))
        let innocent = BackupRecord(
            itemClass: .genericPassword, attributes: [.service: "team", .account: "db", .accessible: .string("ck")],
            data: Data("pw".utf8))
        for record in [innocent, planted] { for chunk in try writer.append(record) { file.append(chunk) } }
        file.append(try writer.finish(skipped: .init()))
        let crafted = test.directory.appendingPathComponent("crafted.backup")
        try file.write(to: crafted)
        let victim = try TestKeychain()
        for policy in [BackupDuplicatePolicy.keepExisting, .replace] {
            XCTAssertKeychainError(
                .invalidParameter,
                try victim.keychain.importBackup(from: crafted, passphrase: "attacker pass", onDuplicate: policy))
        }
        XCTAssertKeychainError(.itemNotFound, try victim.keychain.find(self.ownedQuery()))
        XCTAssertKeychainError(
            .itemNotFound, try victim.keychain.find(Query(.genericPassword, [.service: "team"])),
            "a refused import imported something")
    }

    /// A change from a circle member (or a server forging one) cannot carry the owner.
    func testASyncedChangeCannotPlantALibraryItem() throws {
        let test = try TestKeychain()
        var attributes = names
        attributes[.synchronizable] = .bool(true)
        attributes[.accessible] = .string("ck")
        attributes[LibraryOwner.attribute] = .string("sync")
        let change = SynchronizedChange(
            .upsert, SynchronizedItem(itemClass: .genericPassword, attributes: attributes, data: Data("x".utf8)),
            expectedLocalDigest: nil)
        XCTAssertFalse(test.keychain.acceptsSynchronized(change.item))
        XCTAssertThrowsError(try test.keychain.applySynchronized([change]))
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(self.ownedQuery()))
    }

    /// The sync state written through the sync hook must be library-owned.
    func testTheSyncHookRefusesAStateOutsideTheLibrarysNamespace() throws {
        let test = try TestKeychain()
        var state = ownedItem("state")
        state.owner = nil
        XCTAssertKeychainError(.invalidParameter, try test.keychain.applySynchronized([], state: state))
        XCTAssertNoThrow(try test.keychain.applySynchronized([], state: ownedItem("state")))
        XCTAssertEqual(try test.keychain.find(ownedQuery(), returning: .data).first?.data, Data("state".utf8))
    }

    /// Raw SQL: removing the owned tag of a library item makes it neither an app item nor the
    /// library's (tampering, nothing revealed); copying the tag onto an app item fails its seal.
    func testEditingTheOwnedTagInTheFileIsTampering() throws {
        let test = try TestKeychain()
        try test.keychain.add(ownedItem("library state"))
        let ownedTag = test.keychain.keys.indexer.libraryOwnedTag
        try test.tamper { db in try db.execute(sql: "DELETE FROM item_tags WHERE tag = ?", arguments: [ownedTag]) }
        try test.reopen()
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(self.appQuery(), returning: .data))
        XCTAssertKeychainError(.integrityViolation, try test.keychain.delete(self.appQuery()))
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(self.ownedQuery(), returning: .data))

        let other = try TestKeychain()
        try other.keychain.add(
            NewItem(
                .genericPassword, attributes: names, data: Data("attacker state".utf8),
                accessibility: .afterFirstUnlockThisDeviceOnly))
        let tags = (
            other.keychain.keys.indexer.libraryOwnedTag,
            other.keychain.keys.indexer.attribute(LibraryOwner.attribute, .string("sync"))
        )
        try other.tamper { db in
            try db.execute(sql: "INSERT INTO item_tags (tag, item_rowid) SELECT ?, id FROM items", arguments: [tags.0])
            try db.execute(sql: "INSERT INTO item_tags (tag, item_rowid) SELECT ?, id FROM items", arguments: [tags.1])
        }
        try other.reopen()
        XCTAssertKeychainError(.integrityViolation, try other.keychain.find(self.ownedQuery(), returning: .data))
        XCTAssertKeychainError(.integrityViolation, try other.keychain.delete(self.ownedQuery()))
    }

    /// Verify accepts library items and reports none of them damaged.
    func testVerifyAcceptsLibraryItems() throws {
        let test = try TestKeychain()
        try test.keychain.add(ownedItem("library state"))
        let report = try test.keychain.verify()
        XCTAssertTrue(report.isClean, "\(report)")
        XCTAssertEqual(report.verifiedItems, 1)
    }
}
