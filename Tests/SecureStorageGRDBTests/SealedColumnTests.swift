#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import GRDB
import SecureStorage
import SecureStorageGRDB
import XCTest

/// Writing and reading sealed records; what the file shows.
final class SealedColumnTests: SealedDatabaseTestCase {
    func testNotesRoundTripWithAssignedRowIDsAndNoPlaintextInTheFile() throws {
        let sealer = try DatabaseSealer.load(from: storage, key: "notes.db-key")
        let marker = "BODY-MARKER-91c3"
        var notes = [
            Note(id: nil, title: "Groceries", body: "milk, eggs \(marker)"), Note(id: nil, title: "Ideas", body: ""),
            Note(id: 10, title: "Explicit", body: "ten")
        ]
        try database.write { db in
            try sealer.prepare(db)
            for index in notes.indices { try sealer.insert(&notes[index], db) }
        }
        XCTAssertEqual(notes.map(\.id), [1, 2, 10])
        let read = try database.read { db in try sealer.fetchAll(db, Note.order(Column("id"))) }
        XCTAssertEqual(read, notes)
        XCTAssertEqual(try database.read { db in try sealer.fetchOne(db, Note.filter(key: 10)) }, notes[2])

        var third = Note(id: nil, title: "Next", body: "after ten")
        try database.write { db in try sealer.insert(&third, db) }
        XCTAssertEqual(third.id, 11, "the next rowid after the largest")

        let cells = try database.read { db in try Data.fetchAll(db, sql: "SELECT body FROM note ORDER BY id") }
        XCTAssertEqual(cells[0].first, 1, "format byte")
        XCTAssertEqual(
            cells[0].count, 1 + 12 + 1 + "milk, eggs \(marker)".utf8.count + 16, "format, nonce, type, text, tag")
        _ = try database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        XCTAssertNil(try databaseBytes().range(of: Data(marker.utf8)), "the body never reaches the file")
        XCTAssertNotNil(
            try databaseBytes().range(of: Data("Groceries".utf8)), "unsealed columns are plain (documented)")
    }

    func testEveryValueTypeAndNullAndUpdatesReseal() throws {
        let sealer = try DatabaseSealer.load(from: storage, key: "contacts.db-key")
        let contacts = [
            Contact(id: "c1", email: "Ann@Example.org", age: 41, score: 3.25, avatar: Data([0, 1, 2, 255])),
            Contact(id: "c2", email: "bob@example.org", age: -7, score: nil, avatar: nil),
            Contact(id: "c3", email: "ann@example.org ", age: Int.max, score: -0.0, avatar: Data())
        ]
        try database.write { db in
            for contact in contacts {
                var contact = contact
                try sealer.insert(&contact, db)
            }
        }
        XCTAssertEqual(try database.read { db in try sealer.fetchAll(db, Contact.order(Column("id"))) }, contacts)
        XCTAssertEqual(
            try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM contact WHERE score IS NULL") },
            0,
            "NULL is sealed too: which values are NULL does not show")

        let before = try database.read { db in try Data.fetchOne(db, sql: "SELECT age FROM contact WHERE id = 'c1'") }
        var changed = contacts[0]
        changed.age = 42
        try database.write { db in try sealer.update(changed, db) }
        let after = try database.read { db in try Data.fetchOne(db, sql: "SELECT age FROM contact WHERE id = 'c1'") }
        XCTAssertNotEqual(before, after)
        XCTAssertEqual(try database.read { db in try sealer.fetchOne(db, Contact.filter(key: "c1")) }, changed)

        // Same value written again: a new nonce, a different cell.
        try database.write { db in try sealer.update(changed, db) }
        XCTAssertNotEqual(
            after, try database.read { db in try Data.fetchOne(db, sql: "SELECT age FROM contact WHERE id = 'c1'") })
    }

    func testBlindIndexFindsExactMatchesOnly() throws {
        let sealer = try DatabaseSealer.load(from: storage, key: "contacts.db-key")
        try database.write { db in
            for (id, email) in [("a", "Ann@Example.org"), ("b", "ann@example.org"), ("c", "anne@example.org")] {
                var contact = Contact(id: id, email: email, age: 1, score: nil, avatar: nil)
                try sealer.insert(&contact, db)
            }
        }
        let found = try database.read { db in
            try sealer.fetchAll(db, try sealer.filter(Contact.self, "email", equals: " ANN@example.org"))
        }
        XCTAssertEqual(found.map(\.id).sorted(), ["a", "b"], "case-insensitive normalization")
        XCTAssertEqual(
            try database.read { db in
                try sealer.fetchAll(db, try sealer.filter(Contact.self, "email", equals: "nobody@x"))
            }, [])
        XCTAssertSealedError(.missingValue, try sealer.filter(Contact.self, "age", equals: 1), "no blind index on age")
        let index = try database.read { db in
            try Data.fetchOne(db, sql: "SELECT emailIndex FROM contact WHERE id = 'a'")
        }
        XCTAssertEqual(index?.count, 16)
        // Another key gives other indexes: an index means nothing without the key.
        let other = try DatabaseSealer(key: SymmetricKey(size: .bits256))
        XCTAssertNotEqual(
            other.blindIndex(
                "ann@example.org".databaseValue, table: "contact", column: "email", normalization: .caseInsensitive),
            index?.databaseValue)
    }

