#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import GRDB
import KeychainCore
import KeychainServices
import SecureStorage
import SecureStorageGRDB
import XCTest

/// Sealed-column errors say which key or column, what happened and the fix, with the keychain's
/// own message behind a key that cannot be read (issue 35), and never a value.
final class SealedColumnErrorMessageTests: SealedDatabaseTestCase {
    func testALockedKeychainNamesTheKeyTheKeychainAndTheFix() throws {
        _ = try DatabaseSealer.load(from: storage, key: "notes.db-key")
        try keychain.setPassphrase("pass phrase 41")
        try SecItemEnvironment.lock()
        XCTAssertThrowsError(try DatabaseSealer.load(from: storage, key: "notes.db-key")) { error in
            guard let error = error as? SecureStorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(error, .locked)
            for fragment in [
                "database sealing key 'notes.db-key'", "com.acme.notes", keychain.location.databaseURL.path,
                "SecureStorage.unlock(passphrase:)", "(.secret)"
            ] {
                XCTAssertTrue(error.description.contains(fragment), "lacks \(fragment): \(error)")
            }
            XCTAssertFalse(error.description.contains("pass phrase 41"))
        }
    }

    func testABrokenKeySaysWhatToDo() throws {
        try storage.libraryOwned(by: .databaseSealer).set(Data(count: 16), for: "broken.db-key")
        XCTAssertThrowsError(try DatabaseSealer.load(from: storage, key: "broken.db-key")) { error in
            XCTAssertEqual(error as? SecureStorageError, .integrityViolation)
            let text = "\(error)"
            XCTAssertTrue(
                text.contains("'broken.db-key'") && text.contains("not a 256-bit key")
                    && text.contains("restore the keychain from a backup"), text)
        }
    }

    func testATamperedCellNamesItsColumnAndTheFix() throws {
        let sealer = try DatabaseSealer.load(from: storage, key: "notes.db-key")
        var note = Note(id: nil, title: "t", body: "b0dy-secret")
        try database.write { db in
            try sealer.prepare(db)
            try sealer.insert(&note, db)
        }
        try dropWriteGuards()
        try database.write { db in
            var body = try XCTUnwrap(Data.fetchOne(db, sql: "SELECT body FROM note"))
            body[body.count - 1] ^= 1
            try db.execute(sql: "UPDATE note SET body = ?", arguments: [body])
        }
        XCTAssertThrowsError(try database.read { db in try sealer.fetchAll(db, Note.all()) }) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("note.body") && text.contains("restore the row from a backup"), text)
            XCTAssertFalse(text.contains("b0dy-secret"))
        }
    }
}
#endif
