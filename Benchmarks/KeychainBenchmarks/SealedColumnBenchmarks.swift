#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import GRDB
import KeychainCore
import KeychainServices
import SecureStorage
import SecureStorageGRDB

/// Sealed GRDB columns against plain GRDB and GRDB on SQLCipher, on the same rows in the same run:
/// N inserts of 1 KiB bodies in one transaction, reading all rows, reading one by primary key, and
/// an exact-match lookup through a blind index against a plain indexed column. SQLCipher runs in a
/// child process of this one (SealedColumnBenchmarks+SQLCipher.swift); the table printed first puts
/// the three side by side with their ratios.
///
///     swift build --package-path Benchmarks -c release --product SQLCipherShim
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

    /// The operations measured, each for plain GRDB, sealed columns and SQLCipher (in this order).
    static let operations = ["insert 1 KiB row", "fetch all rows", "fetch one by primary key", "lookup by email"]

    /// The 1 KiB body of every row.
    static let body = String(String(repeating: "lorem ipsum dolor sit amet ", count: 38).prefix(1024))
    static func email(_ id: Int64) -> String { "user\(id)@example.org" }
    /// How many times all rows are fetched, and how many point reads and lookups are made.
    static let fetchAllRounds = 10
    static func pointReads(_ items: Int) -> Int { min(items, 1000) }

    static let plainSchema = """
        CREATE TABLE plain_note (id INTEGER PRIMARY KEY, email TEXT NOT NULL, body TEXT NOT NULL);
        CREATE INDEX plain_email ON plain_note(email);
        """

    static func run(items: Int, in directory: URL) throws -> [Measurement] {
        if let resultsPath = ProcessInfo.processInfo.environment[SQLCipherPeer.childVariable] {
            try SQLCipherPeer.runChild(items: items, in: directory, resultsPath: resultsPath)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // KEYCHAIN_BENCH_SKIP_SQLCIPHER=1 for a profile under valgrind, which cannot start the child.
        let cipher =
            ProcessInfo.processInfo.environment["KEYCHAIN_BENCH_SKIP_SQLCIPHER"] == nil
            ? try SQLCipherPeer.measure(items: items, in: directory)
            : operations.map { Measurement("\($0), GRDB + SQLCipher (skipped)") }
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("sealed-bench.sqlite").path)
        try queue.write { db in
            try db.execute(
                sql: plainSchema + """
                    CREATE TABLE sealed_note (id INTEGER PRIMARY KEY, email BLOB NOT NULL, email_index BLOB NOT NULL, body BLOB NOT NULL);
                    CREATE INDEX sealed_email ON sealed_note(email_index);
                    """)
        }
        let sealer = try DatabaseSealer(key: SymmetricKey(size: .bits256))

        var plainInsert = Measurement("insert 1 KiB row, plain GRDB")
        var sealedInsert = Measurement("insert 1 KiB row, sealed body + indexed email")
        try queue.write { db in
            for id in 1...Int64(items) {
                try plainInsert.time { try PlainNote(id: id, email: email(id), body: body).insert(db) }
                var note = SealedNote(id: id, email: email(id), body: body)
                try sealedInsert.time { try sealer.insert(&note, db) }
            }
        }

        var plainAll = Measurement("fetch all \(items) rows, plain GRDB")
        var sealedAll = Measurement("fetch all \(items) rows, sealed (open each)")
        for _ in 0..<fetchAllRounds {
            _ = try plainAll.time { try queue.read { db in try PlainNote.fetchAll(db) } }
            _ = try sealedAll.time { try queue.read { db in try sealer.fetchAll(db, SealedNote.all()) } }
        }

        var plainOne = Measurement("fetch one by primary key, plain GRDB")
        var sealedOne = Measurement("fetch one by primary key, sealed")
        var plainLookup = Measurement("lookup by email, plain indexed column")
        var sealedLookup = Measurement("lookup by email, blind index")
        try queue.read { db in
            for sample in 0..<pointReads(items) {
                let id = Int64(sample % items + 1)
                _ = try plainOne.time { try PlainNote.fetchOne(db, key: id) }
                _ = try sealedOne.time { try sealer.fetchOne(db, SealedNote.filter(key: id)) }
                _ = try plainLookup.time { try PlainNote.filter(Column("email") == email(id)).fetchAll(db) }
                _ = try sealedLookup.time {
                    try sealer.fetchAll(db, try sealer.filter(SealedNote.self, "email", equals: email(id)))
                }
            }
        }
        let plain = [plainInsert, plainAll, plainOne, plainLookup]
        let sealed = [sealedInsert, sealedAll, sealedOne, sealedLookup]
        if !CommandLine.arguments.contains("--json") { printComparison(items: items, plain, sealed, cipher) }
        return zip(plain, zip(sealed, cipher)).flatMap { [$0, $1.0, $1.1] }
    }

    /// The three side by side: medians in µs and the ratios.
    static func printComparison(items: Int, _ plain: [Measurement], _ sealed: [Measurement], _ cipher: [Measurement]) {
        print("Sealed columns, plain GRDB and GRDB + SQLCipher, \(items) rows (p50 µs; ratios of p50)")
        print(
            "| operation | plain GRDB | sealed | GRDB + SQLCipher | sealed / plain | SQLCipher / plain | sealed / SQLCipher |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        for (index, operation) in operations.enumerated() {
            let (p, s, c) = (plain[index].median, sealed[index].median, cipher[index].median)
            print(
                "| \(operation) | "
                    + [p, s, c].map { String(format: "%.1f", $0) }.joined(separator: " | ") + " | "
                    + [s / p, c / p, s / c].map { String(format: "%.2f×", $0) }.joined(separator: " | ") + " |")
        }
        print("")
    }
}
#endif
