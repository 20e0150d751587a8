import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// An update whose lookup columns and tags stay the same writes only the columns that change
/// (``ItemRow/update(seal:replacing:previousTags:_:)``), so SQLite rewrites none of the row's
/// index entries or tag rows. Whatever path it takes, the row afterwards must be exactly what a
/// full rewrite would leave: found by its new attributes only, its seal and the state digest
/// intact, and lookup columns or tags edited in the file replaced by the true ones.
final class InPlaceUpdateTests: XCTestCase {
    private func tags(_ test: TestKeychain) throws -> [Data] {
        try test.keychain.read { db in try Data.fetchAll(db, sql: "SELECT tag FROM item_tags ORDER BY tag") }
    }

    func testADataOnlyUpdateKeepsTheTagRowsAndStaysFindableAndIntact() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "old", extra: [.label: "work"]))
        let before = try tags(test)
        try test.keychain.update(query("svc", "acct"), with: ItemChanges(data: Data("new".utf8)))
        XCTAssertEqual(try tags(test), before)
        let found = try test.keychain.find(
            Query(.genericPassword, [.service: "svc", .account: "acct", .label: "work"]), returning: .data)
        XCTAssertEqual(found.first?.data, Data("new".utf8))
        XCTAssertTrue(try test.keychain.verify().isClean)
    }

    func testChangingATaggedAttributeOrALookupColumnMovesTheItem() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "v", extra: [.label: "work"]))
        try test.keychain.update(query("svc", "acct"), with: ItemChanges(attributes: [.label: "home"]))
        XCTAssertKeychainError(
            .itemNotFound, try test.keychain.find(Query(.genericPassword, [.service: "svc", .label: "work"])))
        XCTAssertEqual(try test.keychain.find(Query(.genericPassword, [.service: "svc", .label: "home"])).count, 1)
        try test.keychain.update(query("svc", "acct"), with: ItemChanges(attributes: [.service: "moved"]))
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(query("svc", "acct")))
        XCTAssertEqual(try test.keychain.find(query("moved", "acct"), returning: .data).first?.data, Data("v".utf8))
        XCTAssertTrue(try test.keychain.verify().isClean)
    }

    /// A tag row planted in the file (an attacker making the item answer a query it should not)
    /// is dropped by the next update, however little the update changes.
    func testAPlantedTagRowIsDroppedByADataOnlyUpdate() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "v"))
        let honest = try tags(test)
        try test.tamper { db in
            try db.execute(sql: "INSERT INTO item_tags (tag, item_rowid) VALUES (?, 1)", arguments: [Data(count: 32)])
        }
        try test.keychain.update(query("svc", "acct"), with: ItemChanges(data: Data("new".utf8)))
        XCTAssertEqual(try tags(test), honest, "the planted tag survived the update")
        XCTAssertTrue(try test.keychain.verify().isClean)
    }
}
