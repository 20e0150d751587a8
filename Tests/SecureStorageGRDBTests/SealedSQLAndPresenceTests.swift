#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import AuthenticationTestSupport
import Crypto
import Foundation
import GRDB
import KeychainServices
import SecureStorage
import SecureStorageGRDB
import XCTest

/// The SQL functions (sealing an existing plaintext column in a migration), and a database key
/// that needs the user.
final class SealedSQLAndPresenceTests: SealedDatabaseTestCase {
    func testAMigrationSealsAPlaintextColumnInPlace() throws {
        let sealer = try DatabaseSealer(key: SymmetricKey(size: .bits256))
        var configuration = Configuration()
        configuration.prepareDatabase { db in try sealer.install(in: db) }
        database = nil
        database = try DatabaseQueue(path: databasePath, configuration: configuration)
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO note (id, title, body) VALUES (1, 'a', 'plain one'), (2, 'b', 'plain two')")
            try db.execute(sql: "UPDATE note SET body = secure_storage_seal('note', 'body', id, body)")
        }
        XCTAssertEqual(
            try database.read { db in try sealer.fetchAll(db, Note.order(Column("id"))) }.map(\.body),
            ["plain one", "plain two"])
        XCTAssertEqual(
            try database.read { db in
                try String.fetchAll(
                    db, sql: "SELECT secure_storage_open('note', 'body', id, body) FROM note ORDER BY id")
            }, ["plain one", "plain two"])
        let sqlIndex = try database.read { db in
            try Data.fetchOne(db, sql: "SELECT secure_storage_blind_index('contact', 'email', 'ann')")
        }
        XCTAssertEqual(
            sqlIndex?.databaseValue, sealer.blindIndex("ann".databaseValue, table: "contact", column: "email"))
        // Opening in the wrong row is an SQL error, not a value.
        XCTAssertThrowsError(
            try database.read { db in
                try String.fetchAll(db, sql: "SELECT secure_storage_open('note', 'body', id + 1, body) FROM note")
            })
    }

    /// The key needs the user: loading the sealer prompts once, a cancel gives `.userCanceled`
    /// and no sealer, and the data stays sealed.
    func testAKeyThatNeedsTheUserPromptsOnceWhenLoaded() throws {
        let authenticator = ScriptedAuthenticator()
        SecItemEnvironment.authenticator = authenticator
        try authenticator.enroll(in: keychain)

        let created = try DatabaseSealer.load(from: storage, key: "notes.db-key", requireUserPresence: true)
        XCTAssertEqual(authenticator.prompts, 0, "creating the key never prompts")
        var note = Note(id: nil, title: "t", body: "needs the user")
        try database.write { db in try created.insert(&note, db) }

        authenticator.script([.canceled])
        XCTAssertThrowsError(try DatabaseSealer.load(from: storage, key: "notes.db-key", requireUserPresence: true)) {
            error in
            XCTAssertEqual(error as? SecureStorageError, .userCanceled)
        }
        let loaded = try DatabaseSealer.load(from: storage, key: "notes.db-key", requireUserPresence: true)
        XCTAssertEqual(authenticator.prompts, 2)
        XCTAssertEqual(try database.read { db in try loaded.fetchAll(db, Note.all()) }.map(\.body), ["needs the user"])
        XCTAssertEqual(authenticator.prompts, 2, "reading records does not prompt again")
    }
}
#endif
