#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import GRDB
import SecureStorage
import SecureStorageGRDB
import XCTest

/// Table `account_api`, sealed column `token`: guard name `secure_storage_sealed_account_api_token_insert`.
private struct AccountAPI: Codable, SealedRecord {
    static let databaseTableName = "account_api"
    static let sealedColumns: [SealedColumn] = [.sealed("token")]
    var id: Int64?
    var token: String
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Table `account`, sealed column `api_token`: the very same guard name as ``AccountAPI``'s.
private struct Account: Codable, SealedRecord {
    static let databaseTableName = "account"
    static let sealedColumns: [SealedColumn] = [.sealed("api_token")]
    var id: Int64?
    var api_token: String
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A sealed record kept in a TEMP table (a scratch copy of secrets for one connection).
private struct Scratch: Codable, SealedRecord {
    static let databaseTableName = "scratch"
    static let sealedColumns: [SealedColumn] = [.sealed("secret")]
    var id: Int64?
    var secret: String
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Review 34b of the fix in 575a3b4 ("unsealed values refused by SQLite triggers in sealed
/// columns"): the guard triggers are named `secure_storage_sealed_<table>_<column>_<event>` and
/// installed only when no trigger of that name exists yet (in `sqlite_master`, by name only).
final class Review34bGRDBAttackTests: SealedDatabaseTestCase {
    private var sealer: DatabaseSealer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        sealer = try DatabaseSealer(key: SymmetricKey(size: .bits256))
    }

    private func isGuardRefusal(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.message?.contains("unsealedWrite") == true
    }

    /// Two tables whose `<table>_<column>` concatenate alike share one guard name: the second
    /// table's sealed column is never guarded, and raw SQL / `updateAll` store plaintext in it.
    /// Reproduction: tables `account_api(token)` and `account(api_token)`,
    /// `prepare(db, records: [AccountAPI.self, Account.self])`, then
    /// `INSERT INTO account (api_token) VALUES ('plaintext')` succeeds.
    func testReview34bTriggerNameCollisionLeavesASealedColumnUnguarded() throws {
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE account_api (id INTEGER PRIMARY KEY, token BLOB NOT NULL);
                    CREATE TABLE account (id INTEGER PRIMARY KEY, api_token BLOB NOT NULL);
                    """)
            try sealer.prepare(db, records: [AccountAPI.self, Account.self])
            var first = AccountAPI(id: nil, token: "sealed one")
            try sealer.insert(&first, db)
            var second = Account(id: nil, api_token: "sealed two")
            try sealer.insert(&second, db)
        }
        XCTAssertThrowsError(
            try database.write { db in try db.execute(sql: "INSERT INTO account_api (token) VALUES ('plaintext A')") })
        var refused = false
        do {
            try database.write { db in
                try db.execute(sql: "INSERT INTO account (api_token) VALUES ('plaintext api token')")
                _ = try Account.updateAll(db, Column("api_token").set(to: "plaintext via updateAll"))
            }
        } catch {
            refused = isGuardRefusal(error)
        }
        let stored = try database.read { db in try DatabaseValue.fetchAll(db, sql: "SELECT api_token FROM account") }
        XCTAssertFalse(
            stored.contains { String.fromDatabaseValue($0)?.hasPrefix("plaintext") == true },
            "plaintext was stored in the sealed column account.api_token: its guard was never installed (name collision with account_api.token)"
        )
        XCTAssertTrue(refused, "an unsealed write into account.api_token was not refused")
    }

    /// The existence check looks for a trigger by name, not for one on this table: after
    /// `ALTER TABLE note RENAME TO note_archive` (an archive kept by a migration), the guards
    /// moved with the old table, and the new `note` table is never guarded although the sealer
    /// writes there.
    func testReview34bGuardsOfARenamedTableAreTakenForTheNewTables() throws {
        try database.write { db in
            try sealer.prepare(db, records: [Note.self])
            var note = Note(id: nil, title: "old", body: "old secret")
            try sealer.insert(&note, db)
            try db.execute(
                sql: """
                    ALTER TABLE note RENAME TO note_archive;
                    CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body BLOB NOT NULL);
                    """)
            try sealer.prepare(db, records: [Note.self])
            var fresh = Note(id: nil, title: "new", body: "new secret")
            try sealer.insert(&fresh, db)
        }
        var refused = false
        do {
            try database.write { db in _ = try Note.updateAll(db, Column("body").set(to: "plaintext after migration")) }
        } catch {
            refused = isGuardRefusal(error)
        }
        let stored = try database.read { db in try DatabaseValue.fetchAll(db, sql: "SELECT body FROM note") }
        XCTAssertFalse(
            stored.contains { String.fromDatabaseValue($0) == "plaintext after migration" },
            "Note.updateAll stored plaintext in the new note table: its guards were taken to exist (they are note_archive's)"
        )
        XCTAssertTrue(refused, "the new note table has no guard")
    }

    /// A legitimate use broken by the guard: the sealer writes a TEMP table. SQLite creates the
    /// guard in the temp schema (`sqlite_temp_master`), which the existence check does not read:
    /// the second insert tries to create it again and fails ("trigger … already exists").
    func testReview34bSecondSealedInsertIntoATempTableFails() throws {
        try database.write { db in
            try sealer.prepare(db)
            try db.execute(sql: "CREATE TEMP TABLE scratch (id INTEGER PRIMARY KEY, secret BLOB NOT NULL)")
            var first = Scratch(id: nil, secret: "one")
            try sealer.insert(&first, db)
            var second = Scratch(id: nil, secret: "two")
            XCTAssertNoThrow(try sealer.insert(&second, db), "the second sealed insert into a TEMP table fails")
        }
    }

    /// The cost the guard adds: a sealed insert or update into a guarded table looks the guards
    /// up once (it ran two `sqlite_master` lookups per sealed column at first).
    func testReview34bGuardLookupsRunOnEveryInsert() throws {
        final class Lines: @unchecked Sendable { var sql: [String] = [] }
        let lines = Lines()
        try database.write { db in
            try sealer.prepare(db, records: [Note.self, Contact.self])
            var first = Note(id: nil, title: "t", body: "b")
            try sealer.insert(&first, db)
            db.trace(options: .statement) { event in lines.sql.append(String(describing: event)) }
            var contact = Contact(id: "c", email: "c@example.org", age: 1, score: nil, avatar: nil)
            try sealer.insert(&contact, db)
            db.trace(options: [], nil)
        }
        // One look at the schema per sealed write (a table recreated by a migration is guarded
        // again at the next write), not one per column and statement kind.
        let lookups = lines.sql.filter { $0.contains("type = 'trigger'") }.count
        XCTAssertLessThanOrEqual(
            lookups, 1,
            "a sealed insert into an already guarded table ran \(lookups) trigger lookups (4 sealed columns x 2 events)"
        )
        XCTAssertFalse(
            lines.sql.contains { $0.contains("CREATE TRIGGER") || $0.contains("CREATE TEMP TRIGGER") },
            "guards created again")
    }
}
#endif
