#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import GRDB
import SecureStorage
import SecureStorageGRDB
import XCTest

/// An attacker with write access to the database file moves, copies and edits sealed cells
/// with raw SQL: every change gives `tamperedValue` and no plaintext.
final class SealedColumnTamperTests: SealedDatabaseTestCase {
    private var sealer: DatabaseSealer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        sealer = try DatabaseSealer.load(from: storage, key: "db-key")
        try database.write { db in
            try db.execute(
                sql: "CREATE TABLE archived_note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body BLOB NOT NULL)")
            for (title, body) in [("one", "first secret"), ("two", "second secret")] {
                var note = Note(id: nil, title: title, body: body)
                try sealer.insert(&note, db)
            }
            var contact = Contact(id: "c1", email: "ann@example.org", age: 41, score: 1.5, avatar: nil)
            try sealer.insert(&contact, db)
        }
        try dropWriteGuards()
    }

    func testCellsMovedBetweenRowsColumnsAndTablesDoNotOpen() throws {
        let cases = [
            (
                "UPDATE note SET body = (SELECT body FROM note WHERE id = 1) WHERE id = 2",
                "a body copied to another row"
            ),
            ("UPDATE note SET id = 3 WHERE id = 2", "a row given another primary key"),
            (
                "UPDATE note SET body = x'01' || substr(body, 2, 12) || substr(body, 14) WHERE id = 1",
                "a body rewritten whole"
            ),
            ("UPDATE note SET body = substr(body, 1, length(body) - 1) WHERE id = 1", "a body cut by one byte"),
            ("UPDATE note SET body = x'00' || substr(body, 2) WHERE id = 1", "the format byte changed"),
            ("UPDATE note SET body = 'plain text' WHERE id = 1", "a plaintext value put in a sealed column")
        ]
        for (sql, what) in cases {
            try database.inTransaction { db in
                try db.execute(sql: sql)
                XCTAssertSealedError(.tamperedValue, try sealer.fetchAll(db, Note.all()), what)
                return .rollback
            }
        }
        for (sql, what) in [
            ("UPDATE contact SET email = age", "a cell moved to another column of its row"),
            ("UPDATE contact SET score = age", "an integer cell moved into a double column")
        ] {
            try database.inTransaction { db in
                try db.execute(sql: sql)
                XCTAssertSealedError(.tamperedValue, try sealer.fetchAll(db, Contact.all()), what)
                return .rollback
            }
        }
        try database.write { db in
            try db.execute(sql: "INSERT INTO archived_note SELECT * FROM note")
            struct ArchivedNote: Codable, SealedRecord {
                static var databaseTableName: String { "archived_note" }
                static var sealedColumns: [SealedColumn] { [.sealed("body")] }
                var id: Int64?
                var title: String
                var body: String
            }
            XCTAssertSealedError(
                .tamperedValue, try sealer.fetchAll(db, ArchivedNote.all()), "rows copied to another table")
        }
        XCTAssertEqual(
            try database.read { db in try sealer.fetchAll(db, Note.order(Column("id"))) }.map(\.body),
            ["first secret", "second secret"])
    }

    /// A flipped bit anywhere in a cell.
    func testEveryByteOfACellIsAuthenticated() throws {
        let cell = try XCTUnwrap(
            try database.read { db in try Data.fetchOne(db, sql: "SELECT body FROM note WHERE id = 1") })
        for offset in 0..<cell.count {
            var changed = cell
            changed[offset] ^= 0x04
            try database.inTransaction { db in
                try db.execute(sql: "UPDATE note SET body = ? WHERE id = 1", arguments: [changed])
                XCTAssertSealedError(.tamperedValue, try sealer.fetchAll(db, Note.all()), "byte \(offset)")
                return .rollback
            }
        }
    }

    /// A value from a database sealed with another key (another install of the app).
    func testACellFromAnotherDatabaseDoesNotOpen() throws {
        let other = try DatabaseSealer(key: SymmetricKey(size: .bits256))
        let foreign = try other.seal(
            "injected".databaseValue, table: "note", column: "body", identity: [1.databaseValue])
        try database.write { db in try db.execute(sql: "UPDATE note SET body = ? WHERE id = 1", arguments: [foreign]) }
        XCTAssertSealedError(.tamperedValue, try database.read { db in try sealer.fetchAll(db, Note.all()) })
    }
}
#endif
