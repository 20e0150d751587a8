#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import GRDB
import SecureStorage
import SecureStorageGRDB
import XCTest

/// A sealed record written as a subclass of GRDB's `Record` class (a common GRDB style): it
/// implements no `willSave` of its own, it inherits `Record`'s.
private final class RecordNote: Record, SealedRecord {
    static let sealedColumns: [SealedColumn] = [.sealed("body")]
    override class var databaseTableName: String { "note" }
    var id: Int64?
    var title: String
    var body: String

    init(title: String, body: String) {
        self.title = title
        self.body = body
        super.init()
    }

    required init(row: Row) throws {
        id = row["id"]
        title = row["title"]
        body = row["body"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["title"] = title
        container["body"] = body
    }

    override func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Review of issue 34 §5: "GRDB's own insert/save/update/upsert of a SealedRecord now throws
/// unsealedWrite". GRDB paths that still store a sealed column in plaintext.
final class Review34GRDBAttackTests: SealedDatabaseTestCase {
    private var sealer: DatabaseSealer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        sealer = try DatabaseSealer(key: SymmetricKey(size: .bits256))
        try database.write { db in
            try sealer.prepare(db)
            var note = Note(id: nil, title: "one", body: "first secret")
            try sealer.insert(&note, db)
        }
    }

    private func storedBodies() throws -> [Data] {
        try database.read { db in try DatabaseValue.fetchAll(db, sql: "SELECT body FROM note") }.compactMap {
            Data.fromDatabaseValue($0)
        }
    }

    /// GRDB's batch update on the record type (`Note.updateAll`, `Note.filter(...).updateAll`)
    /// never instantiates a record, so `willSave` never runs: the sealed column gets plaintext.
    /// Reproduction: `try Note.updateAll(db, Column("body").set(to: "plaintext secret"))`.
    func testUpdateAllOnASealedRecordTypeIsRefused() throws {
        var refused = false
        do {
            try database.write { db in _ = try Note.updateAll(db, Column("body").set(to: "plaintext secret")) }
        } catch let error as DatabaseError where error.message?.contains("unsealedWrite") == true {
            refused = true
        }
        for body in try storedBodies() {
            XCTAssertNil(
                body.range(of: Data("plaintext secret".utf8)), "Note.updateAll stored the sealed column in plaintext")
        }
        XCTAssertTrue(
            refused, "GRDB's updateAll on a SealedRecord type was not refused (SQLite's guard naming unsealedWrite)")
        try database.write { db in
            _ = try? Note.filter(Column("title") == "one").updateAll(db, Column("body").set(to: "filtered plaintext"))
        }
        for body in try storedBodies() {
            XCTAssertNil(
                body.range(of: Data("filtered plaintext".utf8)),
                "Note.filter(...).updateAll stored the sealed column in plaintext")
        }
    }

    /// A SealedRecord that subclasses GRDB's `Record`: `Record.willSave` (empty) is the witness,
    /// not SealedRecord's refusing default, so GRDB's own insert/save/update store plaintext.
    /// Reproduction: `final class N: Record, SealedRecord {…}; try N(title:, body:).insert(db)`.
    func testARecordSubclassSealedRecordRefusesGRDBsOwnWrites() throws {
        let note = RecordNote(title: "two", body: "record plaintext")
        var refused = false
        do {
            try database.write { db in try note.insert(db) }
        } catch let error as DatabaseError where error.message?.contains("unsealedWrite") == true {
            refused = true
        }
        for body in try storedBodies() {
            XCTAssertNil(
                body.range(of: Data("record plaintext".utf8)),
                "a Record-subclass SealedRecord's insert stored plaintext")
        }
        XCTAssertTrue(
            refused,
            "GRDB's insert of a Record-subclass SealedRecord was not refused (SQLite's guard naming unsealedWrite)")
    }
}
#endif
