#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KeychainCore
import KeychainServices
import SecureStorage

/// Issue 8's scaling run for one size N: a keychain filled with N generic passwords by batch add,
/// then `samples` operations of each kind at that size, beside the SQLite floor holding the same
/// N rows. Reads are spread over the whole key space.
enum ScaleBenchmarks {
    struct Result {
        var size: Int
        var measurements: [Measurement]
        /// Ours over the raw SQLite floor (``RawSQLiteFloor``), by p50: a durable add over a
        /// durable insert, `Keychain.findFirst` and `SecItemCopyMatching` over a point read.
        var addRatio: Double
        var readRatio: Double
        /// An update of one item's data and a delete (which truncates the log) over the raw
        /// floor's durable update and delete.
        var updateRatio: Double
        var deleteRatio: Double
        /// Nil when the SecItem API is Apple's (not measured over this engine).
        var secItemReadRatio: Double?
        var batchItemsPerSecond: Double
        /// The database of N items, write-ahead log truncated.
        var diskBytes: Int64
        /// Peak resident memory of the process after filling and point operations at this size,
        /// before listing all its items (runs at smaller sizes, their lists included, came first).
        var peakMemoryBytes: Int64
        /// Listing every item with its attributes beside the raw SQLite listing of the same rows.
        var listing: ScaleListing.Result
    }

    static func run(size: Int, samples: Int, in directory: URL) throws -> Result {
        let home = directory.appendingPathComponent("scale-\(size)")
        let location = KeychainLocation(directory: home)
        let options = KeychainOptions(passphraseHardening: .fixed(.floor), defaultAccessGroup: "bench")
        var open = Measurement("N=\(size): open (new keychain)")
        var keychain = try open.time { try Keychain(location: location, options: options) }
        let secret = Data(repeating: 0x5A, count: 64)

        var batch = Measurement("N=\(size): batch add, \(size) items in batches of 5000")
        try batch.time {
            for start in stride(from: 0, to: size, by: 5000) {
                try keychain.add(
                    contentsOf: (start..<min(size, start + 5000)).map {
                        NewItem(.genericPassword, attributes: SampleKeys.attributes($0), data: secret)
                    })
            }
        }
        let batchRate = Double(size) / max(batch.total, 1e-9)

        var reopen = Measurement("N=\(size): open (existing keychain)")
        keychain = try reopen.time { try Keychain(location: location, options: options) }

        var add = Measurement("N=\(size): add (one durable commit each)")
        var read = Measurement("N=\(size): find one by service+account, data")
        var update = Measurement("N=\(size): update data")
        var delete = Measurement("N=\(size): delete one")
        for sample in 0..<samples {
            try add.time {
                _ = try keychain.add(
                    NewItem(
                        .genericPassword, attributes: [.service: "sample", .account: .string("s\(sample)")],
                        data: secret))
            }
        }
        for index in SampleKeys.spread(samples, over: size) {
            _ = try read.time {
                try keychain.findFirst(Query(.genericPassword, SampleKeys.attributes(index)), returning: .data)
            }
        }
        for index in SampleKeys.spread(samples, over: size) {
            try update.time {
                _ = try keychain.update(
                    Query(.genericPassword, SampleKeys.attributes(index)), with: ItemChanges(data: secret))
            }
        }
        for sample in 0..<samples {
            try delete.time {
                _ = try keychain.delete(Query(.genericPassword, [.service: "sample", .account: .string("s\(sample)")]))
            }
        }

        // Measured here, before anything else writes: the deletes above end by truncating the
        // write-ahead log, so this is the database of N items itself; memory so far is what
        // filling and point operations needed (listing everything comes next).
        let disk = fileSize(location.databaseURL.path) + fileSize(location.databaseURL.path + "-wal")
        let pointMemory = peakResidentBytes()
        var measurements = [open, reopen, batch, add, read, update, delete]
        let listFloor = try RawSQLiteFloor(
            path: directory.appendingPathComponent("raw-list-\(size).sqlite").path, size: size)

        // The layers above the engine, at the same size (on Apple platforms the SecItem API is
        // Apple's, so only a SECURE_STORAGE_FORCE_PORTABLE build measures them over this engine).
        var secItemReadMedian: Double?
        let listing: ScaleListing.Result
        #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
        SecItemEnvironment.useKeychain(keychain)
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(applicationIdentifier: "bench")
        defer { SecItemEnvironment.reset() }
        listing = try ScaleListing.run(keychain: keychain, size: size, floor: listFloor, measuresSecItem: true)
        var secItemRead = Measurement("N=\(size): SecItemCopyMatching, return data")
        for index in SampleKeys.spread(samples, over: size) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: SampleKeys.service(index),
                kSecAttrAccount as String: SampleKeys.account(index), kSecReturnData as String: true
            ]
            var result: CFTypeRef?
            let status = secItemRead.time { SecItemCopyMatching(query as CFDictionary, &result) }
            guard status == errSecSuccess else { throw BenchmarkFailure("SecItemCopyMatching answered \(status)") }
        }
        let storage = SecureStorage(service: "bench.facade", accessGroup: "bench", defaultSensitivity: .private)
        for sample in 0..<samples { try storage.set("token-\(sample)", for: "k\(sample)") }
        var facadeRead = Measurement("N=\(size): SecureStorage.string(for:)")
        for sample in 0..<samples { _ = try facadeRead.time { try storage.string(for: "k\(sample)") } }
        measurements += [secItemRead, facadeRead]
        secItemReadMedian = secItemRead.median
        #else
        listing = try ScaleListing.run(keychain: keychain, size: size, floor: listFloor, measuresSecItem: false)
        #endif
        measurements += listing.measurements

        let raw = try FloorBenchmarks.rawSQLite(size: size, samples: samples, in: directory)
        let grdb = try FloorBenchmarks.sqlite(size: size, samples: samples, in: directory)
        measurements += [raw.insert, raw.read, raw.update, raw.delete, grdb.bulk, grdb.insert, grdb.read]
        let rawRead = max(raw.read.median, 1e-9)
        return Result(
            size: size, measurements: measurements,
            addRatio: add.median / max(raw.insert.median, 1e-9), readRatio: read.median / rawRead,
            updateRatio: update.median / max(raw.update.median, 1e-9),
            deleteRatio: delete.median / max(raw.delete.median, 1e-9),
            secItemReadRatio: secItemReadMedian.map { $0 / rawRead },
            batchItemsPerSecond: batchRate, diskBytes: disk, peakMemoryBytes: pointMemory, listing: listing)
    }

    private static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The process's peak resident memory so far (getrusage); sizes run in ascending order, so
    /// each size's figure covers it and every smaller one.
    static func peakResidentBytes() -> Int64 {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int64(usage.ru_maxrss) * 1024
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
