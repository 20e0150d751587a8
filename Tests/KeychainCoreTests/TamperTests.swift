import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Edits an attacker can make with the database file alone are detected on read,
/// and the file alone reveals nothing.
final class TamperTests: XCTestCase {
    private func flipLastByte(of column: String, account: String, _ test: TestKeychain) throws {
        let indexer = try XCTUnwrap(test.keychain.keys.indexer)
        try test.tamper { db in
            let index = indexer.attribute(.account, .string(account))
            var blob = try XCTUnwrap(
                Data.fetchOne(db, sql: "SELECT \(column) FROM items WHERE account_index = ?", arguments: [index]))
            blob[blob.count - 1] ^= 0x01
            try db.execute(sql: "UPDATE items SET \(column) = ? WHERE account_index = ?", arguments: [blob, index])
        }
    }

    func testFlippedByteInDataIsDetected() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "value"))
        try flipLastByte(of: "secret", account: "acct", test)
        XCTAssertNoThrow(
            try test.keychain.find(query("svc", "acct"), returning: .attributes), "the attributes half is intact")
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(query("svc", "acct"), returning: .data))
    }

    func testFlippedByteInAttributesOrWrappedKeyIsDetected() throws {
        for column in ["metadata", "metadata_key", "secret_key"] {
            let test = try TestKeychain()
            try test.keychain.add(password("svc", "acct", "value"))
            try flipLastByte(of: column, account: "acct", test)
            XCTAssertKeychainError(
                .integrityViolation, try test.keychain.find(query("svc", "acct"), returning: [.attributes, .data]),
                column)
            XCTAssertKeychainError(
                .integrityViolation, try test.keychain.update(query("svc", "acct"), with: ItemChanges(data: Data())),
                column)
        }
    }

    func testSwappedCiphertextsBetweenRowsAreDetected() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "alice", "alice-secret"))
        try test.keychain.add(password("svc", "bob", "bob-secret"))
        try test.tamper { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, metadata_key, metadata, secret_key, secret FROM items ORDER BY id")
            for (row, other) in [(rows[0], rows[1]), (rows[1], rows[0])] {
                try db.execute(
                    sql: "UPDATE items SET metadata_key = ?, metadata = ?, secret_key = ?, secret = ? WHERE id = ?",
                    arguments: [
                        other["metadata_key"], other["metadata"], other["secret_key"], other["secret"], row["id"]
                    ])
            }
        }
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(query("svc", "alice"), returning: .data))
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(query("svc", "bob"), returning: .data))
    }

    func testSwappedSecretHalvesAloneAreDetected() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "alice", "alice-secret"))
        try test.keychain.add(password("svc", "bob", "bob-secret"))
        try test.tamper { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, secret_key, secret FROM items ORDER BY id")
            try db.execute(
                sql: "UPDATE items SET secret_key = ?, secret = ? WHERE id = ?",
                arguments: [rows[1]["secret_key"], rows[1]["secret"], rows[0]["id"]])
        }
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(query("svc", "alice"), returning: .data))
    }

    func testRowMovedToAnotherProtectionClassIsDetected() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(password("svc", "acct", "class A secret", .whenUnlocked))
        // Make the class-A row claim to be class D, hoping to read it while locked.
        try test.tamper { db in try db.execute(sql: "UPDATE items SET accessibility = 'dk'") }
        try test.keychain.lock()
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(query("svc", "acct"), returning: .data))
        try test.keychain.unlock(passphrase: "pw")
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(query("svc", "acct"), returning: .data))
    }

    func testRowMovedToAnotherItemClassIsDetected() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "secret"))
        try test.tamper { db in try db.execute(sql: "UPDATE items SET item_class = 'inet'") }
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(Query(.internetPassword), returning: .data))
    }

    func testReplayedOldRowVersionIsDetected() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "old"))
        try test.keychain.update(query("svc", "acct"), with: ItemChanges(data: Data("new".utf8)))
        try test.tamper { db in try db.execute(sql: "UPDATE items SET row_version = 1") }
        XCTAssertKeychainError(.integrityViolation, try test.keychain.find(query("svc", "acct"), returning: .data))
    }

    /// Values of the wrong type (SQLite columns accept any) are integrity errors, not crashes.
    func testWrongTypedColumnValuesAreDetectedWithoutCrashing() throws {
        // One edit per column the read path decodes: a value of another storage type (an INTEGER
        // where a blob belongs, text where an integer belongs, a real, the right bytes as a blob
        // where text belongs) and a flag out of range. (The schema's NOT NULL constraints refuse
        // NULLs in these columns.)
        let edits = [
            "row_version = 'seven'", "row_version = 1.5", "secret = 12", "secret = 1.5", "item_id = 'text'",
            "accessibility = 7", "synchronizable = x'00ff'", "synchronizable = 1", "synchronizable = 2",
            "group_index = 3",
            "primary_key_index = 'pk'", "metadata_key = 40", "metadata = 12", "secret_key = 'key'"
        ]
        // A lookup column the query selects by would only hide the row: query by the other one.
        let lookupEdits: [(edit: String, query: Query)] = [
            ("service_index = 5", Query(.genericPassword, [.account: "acct"])),
            ("account_index = 'acct'", Query(.genericPassword, [.service: "svc"]))
        ]
        for (edit, selecting) in edits.map({ ($0, query("svc", "acct")) }) + lookupEdits {
            let test = try TestKeychain()
            try test.keychain.add(password("svc", "acct", "value"))
            try test.tamper { db in try db.execute(sql: "UPDATE items SET \(edit)") }
            var anySync = selecting
            anySync.synchronizable = .any
            XCTAssertKeychainError(.integrityViolation, try test.keychain.find(anySync, returning: .data), edit)
            XCTAssertFalse(try test.keychain.verify().isClean, "\(edit): verify reports the row")
        }
        // The class as a blob of the right bytes: SQLite no longer selects the row by class, and
        // verify, which reads every row, reports it.
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "value"))
        try test.tamper { db in try db.execute(sql: "UPDATE items SET item_class = x'67656e70'") }
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(query("svc", "acct"), returning: .data))
        XCTAssertFalse(try test.keychain.verify().isClean)
    }

    func testWrongTypedHeaderOrKeybagValuesAreRefusedWithoutCrashing() throws {
        for edit in [
            "UPDATE vault_header SET keybag_generation = 'x'", "UPDATE vault_header SET vault_id = 42",
            "UPDATE vault_header SET scrypt_salt = x'00'", "UPDATE keybag SET wrapped_key = 7"
        ] {
            let test = try TestKeychain()
            try test.tamper { db in try db.execute(sql: edit) }
            XCTAssertKeychainError(.integrityViolation, try test.reopen(), edit)
        }
    }

    func testTamperedKeybagOrHeaderIsRefused() throws {
        let test = try TestKeychain()
        try test.tamper { db in
            var blob = try XCTUnwrap(Data.fetchOne(db, sql: "SELECT wrapped_key FROM keybag WHERE slot = 'ck'"))
            blob[blob.count - 1] ^= 1
            try db.execute(sql: "UPDATE keybag SET wrapped_key = ? WHERE slot = 'ck'", arguments: [blob])
        }
        XCTAssertKeychainError(.integrityViolation, try test.reopen())
    }

    /// The database file alone contains no plaintext and decrypts with no other device key.
    func testDatabaseFileAloneYieldsNothingReadable() throws {
        let test = try TestKeychain()
        try test.keychain.add(
            password(
                "very-distinctive-service", "very-distinctive-account", "very-distinctive-secret",
                extra: [.label: "very-distinctive-label"]))
        test.keychain.checkpoint()
        var bytes = Data()
        for suffix in ["", "-wal"] {
            bytes += (try? Data(contentsOf: URL(fileURLWithPath: test.location.databaseURL.path + suffix))) ?? Data()
        }
        XCTAssertGreaterThan(bytes.count, 0)
        for needle in [
            "very-distinctive-service", "very-distinctive-account", "very-distinctive-secret", "very-distinctive-label"
        ] {
            XCTAssertNil(bytes.range(of: Data(needle.utf8)), "\(needle) appears in clear in the database file")
        }

        // Copy only the database elsewhere; a new device key is created there and cannot open it.
        let thief = FileManager.default.temporaryDirectory.appendingPathComponent("kc-thief-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: thief) }
        let stolen = KeychainLocation(directory: thief)
        try FileManager.default.createDirectory(
            at: stolen.databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: test.location.databaseURL, to: stolen.databaseURL)
        XCTAssertKeychainError(
            .keychainUnavailable, try Keychain(location: stolen, options: test.options),
            "no device key: refused, none is invented")
        _ = try? Keychain(
            location: KeychainLocation(
                databaseURL: thief.appendingPathComponent("other.db"), deviceKeyURL: stolen.deviceKeyURL),
            options: test.options)
        XCTAssertKeychainError(
            .keychainUnavailable, try Keychain(location: stolen, options: test.options),
            "another device key does not open it")
    }
}
