import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Hostile or damaged files give a clear KeychainError — never a crash, a hang, or wrong data
/// (issue 7's hostile-file matrix; single-row edits are in TamperTests).
final class HostileFileTests: XCTestCase {
    private static let acceptable: Set<KeychainError.Code> = [
        .integrityViolation, .invalidKeychain, .keychainUnavailable, .ioError
    ]

    /// Opens the keychain and reads everything; returns the error, or nil when all of it read fine.
    private func openAndReadAll(_ test: TestKeychain) -> KeychainError? {
        do {
            let keychain = try test.openAnother()
            for itemClass in ItemClass.storedClasses {
                _ = try keychain.findAll(Query(itemClass, synchronizable: .any), returning: .all)
            }
            return nil
        } catch let error as KeychainError {
            return error
        } catch {
            XCTFail("not a KeychainError: \(error)")
            return nil
        }
    }

    private func populated() throws -> TestKeychain {
        let test = try TestKeychain()
        for index in 0..<40 {
            try test.keychain.add(password("svc", "acct-\(index)", String(repeating: "v", count: 200)))
        }
        try test.keychain.add(
            NewItem(.internetPassword, attributes: [.server: "example.com", .port: 443], data: Data("w".utf8)))
        test.keychain.checkpoint()
        return test
    }

    func testTruncatedDatabaseAtAnySizeIsAClearError() throws {
        for fraction in [0.1, 0.5, 0.9] {
            let test = try populated()
            let url = test.location.databaseURL
            let bytes = try Data(contentsOf: url)
            XCTAssertGreaterThan(bytes.count, 8192, "the items are in the main file after the checkpoint")
            try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: url)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            let error = openAndReadAll(test)
            XCTAssertNotNil(error, "truncated to \(fraction)")
            if let error { XCTAssertTrue(Self.acceptable.contains(error.code), "\(fraction): \(error)") }
        }
    }

    func testRandomBytesAreNotAKeychain() throws {
        let test = try TestKeychain()
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try noise.write(to: test.location.databaseURL)
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: test.location.databaseURL.path + suffix)
        }
        XCTAssertKeychainError(.invalidKeychain, try test.openAnother())
    }

    func testValidSQLiteFilesWithForeignSchemasAreRefused() throws {
        let schemas = [
            "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, password TEXT); INSERT INTO users VALUES (1, 'a', 'b')",
            // A look-alike: a vault_header table, but not ours.
            "CREATE TABLE vault_header (x); INSERT INTO vault_header VALUES (42)",
            "CREATE TABLE vault_header (id INTEGER PRIMARY KEY, format_version TEXT); CREATE TABLE items (id INTEGER PRIMARY KEY)",
            // Another GRDB application's database.
            "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('createUsers')",
            // Our own migration names without our tables: no interrupted creation leaves this.
            "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); INSERT INTO grdb_migrations VALUES ('v1')",
            // An empty bookkeeping table plus a trigger that would run inside our migrations.
            "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); CREATE TRIGGER seed AFTER INSERT ON grdb_migrations BEGIN SELECT 1; END"
        ]
        for sql in schemas {
            let test = try TestKeychain()
            try FileManager.default.removeItem(at: test.location.databaseURL)
            for suffix in ["-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: test.location.databaseURL.path + suffix)
            }
            let queue = try DatabaseQueue(path: test.location.databaseURL.path)
            try queue.write { db in try db.execute(sql: sql) }
            try queue.close()
            chmod(test.location.databaseURL.path, 0o600)
            let error = openAndReadAll(test)
            XCTAssertNotNil(error, sql)
            if let error {
                XCTAssertTrue(
                    Self.acceptable.contains(error.code) || error.code == .unsupportedVersion, "\(sql): \(error)")
            }
        }
    }

    /// Found by the crash suite: a creation killed after GRDB made its bookkeeping table, before
    /// the first migration committed, must be finished by the next open, not refused.
    func testAnInterruptedCreationIsFinished() throws {
        let test = try TestKeychain()
        let location = KeychainLocation(directory: test.directory.appendingPathComponent("interrupted"))
        try FileManager.default.createDirectory(
            at: location.databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        try queue.close()
        chmod(location.databaseURL.path, 0o600)
        let keychain = try Keychain(location: location, options: test.options)
        try keychain.add(password("svc", "after-interruption"))
        XCTAssertTrue(try keychain.verify().isClean)
    }

    func testDeviceKeyOfAnotherKeychainIsRefused() throws {
        let victim = try populated()
        let other = try TestKeychain()
        try FileManager.default.removeItem(at: victim.location.deviceKeyURL)
        try FileManager.default.copyItem(at: other.location.deviceKeyURL, to: victim.location.deviceKeyURL)
        let error = openAndReadAll(victim)
        XCTAssertNotNil(error, "a well-formed device key of another keychain must not open this one")
        if let error { XCTAssertTrue(Self.acceptable.contains(error.code), "\(error)") }
    }

    func testKeybagFromAnotherKeychainIsRefused() throws {
        let victim = try populated()
        let other = try TestKeychain()
        try FileManager.default.removeItem(at: other.location.deviceKeyURL)
        // same device key even
        try FileManager.default.copyItem(at: victim.location.deviceKeyURL, to: other.location.deviceKeyURL)
        let foreign = try DatabaseQueue(path: other.location.databaseURL.path).read { db in
            try Row.fetchAll(db, sql: "SELECT slot, wrapped_key FROM keybag")
        }
        try victim.tamper { db in
            for row in foreign {
                try db.execute(
                    sql: "UPDATE keybag SET wrapped_key = ? WHERE slot = ?",
                    arguments: [row["wrapped_key"] as Data, row["slot"] as String])
            }
        }
        let error = openAndReadAll(victim)
        XCTAssertNotNil(error)
        if let error { XCTAssertTrue(Self.acceptable.contains(error.code), "\(error)") }
    }

    func testFlippedBitsInEveryColumnNeverReturnWrongData() throws {
        let columns = [
            "item_id", "item_class", "accessibility", "synchronizable", "group_index", "service_index", "account_index",
            "primary_key_index", "row_version", "metadata_key", "metadata", "secret_key", "secret"
        ]
        for column in columns {
            let test = try populated()
            try test.tamper { db in
                let value = try DatabaseValue.fetchOne(db, sql: "SELECT \(column) FROM items WHERE id = 7")
                switch value?.storage {
                case .blob(var bytes)?:
                    bytes[bytes.count / 2] ^= 0x10
                    try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = 7", arguments: [bytes])
                case .int64(let number)?:
                    try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = 7", arguments: [number ^ 0x10])
                case .string(let text)?:
                    try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = 7", arguments: [text + "x"])
                default:
                    XCTFail("\(column) has no value")
                }
            }
            let keychain = try test.openAnother()
            do {
                let items = try keychain.findAll(Query(.genericPassword, synchronizable: .any), returning: .all)
                // A flipped lookup index only hides the row from queries; whatever is returned must be genuine.
                XCTAssertTrue(items.allSatisfy { $0.data == Data(String(repeating: "v", count: 200).utf8) }, column)
                XCTAssertLessThan(items.count, 41, column)
            } catch {
                XCTAssertTrue(Self.acceptable.contains(error.code), "\(column): \(error)")
            }
            let report = try keychain.verify()
            XCTAssertEqual(report.damagedItems.map(\.rowID), [7], "verify names the edited row (\(column))")
        }
    }
}
