import Crypto
import Foundation
import GRDB

/// The floors ours is compared with, measured in the same run: SQLite's C API with prepared
/// statements (``RawSQLiteFloor``), the same table through GRDB's read and write blocks, both
/// with the keychain's durability settings and no encryption, and AES-GCM alone on the same
/// payloads.
enum FloorBenchmarks {
    /// The raw floor: ``RawSQLiteFloor`` holding `size` rows, then `samples` durable inserts
    /// (one commit each) and point reads by (service, account) spread over the rows.
    /// What ``rawSQLite(size:samples:in:)`` measures.
    struct RawMeasurements {
        var insert: Measurement
        var read: Measurement
        var update: Measurement
        var delete: Measurement
    }

    static func rawSQLite(size: Int, samples: Int, in directory: URL) throws -> RawMeasurements {
        let floor = try RawSQLiteFloor(
            path: directory.appendingPathComponent("raw-floor-\(size).sqlite").path, size: size)
        let payload = Data(repeating: 0x5A, count: 64)
        var insert = Measurement("floor: raw SQLite insert (durable commit)")
        var read = Measurement("floor: raw SQLite point read (prepared statement)")
        var update = Measurement("floor: raw SQLite update data (durable commit)")
        var delete = Measurement("floor: raw SQLite delete one (durable commit)")
        for sample in 0..<samples {
            try insert.time {
                try floor.insert(service: Data("service-x".utf8), account: Data("sample-\(sample)".utf8), data: payload)
            }
        }
        for index in SampleKeys.spread(samples, over: size) {
            let found = try read.time {
                try floor.read(
                    service: Data(SampleKeys.service(index).utf8), account: Data(SampleKeys.account(index).utf8))
            }
            guard found?.count == payload.count else {
                throw BenchmarkFailure("the raw SQLite floor lost row \(index)")
            }
        }
        let changed = Data(repeating: 0xA5, count: 64)
        for index in SampleKeys.spread(samples, over: size) {
            try update.time {
                try floor.update(
                    service: Data(SampleKeys.service(index).utf8), account: Data(SampleKeys.account(index).utf8),
                    data: changed)
            }
        }
        for sample in 0..<samples {
            try delete.time {
                try floor.delete(service: Data("service-x".utf8), account: Data("sample-\(sample)".utf8))
            }
        }
        return RawMeasurements(insert: insert, read: read, update: update, delete: delete)
    }

    /// The same table through GRDB (`DatabasePool.write` and `read` blocks, cached statements),
    /// holding `size` rows; then `samples` durable inserts (one commit each) and point reads by
    /// (service, account).
    static func sqlite(size: Int, samples: Int, in directory: URL) throws -> (
        insert: Measurement, read: Measurement, bulk: Measurement
    ) {
        let path = directory.appendingPathComponent("floor-\(size).sqlite").path
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        let database = try DatabasePool(path: path, configuration: configuration)
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(
                sql: """
                    CREATE TABLE items (id INTEGER PRIMARY KEY, service BLOB NOT NULL, account BLOB NOT NULL, data BLOB NOT NULL,
                                        UNIQUE (service, account))
                    """)
        }
        let payload = Data(repeating: 0x5A, count: 64)
        var bulk = Measurement("floor: GRDB batch insert of \(size) rows (whole run)")
        try bulk.time {
            for start in stride(from: 0, to: size, by: 10_000) {
                try database.write { db in
                    let insert = try db.cachedStatement(
                        sql: "INSERT INTO items (service, account, data) VALUES (?, ?, ?)")
                    for index in start..<min(size, start + 10_000) {
                        try insert.execute(arguments: [
                            Data(SampleKeys.service(index).utf8), Data(SampleKeys.account(index).utf8), payload
                        ])
                    }
                }
            }
        }
        var insert = Measurement("floor: GRDB insert (durable commit)")
        var read = Measurement("floor: GRDB point read by service+account")
        for sample in 0..<samples {
            try insert.time {
                try database.write { db in
                    try db.cachedStatement(sql: "INSERT INTO items (service, account, data) VALUES (?, ?, ?)")
                        .execute(arguments: [Data("service-x".utf8), Data("sample-\(sample)".utf8), payload])
                }
            }
        }
        for index in SampleKeys.spread(samples, over: size) {
            _ = try read.time {
                try database.read { db in
                    try Data.fetchOne(
                        db.cachedStatement(sql: "SELECT data FROM items WHERE service = ? AND account = ?"),
                        arguments: [Data(SampleKeys.service(index).utf8), Data(SampleKeys.account(index).utf8)])
                }
            }
        }
        try database.close()
        return (insert, read, bulk)
    }

    /// AES-256-GCM seal and open of a 64-byte payload: the cryptographic work per item, alone.
    static func aesGCM(samples: Int) throws -> [Measurement] {
        let key = SymmetricKey(size: .bits256)
        let payload = Data(repeating: 0x5A, count: 64)
        var seal = Measurement("floor: AES-GCM seal 64 B")
        var open = Measurement("floor: AES-GCM open 64 B")
        for _ in 0..<samples {
            let box = try seal.time { try AES.GCM.seal(payload, using: key) }
            _ = try open.time { try AES.GCM.open(box, using: key) }
        }
        return [seal, open]
    }
}
