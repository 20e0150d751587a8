#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import AuthenticationTestSupport
import Crypto
import Foundation
import GRDB
import KeychainServices
import SecureStorage
import SecureStorageGRDB
import XCTest

/// A sealed column declared in another case than the record's property.
private struct MiscasedNote: Codable, SealedRecord {
    static var databaseTableName: String { "miscased" }
    static var sealedColumns: [SealedColumn] { [.sealed("Body")] }
    var id: Int64?
    var body: String
}

/// An integer primary key in a TEXT column.
private struct Tagged: Codable, SealedRecord {
    static var sealedColumns: [SealedColumn] { [.sealed("secret")] }
    var id: Int64
    var secret: String
}

/// Attacks on sealed columns by someone who can write the database file (schema changes,
/// planted triggers, copied indexes) and misuse that must fail rather than store plaintext.
final class SealedColumnAttackTests: SealedDatabaseTestCase {
    private var sealer: DatabaseSealer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        sealer = try DatabaseSealer.load(from: storage, key: "db-key")
        try database.write { db in
            try sealer.prepare(db)
            for (title, body) in [("one", "first secret"), ("two", "second secret")] {
                var note = Note(id: nil, title: title, body: body)
                try sealer.insert(&note, db)
            }
            for (id, email) in [("ann", "ann@example.org"), ("bob", "bob@example.org")] {
                var contact = Contact(id: id, email: email, age: 41, score: 1.5, avatar: Data([1, 2]))
                try sealer.insert(&contact, db)
            }
        }
    }

    /// Issue 34 §5: SQLite itself refuses an unsealed value in a sealed column once the sealer
    /// wrote the table (or `prepare(_:records:)` named it), however it is written: raw SQL,
    /// GRDB's batch update, a NULL, a blob that is not a sealed cell.
    func testRawWritesOfUnsealedValuesIntoSealedColumnsAreRefused() throws {
        for sql in [
            "UPDATE note SET body = 'plain text'", "UPDATE note SET body = NULL", "UPDATE note SET body = x'0102'",
            "INSERT INTO note (title, body) VALUES ('x', 'plain')", "UPDATE contact SET score = 1.5"
        ] {
            XCTAssertThrowsError(try database.write { db in try db.execute(sql: sql) }, sql) { error in
                XCTAssertTrue((error as? DatabaseError)?.message?.contains("unsealedWrite") == true, "\(sql): \(error)")
            }
        }
        XCTAssertNoThrow(
            try database.write { db in
                try db.execute(sql: "UPDATE note SET body = (SELECT body FROM note WHERE id = 1) WHERE id = 1")
            },
            "a sealed cell passes (its row binding is the sealer's to check)")
        let fresh = try DatabaseQueue(path: directory.appendingPathComponent("fresh.sqlite").path)
        try fresh.write { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body BLOB NOT NULL)")
            try sealer.prepare(db, records: [Note.self])
        }
        XCTAssertThrowsError(
            try fresh.write { db in try db.execute(sql: "INSERT INTO note (title, body) VALUES ('x', 'plain')") })
    }

    /// A trigger planted in the file cannot call the sealer's SQL functions.
    func testAPlantedTriggerCannotUseTheSQLFunctions() throws {
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE loot (v);
                    CREATE TRIGGER leak AFTER UPDATE ON note BEGIN
                        INSERT INTO loot SELECT secure_storage_open('note', 'body', id, body) FROM note;
                    END;
                    """)
        }
        let appSealer = sealer!
        var configuration = Configuration()
        configuration.prepareDatabase { db in try appSealer.install(in: db) }
        database = nil
        database = try DatabaseQueue(path: databasePath, configuration: configuration)
        var first = try XCTUnwrap(try database.read { db in try appSealer.fetchOne(db, Note.filter(key: 1)) })
        first.title = "renamed"
        XCTAssertThrowsError(
            try database.write { db in try appSealer.update(first, db) }, "the trigger fails, and the update with it")
        XCTAssertEqual(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM loot") }, 0)
        XCTAssertEqual(
            try database.read { db in
                try String.fetchOne(
                    db, sql: "SELECT secure_storage_open('note', 'body', id, body) FROM note WHERE id = 1")
            },
            "first secret", "the app's own SQL still can")
    }

    /// A sealed column renamed in another case, with plaintext put in it, is not taken as
    /// "not selected": it fails to open.
    func testAColumnRenamedInAnotherCaseStillOpensOrFails() throws {
        try database.write { db in try db.execute(sql: "ALTER TABLE note RENAME COLUMN body TO BODY") }
        XCTAssertEqual(
            try database.read { db in try sealer.fetchAll(db, Note.order(Column("id"))) }.map(\.body),
            ["first secret", "second secret"], "column names match without case, as in SQLite")
        try dropWriteGuards()
        try database.write { db in try db.execute(sql: "UPDATE note SET BODY = 'forged by attacker' WHERE id = 1") }
        XCTAssertSealedError(.tamperedValue, try database.read { db in try sealer.fetchAll(db, Note.all()) })
    }

    /// `sealedColumns` naming the property in another case seals it all the same: never plaintext.
    func testASealedColumnNamedInAnotherCaseIsSealed() throws {
        try database.write { db in try db.execute(sql: "CREATE TABLE miscased (id INTEGER PRIMARY KEY, body BLOB)") }
        try database.write { db in
            for index in 0..<8 {
                var record = MiscasedNote(id: nil, body: "plaintext-\(index)")
                try sealer.insert(&record, db)
            }
        }
        XCTAssertEqual(
            try database.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT typeof(body) FROM miscased") },
            ["blob"])
        XCTAssertEqual(
            try database.read { db in try sealer.fetchAll(db, MiscasedNote.order(Column("id"))) }.map(\.body).first,
            "plaintext-0")
    }

    /// A blind index copied from another row does not redirect a lookup.
    func testACopiedBlindIndexIsCaught() throws {
        try database.write { db in
            try db.execute(
                sql:
                    "UPDATE contact SET emailIndex = (SELECT emailIndex FROM contact WHERE id = 'ann') WHERE id = 'bob'"
            )
        }
        XCTAssertSealedError(
            .tamperedValue,
            try database.read { db in
                try sealer.fetchAll(db, try sealer.filter(Contact.self, "email", equals: "ann@example.org"))
            })
    }

    /// A sealed cell set to NULL is a change like any other.
    func testASealedCellSetToNullIsCaught() throws {
        try dropWriteGuards()
        try database.write { db in try db.execute(sql: "UPDATE contact SET score = NULL WHERE id = 'ann'") }
        XCTAssertSealedError(
            .tamperedValue, try database.read { db in try sealer.fetchAll(db, Contact.filter(key: "ann")) })
    }

    /// A row that opens but does not decode gives an error without its opened values.
    func testADecodingErrorShowsNoOpenedValue() throws {
        try database.write { db in try db.execute(sql: "UPDATE note SET title = x'ff' WHERE id = 1") }
        XCTAssertThrowsError(try database.read { db in try sealer.fetchAll(db, Note.all()) }) { error in
            XCTAssertEqual((error as? SealedDatabaseError)?.code, .undecodableRecord)
            XCTAssertFalse("\(error)".contains("first secret"))
        }
    }

    /// An integer key in a TEXT column is refused at the insert, not found unreadable later.
    func testAPrimaryKeyOfAnotherTypeThanItsColumnIsRefused() throws {
        try database.write { db in
            try db.execute(sql: "CREATE TABLE tagged (id TEXT PRIMARY KEY NOT NULL, secret BLOB NOT NULL)")
        }
        var tagged = Tagged(id: 7, secret: "would never open")
        XCTAssertSealedError(.primaryKeyType, try database.write { db in try sealer.insert(&tagged, db) })
        XCTAssertEqual(
            try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tagged") }, 0,
            "the write was rolled back")
    }

    /// Issue 34 §1: a key planted under the sealer's name through the public API (an imported
    /// backup, `keychain add-generic-password`) is never the sealer's: the sealer makes and keeps
    /// its own, which still needs the user when asked to.
    func testAKeyPlantedUnderTheSealersNameIsNeverUsed() throws {
        let authenticator = ScriptedAuthenticator()
        SecItemEnvironment.authenticator = authenticator
        try authenticator.enroll(in: keychain)
        let attackerKey = SymmetricKey(size: .bits256)
        try storage.insert(
            StoredValue(data: attackerKey.withUnsafeBytes { Data($0) }, kind: .data), for: "database.key",
            sensitivity: .private)
        let attackerSealer = try DatabaseSealer(key: attackerKey)
        let created = try storage.databaseSealer(requireUserPresence: true)
        XCTAssertNotEqual(created.keyID, attackerSealer.keyID, "the sealer took the planted key")
        let asked = authenticator.prompts
        let loaded = try storage.databaseSealer(requireUserPresence: true)
        XCTAssertEqual(loaded.keyID, created.keyID)
        XCTAssertGreaterThan(authenticator.prompts, asked, "loading the sealer's key no longer asks the user")
        let notes = try DatabaseQueue(path: directory.appendingPathComponent("notes.sqlite").path)
        var note = Note(id: nil, title: "t", body: "secret body")
        try notes.write { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body BLOB NOT NULL)")
            try loaded.prepare(db)
            try loaded.insert(&note, db)
        }
        let stored = try notes.read { db in try DatabaseValue.fetchOne(db, sql: "SELECT body FROM note") }
        XCTAssertThrowsError(
            try attackerSealer.open(
                XCTUnwrap(stored), table: "note", column: "body", identity: [XCTUnwrap(note.id).databaseValue]))
        XCTAssertEqual(
            try storage.data(for: "database.key"), attackerKey.withUnsafeBytes { Data($0) },
            "the planted item is left as an app item")
    }

    /// Issue 34 §5: GRDB's own persistence methods on a sealed record would store plaintext;
    /// every one of them fails loudly and writes nothing.
    func testGRDBsOwnWritesOfASealedRecordAreRefused() throws {
        let before = try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") }
        var note = Note(id: nil, title: "t", body: "plaintext body")
        XCTAssertSealedError(.unsealedWrite, try database.write { db in try note.insert(db) })
        XCTAssertSealedError(.unsealedWrite, try database.write { db in try note.save(db) })
        XCTAssertSealedError(.unsealedWrite, try database.write { db in try note.upsert(db) })
        XCTAssertSealedError(.unsealedWrite, try database.write { db in _ = try note.inserted(db) })
        XCTAssertEqual(
            try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") }, before,
            "a refused write wrote something")
        try database.write { db in try sealer.insert(&note, db) }
        note.body = "changed plaintext"
        XCTAssertSealedError(.unsealedWrite, try database.write { db in try note.update(db) })
        XCTAssertSealedError(.unsealedWrite, try database.write { db in try note.save(db) })
        let bodies = try database.read { db in try DatabaseValue.fetchAll(db, sql: "SELECT body FROM note") }
        XCTAssertEqual(bodies.count, (before ?? 0) + 1)
        for body in bodies {
            let bytes = try XCTUnwrap(Data.fromDatabaseValue(body))
            XCTAssertNil(bytes.range(of: Data("plaintext".utf8)), "plaintext reached the table")
        }
        try database.write { db in try sealer.update(note, db) }
        XCTAssertEqual(
            try database.read { db in try sealer.fetchOne(db, Note.filter(Column("id") == note.id)) }?.body,
            "changed plaintext")
    }

    /// First loads racing on a key that needs the user end with one key, which all use.
    func testRacingFirstLoadsOfAPresenceKeyShareOneKey() throws {
        let authenticator = ScriptedAuthenticator()
        SecItemEnvironment.authenticator = authenticator
        try authenticator.enroll(in: keychain)
        let storage = self.storage!
        for round in 0..<10 {
            let name = "race-\(round)"
            let ids = KeyIDs()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                if let loaded = try? DatabaseSealer.load(from: storage, key: name, requireUserPresence: true) {
                    ids.add(loaded.keyID)
                }
            }
            let stored = try DatabaseSealer.load(from: storage, key: name, requireUserPresence: true).keyID
            XCTAssertEqual(ids.all.filter { $0 != stored }, [], "round \(round)")
            XCTAssertFalse(ids.all.isEmpty)
        }
    }
}

private final class KeyIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [Data] = []
    var all: [Data] {
        lock.lock()
        defer { lock.unlock() }
        return ids
    }
    func add(_ id: Data) {
        lock.lock()
        ids.append(id)
        lock.unlock()
    }
}
#endif