    func testTheKeyLivesInTheKeychainAndAWrongKeyIsAClearError() throws {
        let first = try DatabaseSealer.load(from: storage, key: "notes.db-key")
        let again = try DatabaseSealer.load(from: storage, key: "notes.db-key")
        XCTAssertEqual(first.keyID, again.keyID, "the second load reads the stored key")
        XCTAssertEqual(
            try storage.libraryOwned(by: .databaseSealer).protection(of: "notes.db-key"), .whenUnlockedThisDeviceOnly)
        XCTAssertTrue(try DatabaseSealer.keyExists(in: storage, key: "notes.db-key"))
        XCTAssertFalse(try storage.contains("notes.db-key"), "the key is not one of the storage's values")
        var note = Note(id: nil, title: "t", body: "b")
        try database.write { db in
            try first.prepare(db)
            try first.insert(&note, db)
        }
        let stranger = try DatabaseSealer(key: SymmetricKey(size: .bits256))
        XCTAssertSealedError(.wrongKey, try database.write { db in try stranger.prepare(db) })
        XCTAssertSealedError(.tamperedValue, try database.read { db in try stranger.fetchAll(db, Note.all()) })
        try storage.libraryOwned(by: .databaseSealer).set(Data(count: 16), for: "broken.db-key")
        XCTAssertThrowsError(try DatabaseSealer.load(from: storage, key: "broken.db-key")) { error in
            XCTAssertEqual(error as? SecureStorageError, .integrityViolation)
        }
    }

    /// The facade's database tier: the storage keeps the key with its default sensitivity.
    func testTheStorageKeepsTheDatabaseKey() throws {
        let sealer = try storage.databaseSealer()
        XCTAssertEqual(
            try storage.libraryOwned(by: .databaseSealer).protection(of: "database.key"), .whenUnlockedThisDeviceOnly)
        XCTAssertEqual(try DatabaseSealer.load(from: storage, key: "database.key").keyID, sealer.keyID)
        let background = try SecureStorage(service: "com.acme.sync", defaultSensitivity: .private).databaseSealer()
        XCTAssertNotEqual(background.keyID, sealer.keyID)
        XCTAssertEqual(
            try SecureStorage(service: "com.acme.sync").libraryOwned(by: .databaseSealer).protection(
                of: "database.key"), .afterFirstUnlockThisDeviceOnly)
        XCTAssertTrue(try DatabaseSealer.removeKey(from: SecureStorage(service: "com.acme.sync")))
        XCTAssertFalse(try DatabaseSealer.keyExists(in: SecureStorage(service: "com.acme.sync")))
    }

    /// A table without a declared primary key is refused; an AUTOINCREMENT table is used, and
    /// its rowids are never reused, also after the newest row was deleted.
    func testTablesWithoutAStableIdentityAreRefusedAndAutoincrementNeverReuses() throws {
        struct Loose: Codable, SealedRecord {
            static var sealedColumns: [SealedColumn] { [.sealed("secret")] }
            var secret: String
        }
        struct Counted: Codable, SealedRecord {
            static var sealedColumns: [SealedColumn] { [.sealed("secret")] }
            var id: Int64?
            var secret: String
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        let sealer = try DatabaseSealer(key: SymmetricKey(size: .bits256))
        try database.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE loose (secret BLOB); CREATE TABLE counted (id INTEGER PRIMARY KEY AUTOINCREMENT, secret BLOB)"
            )
            var loose = Loose(secret: "s")
            XCTAssertSealedError(.unsupportedTable, try sealer.insert(&loose, db))
            var first = Counted(id: nil, secret: "one")
            var second = Counted(id: nil, secret: "two")
            try sealer.insert(&first, db)
            try sealer.insert(&second, db)
            try db.execute(sql: "DELETE FROM counted WHERE id = 2")
            var third = Counted(id: nil, secret: "three")
            try sealer.insert(&third, db)
            XCTAssertEqual([first.id, second.id, third.id], [1, 2, 3], "the deleted row's rowid is not given again")
            XCTAssertEqual(try sealer.fetchAll(db, Counted.order(Column("id"))).map(\.secret), ["one", "three"])
        }
        XCTAssertEqual(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM loose") }, 0)
        XCTAssertThrowsError(try DatabaseSealer(key: SymmetricKey(size: .bits128))) { error in
            XCTAssertEqual((error as? SealedDatabaseError)?.code, .invalidKey)
        }
    }
}

#endif
