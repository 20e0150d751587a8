import Crypto
import Foundation
import GRDB
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Findings 2, 4 and 5 of the adversarial review: laundering replayed rows through a fake
/// upgrade, hostile KDF parameters, and look-alike schemas with their own triggers.
final class FileIntegrityAttackTests: XCTestCase {
    // MARK: Finding 2: verify laundering

    func testStrippingTheStateRecordCannotLaunderReplayedRows() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "secret-a-1"))
        try test.keychain.add(password("svc", "b", "secret-b"))
        let old = try test.snapshot()
        try test.keychain.update(query("svc", "a"), with: ItemChanges(data: Data("secret-a-2".utf8)))
        try test.keychain.delete(query("svc", "b"))
        // Replay a's old row and resurrect b, from the old copy.
        try test.tamper { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [old.path])
            try db.execute(
                sql:
                    "DELETE FROM main.item_tags; DELETE FROM main.items; INSERT INTO main.items SELECT * FROM old.items; INSERT INTO main.item_tags SELECT * FROM old.item_tags"
            )
            try db.execute(sql: "DETACH DATABASE old")
        }
        XCTAssertNotNil(try test.openAnother().verify().stateProblem, "the state digest sees the replay")
        // Now make the file look like a format-1 keychain, so that an upgrade would record the
        // tampered rows as they are: the anchor beside the device key says it reached the current format.
        try test.downgradeToFormat1()
        XCTAssertKeychainError(.integrityViolation, try test.openAnother(), "a stripped file is not upgraded")
        XCTAssertEqual(
            try FormatAnchor.read(
                for: test.location, vaultID: test.keychain.vaultID, deviceKey: test.stolenDeviceKey())?.formatVersion,
            KeychainSchema.formatVersion)
    }

    /// Deleting the anchor of a format-4 keychain and putting an older header back: refused,
    /// since every format-4 keychain is created or upgraded together with its anchor.
    func testADeletedAnchorDoesNotLetAnOlderHeaderBack() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "secret-a", .whenUnlocked))
        let old = try test.snapshot()
        try test.keychain.setPassphrase("p")
        try test.restoreHeaderAndKeybag(from: old)
        try FileManager.default.removeItem(at: test.anchorURL)
        XCTAssertKeychainError(.integrityViolation, revealing: ["secret-a"], try test.openAnother())
        XCTAssertFalse(FileManager.default.fileExists(atPath: test.anchorURL.path), "no anchor is made up for it")
    }

    func testAForgedAnchorIsRefused() throws {
        let test = try TestKeychain()
        var bytes = try Data(contentsOf: test.anchorURL)
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: test.anchorURL)
        XCTAssertKeychainError(.integrityViolation, try test.openAnother())
    }

    /// Something other than a small regular file where the anchor or a ticket belongs: refused
    /// at once (a FIFO would block a reader forever, a sparse 1 GB file would be read into memory).
    func testPipesAndHugeFilesInPlaceOfTheAnchorOrATicketDoNotHang() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("p")
        let anchor = test.anchorURL
        try FileManager.default.removeItem(at: anchor)
        XCTAssertEqual(mkfifo(anchor.path, 0o600), 0)
        let start = ContinuousClock.now
        XCTAssertKeychainError(.keychainUnavailable, try test.openAnother(), "a FIFO as the anchor")
        try FileManager.default.removeItem(at: anchor)
        XCTAssertTrue(
            FileManager.default.createFile(atPath: anchor.path, contents: nil, attributes: [.posixPermissions: 0o600]))
        let handle = try FileHandle(forWritingTo: anchor)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        XCTAssertKeychainError(.keychainUnavailable, try test.openAnother(), "a 1 GB anchor")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))

        let other = try TestKeychain()
        try other.keychain.setPassphrase("p")
        let ticket = try XCTUnwrap(other.keychain.unlockTicketURL)
        try FileManager.default.createDirectory(
            at: ticket.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(mkfifo(ticket.path, 0o600), 0)
        XCTAssertEqual(
            try other.openAnother().lockState, .beforeFirstUnlock, "a FIFO as the ticket is ignored, not waited on")
    }

    /// An edited keybag row is tampering, not "another device key": the anchor proves the key.
    func testAnEditedKeybagIsReportedAsTampering() throws {
        let test = try TestKeychain()
        try test.tamper { db in try db.execute(sql: "UPDATE keybag SET wrapped_key = x'00' WHERE slot = 'index'") }
        XCTAssertKeychainError(.integrityViolation, try test.openAnother())
    }

    // MARK: Finding 4: hostile KDF parameters

    func testHostileKDFParametersAreRefusedBeforeScryptRuns() throws {
        let hostile: [(logN: Int, r: Int, p: Int)] = [
            (10, 1 << 57, 1), (17, 8, 100_000), (22, 8, 1), (62, 8, 1), (17, 0, 1), (20, 16, 1)
        ]
        for parameters in hostile {
            let test = try TestKeychain()
            try test.keychain.setPassphrase("p")
            for forging in [false, true] {
                try test.tamper { db in
                    try db.execute(
                        sql: "UPDATE vault_header SET scrypt_log_n = ?, scrypt_block_size = ?, scrypt_parallelism = ?",
                        arguments: [parameters.logN, parameters.r, parameters.p])
                    if forging { try test.forgeHeaderMAC(db) }
                }
                if forging { try test.forgeAnchor() }
                let start = ContinuousClock.now
                XCTAssertKeychainError(
                    .integrityViolation, try test.openAnother().unlock(passphrase: "p"),
                    "\(parameters), MAC forged: \(forging)")
                XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "refused before scrypt ran")
            }
        }
    }

    func testKDFBoundsCoverPINFilesAndBackups() throws {
        XCTAssertTrue(
            ScryptParameters(logN: 17, blockSize: 8, parallelism: 64).isWithinBounds, "the most calibration picks")
        XCTAssertTrue(
            ScryptParameters(logN: 20, blockSize: 8, parallelism: 16).isWithinBounds,
            "the costliest backup earlier versions wrote")
        for outside in [
            ScryptParameters(logN: 21), ScryptParameters(logN: 17, blockSize: 8, parallelism: 65),
            ScryptParameters(logN: 20, blockSize: 16, parallelism: 1), ScryptParameters(logN: 9)
        ] {
            XCTAssertFalse(outside.isWithinBounds, "\(outside)")
            XCTAssertFalse(BackupFormat.acceptsKDF(outside), "\(outside) in a backup")
        }
        var record = try PINVerifierRecord.new(pin: "1234", parameters: .insecureForTestingOnly).0.encoded
        record[5] = 22  // log N
        XCTAssertKeychainError(.integrityViolation, try PINVerifierRecord(encoded: record, path: "pin"))
        record[5] = 17
        record[7] = 200  // p
        XCTAssertKeychainError(.integrityViolation, try PINVerifierRecord(encoded: record, path: "pin"))
    }

    // MARK: Finding 5: look-alike schemas

    func testLookAlikeSchemasAreRefusedAtOpen() throws {
        let plants = [
            "CREATE TABLE stash (wrapped BLOB); CREATE TRIGGER stash_keybag AFTER UPDATE ON keybag BEGIN INSERT INTO stash VALUES (old.wrapped_key); END",
            "CREATE TRIGGER hang AFTER INSERT ON items BEGIN INSERT INTO item_tags VALUES (randomblob(16), new.id); INSERT INTO items SELECT * FROM items LIMIT 1; END",
            "CREATE VIEW everything AS SELECT * FROM items",
            "CREATE INDEX items_by_secret ON items (secret)",
            "CREATE TABLE extra (x)"
        ]
        for plant in plants {
            let test = try TestKeychain()
            try test.keychain.add(password("svc", "a"))
            try test.tamper { db in try db.execute(sql: plant) }
            XCTAssertKeychainError(.integrityViolation, try test.openAnother(), plant)
        }
        let test = try TestKeychain()
        try test.tamper { db in try db.execute(sql: "DROP INDEX items_by_account") }
        XCTAssertKeychainError(.integrityViolation, try test.openAnother(), "a missing index")
    }

    func testATriggerPlantedWhileOpenNeverRuns() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a"))
        try test.tamper { db in
            try db.execute(
                sql:
                    "CREATE TABLE stash (wrapped BLOB); CREATE TRIGGER stash_keybag AFTER UPDATE ON keybag BEGIN INSERT INTO stash VALUES (old.wrapped_key); END; CREATE TRIGGER stash_items AFTER INSERT ON items BEGIN INSERT INTO stash VALUES (new.secret); END"
            )
        }
        XCTAssertKeychainError(.integrityViolation, try test.keychain.add(password("svc", "b")))
        XCTAssertKeychainError(.integrityViolation, try test.keychain.setPassphrase("p"))
        let report = try test.keychain.verify()
        XCTAssertTrue(
            report.databaseProblems.contains { $0.contains("unexpected trigger stash_keybag") },
            "\(report.databaseProblems)")
        try test.tamper { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stash"), 0, "the triggers never ran")
        }
    }
}
