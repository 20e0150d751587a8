import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Format 3 keeps no lookup tags for dates, the digest, `musr` and `tomb`: filters on them are
/// checked on decrypted attributes, with the same matching and limits, and items written by
/// format 2 (which still carry those tags) verify clean.
final class UntaggedAttributeTests: XCTestCase {
    func testFiltersOnUntaggedAttributesMatchExactlyAndHonourLimits() throws {
        let test = try TestKeychain()
        let keychain = test.keychain
        for index in 0..<5 { try keychain.add(password("svc", "a\(index)", "secret-\(index)")) }
        let all = try keychain.find(Query(.genericPassword, [.service: "svc"]), returning: [.attributes, .data])
        let third = all[2]
        let created = try XCTUnwrap(third.attributes[.creationDate])
        let digest = try XCTUnwrap(third.attributes[.sha1])

        XCTAssertEqual(
            try keychain.find(Query(.genericPassword, [.creationDate: created])).map { $0.attributes[.account] },
            [third.attributes[.account]])
        XCTAssertEqual(
            try keychain.find(Query(.genericPassword, [.sha1: digest])).map { $0.attributes[.account] },
            [third.attributes[.account]])
        XCTAssertEqual(try keychain.find(Query(.genericPassword, [.tombstone: 0], limit: .count(2))).count, 2)
        XCTAssertEqual(
            try keychain.find(Query(.genericPassword, [.multiUser: .data(Data()), .service: "svc"])).count, 5)
        XCTAssertKeychainError(.itemNotFound, try keychain.find(Query(.genericPassword, [.tombstone: 1])))
        XCTAssertKeychainError(
            .itemNotFound,
            try keychain.find(Query(.genericPassword, [.modificationDate: .date(Date(timeIntervalSince1970: 0))])))

        XCTAssertEqual(
            try keychain.update(
                Query(.genericPassword, [.creationDate: created]), with: ItemChanges(data: Data("new".utf8))), 1)
        XCTAssertEqual(try keychain.delete(Query(.genericPassword, [.creationDate: created, .account: "a2"])), 1)
        XCTAssertEqual(try keychain.find(Query(.genericPassword, [.service: "svc"])).count, 4)
        let tags = try DatabaseQueue(path: test.location.databaseURL.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item_tags")
        }
        XCTAssertEqual(tags, 0, "a plain password has no tag rows any more")
        XCTAssertTrue(try keychain.verify().isClean)
    }

    func testResidualFiltersOverALockedClassFailInsteadOfGuessing() throws {
        let test = try TestKeychain()
        let keychain = test.keychain
        try keychain.add(password("svc", "always", "v", .alwaysThisDeviceOnly))
        try keychain.add(password("svc", "unlocked", "v", .whenUnlocked))
        let created = try XCTUnwrap(keychain.findFirst(query("svc", "always"))?.attributes[.creationDate])
        try keychain.setPassphrase("pass")
        try keychain.lock()
        XCTAssertKeychainError(
            .interactionNotAllowed, try keychain.delete(Query(.genericPassword, [.creationDate: created])),
            "a locked row cannot be ruled out without its attributes")
        XCTAssertEqual(
            try keychain.find(Query(.genericPassword, [.creationDate: created], limit: .one)).count, 1,
            "the scan stops at the limit, before the locked row")
        XCTAssertEqual(try keychain.delete(query("svc", "unlocked")), 1, "indexed filters still delete while locked")
    }

    func testItemIdentifiersFollowRowOrderAndCarryNoTime() throws {
        let test = try TestKeychain()
        var identifiers: [UUID] = []
        for index in 0..<3 {
            let item = try test.keychain.add(password("svc", "a\(index)"), returning: .persistentReference)
            guard case .uuid(let uuid) = item.persistentReference.target else { return XCTFail("not a UUID reference") }
            identifiers.append(uuid)
        }
        XCTAssertEqual(
            identifiers.map { Array($0.bytes.prefix(6)) }, [[0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 2], [0, 0, 0, 0, 0, 3]])
        XCTAssertEqual(identifiers.map { $0.bytes[6] >> 4 }, [8, 8, 8], "RFC 9562 version 8")
        XCTAssertEqual(Set(identifiers).count, 3)
    }

    func testItemsWrittenByFormat2VerifyCleanAndForeignTagsDoNot() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "old"))
        let attributes = try XCTUnwrap(test.keychain.findFirst(query("svc", "old"), returning: [.attributes, .data]))
            .attributes
        let legacy = ItemIndexes.legacyTags(attributes: attributes, indexer: test.keychain.keys.indexer)
        XCTAssertEqual(legacy.count, 5)
        // A row format 2 wrote, as the upgrade to format 4 sealed it (tags and all).
        try test.tamper { db in
            for tag in legacy {
                try db.execute(sql: "INSERT INTO item_tags (tag, item_rowid) VALUES (?, 1)", arguments: [tag])
            }
            try test.keychain.keys.rowSealer.sealAllRows(db)
        }
        XCTAssertTrue(try test.openAnother().verify().isClean, "the tags format 2 wrote are accepted")
        try test.tamper { db in
            try db.execute(
                sql: "INSERT INTO item_tags (tag, item_rowid) VALUES (?, 1)", arguments: [Data(repeating: 7, count: 16)]
            )
            try test.keychain.keys.rowSealer.sealAllRows(db)  // even with a seal forged by the device key's holder
        }
        XCTAssertFalse(try test.openAnother().verify().isClean, "any other tag is damage")
    }
}
