#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import GRDB
import KeychainCore
import KeychainServices
import SecureStorage
import SecureStorageGRDB

/// Sealed GRDB columns against plain GRDB: N inserts of 1 KiB bodies in one transaction, reading
/// all rows, reading one by primary key, and an exact-match lookup through a blind index against
/// a plain indexed column.
///
///     swift run --package-path Benchmarks -c release KeychainBenchmarks --only sealed [--items N]
enum SealedColumnBenchmarks {
    struct PlainNote: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "plain_note"
        var id: Int64
        var email: String
        var body: String
    }

    struct SealedNote: Codable, SealedRecord {
        static let databaseTableName = "sealed_note"
        static let sealedColumns: [SealedColumn] = [.sealed("email", blindIndex: "email_index"), .sealed("body")]
        var id: Int64
        var email: String
        var body: String
    }

    static func run(items: Int, in directory: URL) throws -> [Measurement] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("sealed-bench.sqlite").path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE plain_note (id INTEGER PRIMARY KEY, email TEXT NOT NULL, body TEXT NOT NULL);
                    CREATE INDEX plain_email ON plain_note(email);
                    CREATE TABLE sealed_note (id INTEGER PRIMARY KEY, email BLOB NOT NULL, email_index BLOB NOT NULL, body BLOB NOT NULL);
                    CREATE INDEX sealed_email ON sealed_note(email_index);
                    """)
        }
        let sealer = try DatabaseSealer(key: SymmetricKey(size: .bits256))
        let body = String(repeating: "lorem ipsum dolor sit amet ", count: 38).prefix(1024)
        var results: [Measurement] = []

        var plainInsert = Measurement("insert 1 KiB row, plain GRDB")
        var sealedInsert = Measurement("insert 1 KiB row, sealed body + indexed email")
        try queue.write { db in
            for id in 1...Int64(items) {
                try plainInsert.time {
                    try PlainNote(id: id, email: "user\(id)@example.org", body: String(body)).insert(db)
                }
                var note = SealedNote(id: id, email: "user\(id)@example.org", body: String(body))
                try sealedInsert.time { try sealer.insert(&note, db) }
            }
        }
        results += [plainInsert, sealedInsert]

        var plainAll = Measurement("fetch all \(items) rows, plain GRDB")
        var sealedAll = Measurement("fetch all \(items) rows, sealed (open each)")
        for _ in 0..<10 {
            _ = try plainAll.time { try queue.read { db in try PlainNote.fetchAll(db) } }
            _ = try sealedAll.time { try queue.read { db in try sealer.fetchAll(db, SealedNote.all()) } }
        }
        results += [plainAll, sealedAll]

        var plainOne = Measurement("fetch one by primary key, plain GRDB")
        var sealedOne = Measurement("fetch one by primary key, sealed")
        var plainLookup = Measurement("lookup by email, plain indexed column")
        var sealedLookup = Measurement("lookup by email, blind index")
        try queue.read { db in
            for sample in 0..<min(items, 1000) {
                let id = Int64(sample % items + 1)
                _ = try plainOne.time { try PlainNote.fetchOne(db, key: id) }
                _ = try sealedOne.time { try sealer.fetchOne(db, SealedNote.filter(key: id)) }
                _ = try plainLookup.time {
                    try PlainNote.filter(Column("email") == "user\(id)@example.org").fetchAll(db)
                }
                _ = try sealedLookup.time {
                    try sealer.fetchAll(
                        db, try sealer.filter(SealedNote.self, "email", equals: "user\(id)@example.org"))
                }
            }
        }
        results += [plainOne, sealedOne, plainLookup, sealedLookup]
        return results
    }
}
#endif
