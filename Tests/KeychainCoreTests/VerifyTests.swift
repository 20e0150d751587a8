import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// `verify()` decrypts and checks every item and names the damaged ones without changing anything.
final class VerifyTests: XCTestCase {
    func testCleanKeychainVerifies() throws {
        let test = try TestKeychain()
        for index in 0..<5 { try test.keychain.add(password("svc", "acct\(index)", "value\(index)")) }
        var calls: [(Int, Int)] = []
        let report = try test.keychain.verify { calls.append(($0, $1)) }
        XCTAssertTrue(report.isClean)
        XCTAssertEqual(report.verifiedItems, 5)
        XCTAssertEqual(calls.last?.0, 5)
        XCTAssertEqual(calls.last?.1, 5)
    }

    func testDamagedRowsAreNamedAndOthersStillVerify() throws {
        let test = try TestKeychain()
        for account in ["a", "b", "c", "d"] { try test.keychain.add(password("svc", account, "value-\(account)")) }
        let indexer = test.keychain.keys.indexer
        try test.tamper { db in
            // b: a flipped ciphertext bit; c: its clear account index moved to another account's value.
            let b = indexer.attribute(.account, .string("b"))
            var secret = try XCTUnwrap(
                Data.fetchOne(db, sql: "SELECT secret FROM items WHERE account_index = ?", arguments: [b]))
            secret[secret.count - 1] ^= 0x01
            try db.execute(sql: "UPDATE items SET secret = ? WHERE account_index = ?", arguments: [secret, b])
            try db.execute(
                sql: "UPDATE items SET account_index = ? WHERE account_index = ?",
                arguments: [indexer.attribute(.account, .string("zzz")), indexer.attribute(.account, .string("c"))])
            try db.execute(
                sql: "UPDATE items SET item_class = 'nonsense' WHERE account_index = ?",
                arguments: [indexer.attribute(.account, .string("d"))])
        }
        let report = try test.keychain.verify()
        XCTAssertFalse(report.isClean)
        XCTAssertEqual(report.verifiedItems, 1)
        XCTAssertEqual(report.damagedItems.map(\.rowID), [2, 3, 4])
        XCTAssertTrue(report.damagedItems[1].problem.contains("row seal"), report.damagedItems[1].problem)
        XCTAssertEqual(report.damagedItems[2].itemClass, "nonsense")
        XCTAssertNil(report.damagedItems[2].persistentReference)
        XCTAssertFalse(report.damagedItems.map(\.description).joined().contains("value-"), "no secrets in the report")
    }

    func testForgedAndOrphanLookupTagsAreReported() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "victim", "v", extra: [.label: "mine"]))
        try test.keychain.add(password("svc", "other", "o"))
        let forged = test.keychain.keys.indexer.attribute(.label, .string("old"))
        try test.tamper { db in
            // Makes `delete -l old` reach the victim without decrypting it.
            try db.execute(sql: "INSERT INTO item_tags (tag, item_rowid) VALUES (?, 1)", arguments: [forged])
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO item_tags (tag, item_rowid) VALUES (?, 99)", arguments: [forged])
        }
        let report = try test.keychain.verify()
        XCTAssertEqual(report.damagedItems.map(\.rowID), [1])
        XCTAssertTrue(report.damagedItems[0].problem.contains("tags"), report.damagedItems[0].problem)
        XCTAssertEqual(report.databaseProblems, ["1 lookup tag(s) point to no item (the file was edited)"])
        XCTAssertEqual(report.verifiedItems, 1)
    }

    func testLockedItemsAreCountedNotDamaged() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(password("svc", "a", "1", .whenUnlocked))
        try test.keychain.add(password("svc", "b", "2", .afterFirstUnlock))
        try test.keychain.add(password("svc", "c", "3", .whenPasscodeSetThisDeviceOnly))
        try test.keychain.lock()
        let report = try test.keychain.verify()
        XCTAssertTrue(report.isClean)
        XCTAssertEqual(report.verifiedItems, 1)
        XCTAssertEqual(report.lockedItems, [.whenUnlocked: 1, .whenPasscodeSetThisDeviceOnly: 1])
    }

    func testInventoryCountsWithoutKeys() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(password("svc", "a", "1", .whenUnlocked))
        try test.keychain.add(password("svc", "b", "2", .whenUnlocked))
        try test.keychain.add(NewItem(.internetPassword, attributes: [.server: "example.com"], data: Data("x".utf8)))
        let inventory = try test.openAnother().inventory()
        XCTAssertEqual(inventory.byClass, [.genericPassword: 2, .internetPassword: 1])
        XCTAssertEqual(inventory.byAccessibility, [.whenUnlocked: 3])
        XCTAssertEqual(inventory.total, 3)
    }

    func testCreateRefusesAnExistingKeychain() throws {
        let test = try TestKeychain()
        XCTAssertTrue(Keychain.exists(at: test.location))
        XCTAssertKeychainError(.duplicateKeychain, try Keychain.create(at: test.location, options: test.options))
        let elsewhere = KeychainLocation(directory: test.directory.appendingPathComponent("other"))
        XCTAssertFalse(Keychain.exists(at: elsewhere))
        XCTAssertNoThrow(try Keychain.create(at: elsewhere, options: test.options))
        XCTAssertTrue(Keychain.exists(at: elsewhere))
    }
}
