import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Issue 39 review (attacker): an update that keeps the lookup columns and tags writes only
/// the columns that change (``ItemRow/update(seal:replacing:previousTags:_:)``) and seals the row
/// afresh. A lookup column edited in the file must never be kept by such an update and sealed
/// by its new row seal.
final class Review39InPlaceUpdateAttackTests: XCTestCase {
    private func column(_ name: String, of id: Int64, _ test: TestKeychain) throws -> Data? {
        var value: Data?
        try test.tamper { db in
            value = try Data.fetchOne(db, sql: "SELECT \(name) FROM items WHERE id = ?", arguments: [id])
        }
        return value
    }

    /// The service column of one item replaced by another item's, then a data-only update
    /// selected by a column the attacker left alone: the update must write the true service
    /// column (the full rewrite), never seal the edited one.
    func testAnEditedServiceColumnIsNotSealedByADataOnlyUpdate() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc-a", "acct-a", "a"))
        try test.keychain.add(password("svc-b", "acct-b", "b"))
        let honest = try XCTUnwrap(try column("service_index", of: 1, test))
        let other = try XCTUnwrap(try column("service_index", of: 2, test))
        try test.tamper { db in
            try db.execute(sql: "UPDATE items SET service_index = ? WHERE id = 1", arguments: [other])
        }
        try test.keychain.update(
            Query(.genericPassword, [.account: "acct-a"]), with: ItemChanges(data: Data("new".utf8)))
        XCTAssertEqual(try column("service_index", of: 1, test), honest, "the edited column was kept and sealed")
        XCTAssertEqual(
            try test.keychain.find(query("svc-a", "acct-a", limit: .one), returning: .data).first?.data,
            Data("new".utf8))
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(query("svc-b", "acct-a", limit: .one)))
    }

    /// A tag row moved from one item to another, then a data-only update of each: both end with
    /// exactly their own tags (the comparison is against the file's tag rows, not the seal's).
    func testAMovedTagRowIsPutBackByDataOnlyUpdates() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "a", extra: [.label: "label-a"]))
        try test.keychain.add(password("svc", "b", "b", extra: [.label: "label-b"]))
        let labelA = test.keychain.keys.indexer.attribute(.label, .string("label-a"))
        try test.tamper { db in
            try db.execute(sql: "UPDATE item_tags SET item_rowid = 2 WHERE tag = ?", arguments: [labelA])
        }
        try test.keychain.update(query("svc", "a"), with: ItemChanges(data: Data("a2".utf8)))
        try test.keychain.update(query("svc", "b"), with: ItemChanges(data: Data("b2".utf8)))
        let found = try test.keychain.find(
            Query(.genericPassword, [.service: "svc", .label: "label-a"]), returning: .data)
        XCTAssertEqual(found.map(\.data), [Data("a2".utf8)])
    }
}
