import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// The engine's messages in the names users know (issue 35): accessibility constants instead of
/// internal codes, the keychain's path, damaged items by service and account.
final class EngineWordingTests: XCTestCase {
    func testLockedMessagesNameTheConstantAndTheKeychain() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "me", "value", .whenUnlockedThisDeviceOnly))
        try test.keychain.setPassphrase("pw")
        try test.keychain.lock()
        XCTAssertThrowsError(try test.keychain.find(query("svc", "me"), returning: .data)) { error in
            let message = (error as? KeychainError)?.message ?? ""
            XCTAssertTrue(message.contains("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), message)
            XCTAssertTrue(message.contains(test.keychain.location.databaseURL.path), message)
            XCTAssertFalse(message.contains("(aku)"), message)
        }
        XCTAssertThrowsError(try test.keychain.unlock(passphrase: "wrong")) { error in
            let message = (error as? KeychainError)?.message ?? ""
            XCTAssertTrue(message.contains(test.keychain.location.databaseURL.path), message)
        }
        XCTAssertEqual(
            Accessibility.afterFirstUnlockThisDeviceOnly.constantName,
            "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly")
    }

    func testVerifyNamesDamagedItemsByServiceAndAccountEscaped() throws {
        let test = try TestKeychain()
        let hostile = "evil\u{1b}]0;pwned\u{07}\u{202e}"
        for account in ["a", "b", hostile] { try test.keychain.add(password("svc", account, "value-\(account)")) }
        try test.tamper { db in
            for id in [2, 3] {
                var secret = try XCTUnwrap(
                    Data.fetchOne(db, sql: "SELECT secret FROM items WHERE id = ?", arguments: [id]))
                secret[secret.count - 1] ^= 0x01
                try db.execute(sql: "UPDATE items SET secret = ? WHERE id = ?", arguments: [secret, id])
            }
        }
        let report = try test.keychain.verify()
        XCTAssertEqual(report.damagedItems.count, 2)
        let b = try XCTUnwrap(report.damagedItems.first)
        XCTAssertEqual(b.service, "svc")
        XCTAssertEqual(b.account, "b")
        XCTAssertTrue(b.description.hasPrefix("service \"svc\", account \"b\" (genp, row 2): "), b.description)
        XCTAssertFalse(b.description.contains("value-b"), "never the secret")
        let evil = try XCTUnwrap(report.damagedItems.last)
        XCTAssertEqual(evil.account, hostile, "the report keeps the account as stored")
        XCTAssertFalse(
            evil.description.unicodeScalars.contains(where: PrintableText.isUnsafe), evil.description.debugDescription)
        XCTAssertTrue(evil.description.contains("account \"evil?]0;pwned??\""), evil.description.debugDescription)
    }
}
