#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// GRDB on SQLCipher, the peer of sealed columns: the same rows and operations as plain GRDB.
///
/// GRDB links the system's SQLite, and SQLCipher exports the same `sqlite3_*` functions, so the
/// peer runs in a child process of the benchmark (this executable again, with
/// `KEYCHAIN_BENCH_SQLCIPHER_RESULTS` set) with Debian's SQLCipher (`libsqlcipher0`) and the
/// shim of SQLCipherShim/sqlcipher_shim.c preloaded: there every connection is SQLCipher's. The
/// child refuses to measure unless `PRAGMA cipher_version` answers, keys the database with a raw
/// 256-bit key (no key derivation per open) and 4096-byte pages, and writes its samples to a file
/// the parent reads; the parent then checks that the database file does not start with SQLite's
/// plaintext header.
enum SQLCipherPeer {
    /// Set in the child: where it writes its samples.
    static let childVariable = "KEYCHAIN_BENCH_SQLCIPHER_RESULTS"
    static let databaseName = "sqlcipher-bench.sqlite"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the child and returns its measurements, in ``SealedColumnBenchmarks/operations`` order.
    static func measure(items: Int, in directory: URL) throws -> [Measurement] {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let shim = executable.deletingLastPathComponent().appendingPathComponent("libSQLCipherShim.so")
        guard FileManager.default.fileExists(atPath: shim.path) else {
            throw Failure(
                description:
                    "\(shim.path) is missing: build it with `swift build --package-path Benchmarks -c release --product SQLCipherShim`"
            )
        }
        let library = try sqlcipherPath()
        let results = directory.appendingPathComponent("sqlcipher-results.json")
        let child = Process()
        child.executableURL = executable
        child.arguments = ["--only", "sealed", "--items", String(items)]
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = shim.path + ":" + library
        environment[childVariable] = results.path
        environment["TMPDIR"] = directory.path
        child.environment = environment
        try child.run()
        child.waitUntilExit()
        guard child.terminationReason == .exit, child.terminationStatus == 0 else {
            throw Failure(description: "the SQLCipher child process failed (status \(child.terminationStatus))")
        }
        let header = try FileHandle(forReadingFrom: directory.appendingPathComponent(databaseName)).read(upToCount: 16)
        guard let header, header.count == 16, header != Data("SQLite format 3\u{0}".utf8) else {
            throw Failure(description: "the SQLCipher database is plaintext SQLite: SQLCipher did not encrypt it")
        }
        let samples = try JSONDecoder().decode([[Double]].self, from: Data(contentsOf: results))
        guard samples.count == SealedColumnBenchmarks.operations.count else {
            throw Failure(description: "the SQLCipher child reported \(samples.count) operations")
        }
        return zip(SealedColumnBenchmarks.operations, samples).map { operation, microseconds in
            Measurement(
                "\(operation), GRDB + SQLCipher",
                samples: microseconds.map { Duration.nanoseconds(Int64(($0 * 1000).rounded())) })
        }
    }

    /// The absolute path of Debian's SQLCipher library, as the dynamic loader finds it.
    static func sqlcipherPath() throws -> String {
        guard let handle = dlopen("libsqlcipher.so.0", RTLD_LAZY | RTLD_LOCAL) else {
            throw Failure(
                description: "SQLCipher is not installed: apt-get install libsqlcipher-dev (or libsqlcipher0)")
        }
        defer { dlclose(handle) }
        guard dlsym(handle, "sqlite3_key") != nil else {
            throw Failure(description: "libsqlcipher.so.0 has no sqlite3_key: it is not SQLCipher")
        }
        // Where the loader mapped it: the path to preload in the child.
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        guard
            let path = maps.split(separator: "\n").compactMap({ $0.split(separator: " ").last }).first(where: {
                $0.hasPrefix("/") && $0.contains("libsqlcipher.so")
            })
        else {
            // Under valgrind, /proc/self/maps is valgrind's: Debian's path then.
            let debian = "/usr/lib/x86_64-linux-gnu/libsqlcipher.so.0"
            guard FileManager.default.fileExists(atPath: debian) else {
                throw Failure(description: "libsqlcipher.so.0 loaded but not found in /proc/self/maps")
            }
            return debian
        }
        return String(path)
    }

    /// In the child: measures the four operations on SQLCipher, writes the samples and exits.
    static func runChild(items: Int, in directory: URL, resultsPath: String) throws -> Never {
        let parent = URL(fileURLWithPath: resultsPath).deletingLastPathComponent()
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA key = \"x'\(key)'\"")
            try db.execute(sql: "PRAGMA cipher_page_size = 4096")
            guard let version = try String.fetchOne(db, sql: "PRAGMA cipher_version"), !version.isEmpty else {
                throw Failure(description: "PRAGMA cipher_version did not answer: this is not SQLCipher")
            }
        }
        let queue = try DatabaseQueue(
            path: parent.appendingPathComponent(databaseName).path, configuration: configuration)
        try queue.write { db in try db.execute(sql: SealedColumnBenchmarks.plainSchema) }
        typealias Note = SealedColumnBenchmarks.PlainNote
        let body = SealedColumnBenchmarks.body
        var insert = Measurement("insert")
        try queue.write { db in
            for id in 1...Int64(items) {
                try insert.time { try Note(id: id, email: SealedColumnBenchmarks.email(id), body: body).insert(db) }
            }
        }
        var all = Measurement("fetch all")
        for _ in 0..<SealedColumnBenchmarks.fetchAllRounds {
            _ = try all.time { try queue.read { db in try Note.fetchAll(db) } }
        }
        var one = Measurement("fetch one")
        var lookup = Measurement("lookup")
        try queue.read { db in
            for sample in 0..<SealedColumnBenchmarks.pointReads(items) {
                let id = Int64(sample % items + 1)
                _ = try one.time { try Note.fetchOne(db, key: id) }
                _ = try lookup.time {
                    try Note.filter(Column("email") == SealedColumnBenchmarks.email(id)).fetchAll(db)
                }
            }
        }
        let samples = [insert, all, one, lookup].map { $0.samples.map(\.microseconds) }
        try JSONEncoder().encode(samples).write(to: URL(fileURLWithPath: resultsPath))
        exit(0)
    }
}
#endif
