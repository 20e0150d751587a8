import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Findings 3 and 6 of the adversarial review: edited lookup columns must never yield another
/// item's data or a wrong delete; and what the file plus the device key reveal about names.
final class LookupAttackTests: XCTestCase {
    private func swap(_ column: String, of first: Int64, and second: Int64, in test: TestKeychain) throws {
        try test.tamper { db in
            let a = try Data.fetchOne(db, sql: "SELECT \(column) FROM items WHERE id = ?", arguments: [first])
            let b = try Data.fetchOne(db, sql: "SELECT \(column) FROM items WHERE id = ?", arguments: [second])
            try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = ?", arguments: [b, first])
            try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = ?", arguments: [a, second])
        }
    }

    private func rowCount(_ test: TestKeychain) throws -> Int {
        var count = 0
        try test.tamper { db in count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? -1 }
        return count
    }

    func testSwappedLookupColumnsNeverYieldAnotherItemsSecret() throws {
        // Two items that differ only in the swapped column, so that after the swap each one's
        // query selects the other's row (the review's attack).
        let cases: [(column: String, first: (String, String), second: (String, String))] = [
            ("account_index", ("bank.example.com", "alice"), ("bank.example.com", "bob")),
            ("service_index", ("bank.example.com", "alice"), ("mail.example.com", "alice"))
        ]
        for (column, first, second) in cases {
            let test = try TestKeychain()
            try test.keychain.add(password(first.0, first.1, "first-secret"))
            try test.keychain.add(password(second.0, second.1, "second-secret"))
            try swap(column, of: 1, and: 2, in: test)
            let secrets = ["first-secret", "second-secret"]
            for (service, account) in [first, second] {
                XCTAssertKeychainError(
                    .integrityViolation, revealing: secrets,
                    try test.keychain.find(query(service, account, limit: .one), returning: .data), column)
                XCTAssertKeychainError(
                    .integrityViolation, revealing: secrets,
                    try test.keychain.update(query(service, account), with: ItemChanges(data: Data("x".utf8))), column)
                XCTAssertKeychainError(
                    .integrityViolation, revealing: secrets, try test.keychain.delete(query(service, account)), column)
            }
            XCTAssertEqual(try rowCount(test), 2, "\(column): nothing was deleted")
            // Even someone who forges the row seals with the device key gets no other item's data.
            try test.tamper { db in try test.keychain.keys.rowSealer.sealAllRows(db) }
            XCTAssertKeychainError(
                .integrityViolation, revealing: secrets,
                try test.keychain.find(query(first.0, first.1, limit: .one), returning: .data), column)
        }
    }

    func testMovedTagRowsNeverSelectAnotherItem() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "secret-a", extra: [.label: "label-a"]))
        try test.keychain.add(password("svc", "b", "secret-b", extra: [.label: "label-b"]))
        let labelA = test.keychain.keys.indexer.attribute(.label, .string("label-a"))
        try test.tamper { db in
            try db.execute(sql: "UPDATE item_tags SET item_rowid = 2 WHERE tag = ?", arguments: [labelA])
        }
        let byLabel = Query(.genericPassword, [.label: "label-a"], limit: .all)
        XCTAssertKeychainError(
            .integrityViolation, revealing: ["secret-b"], try test.keychain.find(byLabel, returning: .data))
        XCTAssertKeychainError(.integrityViolation, try test.keychain.delete(byLabel))
        XCTAssertEqual(try rowCount(test), 2)
    }

    func testDeletesWhileLockedCheckTheRowSeal() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        try test.keychain.add(password("svc", "keep", "secret-keep", .whenUnlocked))
        try test.keychain.add(password("svc", "drop", "secret-drop", .whenUnlocked))
        try test.keychain.lock()
        try swap("account_index", of: 1, and: 2, in: test)
        XCTAssertKeychainError(
            .integrityViolation, try test.keychain.delete(query("svc", "drop")), "the delete would have removed 'keep'")
        XCTAssertEqual(try rowCount(test), 2)
        try swap("account_index", of: 1, and: 2, in: test)
        XCTAssertEqual(
            try test.keychain.delete(query("svc", "drop")), 1, "an untampered delete works while locked, as on iOS")
    }

    func testRenumberedRowsDoNotRedirectALegacyReference() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "secret-a"))
        try test.keychain.add(password("svc", "b", "secret-b"))
        try test.tamper { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(
                sql:
                    "UPDATE items SET id = -1 WHERE id = 1; UPDATE items SET id = 1 WHERE id = 2; UPDATE items SET id = 2 WHERE id = -1"
            )
        }
        var legacy = Query(
            persistentReference: try XCTUnwrap(
                PersistentReference(data: Data("genp".utf8) + Data([0, 0, 0, 0, 0, 0, 0, 1]))))
        legacy.limit = .one
        XCTAssertKeychainError(
            .integrityViolation, revealing: ["secret-b"], try test.keychain.find(legacy, returning: .data))
    }

    /// The blind-index key is device tier (a deliberate choice, README "Threat model"): the file
    /// plus the device key let someone confirm a guessed service and account of a locked item,
    /// and nothing more — no attribute, no data, no other name.
    func testTheFileAndTheDeviceKeyConfirmAGuessedNameAndRevealNothingElse() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        try test.keychain.add(
            password("bank.example.com", "alice", "secret-data", .whenUnlocked, extra: [.label: "secret-label"]))
        let attacker = try test.openAnother()  // the files and the device key, no passphrase
        XCTAssertKeychainError(.itemNotFound, try attacker.find(query("bank.example.com", "mallory")), "a wrong guess")
        XCTAssertKeychainError(
            .interactionNotAllowed, revealing: ["secret-data", "secret-label"],
            try attacker.find(query("bank.example.com", "alice"), returning: [.attributes, .data]),
            "a right guess: confirmed, nothing read")
        XCTAssertKeychainError(
            .interactionNotAllowed, try attacker.find(Query(.genericPassword, [:], limit: .all)), "no listing")
    }
}
