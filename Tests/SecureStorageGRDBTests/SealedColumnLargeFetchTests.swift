#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import GRDB
import SecureStorage
@testable import SecureStorageGRDB
import XCTest

/// Fetches large enough to be opened on every core (SealedRowOpening), and the sealer's cache
/// of column keys: the rows, and the error a tampered fetch throws, are those of opening the rows
/// one by one; the cache lives and dies with its sealer.
final class SealedColumnLargeFetchTests: SealedDatabaseTestCase {
    private var sealer: DatabaseSealer!
    private let count = SealedRowOpening.parallelThreshold * 2 + 17

    private func contactID(_ number: Int) -> String { String(format: "c%05d", number) }

    override func setUpWithError() throws {
        try super.setUpWithError()
        sealer = try DatabaseSealer.load(from: storage, key: "db-key")
        try database.write { db in
            for number in 0..<count {
                var contact = Contact(
                    id: contactID(number), email: "user\(number)@example.org", age: number, score: Double(number) / 2,
                    avatar: number % 3 == 0 ? nil : Data([UInt8(number % 256)]))
                try sealer.insert(&contact, db)
            }
        }
    }

    func testALargeFetchOpensEveryRowInOrder() throws {
        let contacts = try database.read { db in try sealer.fetchAll(db, Contact.order(Column("id"))) }
        XCTAssertEqual(contacts.count, count)
        for (number, contact) in contacts.enumerated() {
            XCTAssertEqual(contact.id, contactID(number))
            XCTAssertEqual(contact.email, "user\(number)@example.org")
            XCTAssertEqual(contact.age, number)
            XCTAssertEqual(contact.avatar, number % 3 == 0 ? nil : Data([UInt8(number % 256)]))
        }
    }

    /// Two rows tampered in different ways, far apart: the fetch always names the first one's
    /// column, as a fetch opening row after row does.
    func testATamperedLargeFetchThrowsTheFirstFailingRowsErrorEveryTime() throws {
        try dropWriteGuards()
        let early = contactID(count / 4)
        let late = contactID(count * 3 / 4)
        try database.write { db in
            try db.execute(
                sql: "UPDATE contact SET emailIndex = (SELECT emailIndex FROM contact WHERE id = ?) WHERE id = ?",
                arguments: [contactID(1), early])
            try db.execute(
                sql: "UPDATE contact SET email = (SELECT email FROM contact WHERE id = ?) WHERE id = ?",
                arguments: [contactID(2), late])
        }
        for _ in 0..<5 {
            XCTAssertThrowsError(try database.read { db in try sealer.fetchAll(db, Contact.order(Column("id"))) }) {
                let error = $0 as? SealedDatabaseError
                XCTAssertEqual(error?.code, .tamperedValue)
                XCTAssertEqual(error?.column, "emailIndex", "the copied blind index of the earlier row")
            }
        }
        XCTAssertThrowsError(
            try database.read { db in try sealer.fetchAll(db, Contact.order(Column("id").desc)) }
        ) {
            XCTAssertEqual(
                ($0 as? SealedDatabaseError)?.column, "email", "in reverse order the moved e-mail comes first")
        }
    }

    /// A row that opens but does not decode, before a tampered one: the decoding error comes
    /// first, as it did when each row was decoded as soon as it was opened.
    func testAnUndecodableRowBeforeATamperedRowFailsFirst() throws {
        try dropWriteGuards()
        let early = contactID(10)
        try database.write { db in
            let text = try sealer.seal(
                "not a number".databaseValue, table: "contact", column: "age", identity: [early.databaseValue])
            try db.execute(sql: "UPDATE contact SET age = ? WHERE id = ?", arguments: [text, early])
            try db.execute(
                sql: "UPDATE contact SET age = x'01' || substr(age, 2) WHERE id = ?", arguments: [contactID(count - 3)])
        }
        XCTAssertSealedError(
            .undecodableRecord, try database.read { db in try sealer.fetchAll(db, Contact.order(Column("id"))) })
        XCTAssertSealedError(
            .tamperedValue, try database.read { db in try sealer.fetchAll(db, Contact.order(Column("id").desc)) })
    }

    /// Memory hygiene: the per-column keys (the blind index's HMAC key schedule and the sealing
    /// key) are cached in the sealer only, one entry per column used, and released with it
    /// (swift-crypto zeroes their hash states and key bytes on release).
    func testTheColumnKeyCacheIsReleasedWithItsSealer() throws {
        weak var cache: ColumnSealingCache?
        func useASealer() throws {
            let local = try DatabaseSealer.load(from: storage, key: "db-key")
            cache = local.columnSealings
            XCTAssertEqual(local.columnSealings.count, 0, "nothing is derived before use")
            let contacts = try database.read { db in try local.fetchAll(db, Contact.all()) }
            XCTAssertEqual(contacts.count, count)
            XCTAssertEqual(local.columnSealings.count, Contact.sealedColumns.count, "one entry per sealed column")
            _ = try database.read { db in try local.fetchAll(db, Contact.all()) }
            XCTAssertEqual(local.columnSealings.count, Contact.sealedColumns.count, "reused, not grown")
        }
        try useASealer()
        XCTAssertNil(cache, "the column keys outlive their sealer")
    }

    /// Column names match as Foundation's `caseInsensitiveCompare` says, also on the ASCII fast
    /// path: every pair of printable ASCII characters, and names beyond ASCII.
    func testColumnNamesMatchAsCaseInsensitiveCompareSays() {
        let ascii = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
        for first in ascii {
            for second in ascii {
                let (a, b) = ("col" + first, "COL" + second)
                XCTAssertEqual(SealedTable.sameName(a, b), a.caseInsensitiveCompare(b) == .orderedSame, "\(a) \(b)")
            }
        }
        for (a, b) in [("émail", "ÉMAIL"), ("straße", "STRASSE"), ("email", "emai"), ("ıd", "ID"), ("id", "id ")] {
            XCTAssertEqual(SealedTable.sameName(a, b), a.caseInsensitiveCompare(b) == .orderedSame, "\(a) \(b)")
        }
    }

    /// The rowid an insert reports is trusted for the stored key's type only when the insert
    /// wrote a row: a trigger that ignores the insert still fails as before.
    func testAnInsertATriggerIgnoresStillFails() throws {
        try database.write { db in
            var note = Note(id: 5, title: "t", body: "b")
            try sealer.insert(&note, db)
            try db.execute(sql: "DELETE FROM note WHERE id = 5")
            try db.execute(sql: "CREATE TRIGGER ignore_notes BEFORE INSERT ON note BEGIN SELECT RAISE(IGNORE); END")
            var again = Note(id: 5, title: "t", body: "b")
            XCTAssertSealedError(.primaryKeyType, try sealer.insert(&again, db))
        }
    }
}
#endif
