import Crypto
import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Each item's keys, nonces and identifier bits come from one draw of the system's random
/// source: every draw must differ in every part, and identifiers keep their format.
final class ItemRandomnessTests: XCTestCase {
    func testDrawsNeverRepeatAnyPart() {
        var seen = Set<Data>()
        let draws = 5000
        for _ in 0..<draws {
            let randomness = ItemRandomness()
            let parts = [
                randomness.metadataKey.withUnsafeBytes { Data($0) }, randomness.secretKey.withUnsafeBytes { Data($0) },
                Data(randomness.metadataNonce), Data(randomness.secretNonce), Data(randomness.identifier)
            ]
            XCTAssertEqual(parts.map(\.count), [32, 32, 12, 12, 10])
            for part in parts { seen.insert(part) }
        }
        XCTAssertEqual(seen.count, 5 * draws, "no key, nonce or identifier part repeats, and no part equals another")
    }

    func testSystemRandomFillsBuffersOfAnySize() {
        for size in [0, 1, 7, 8, 255, 256, 257, 1000] {
            var first = [UInt8](repeating: 0, count: size)
            var second = first
            first.withUnsafeMutableBytes { SystemRandom.fill($0) }
            second.withUnsafeMutableBytes { SystemRandom.fill($0) }
            if size >= 16 {
                XCTAssertNotEqual(first, second, "\(size) bytes")
                XCTAssertNotEqual(
                    first.suffix(8), [UInt8](repeating: 0, count: 8), "\(size) bytes: the end is filled too")
            }
        }
    }

    func testStoredItemsHaveDistinctKeysNoncesAndVersion8Identifiers() throws {
        let test = try TestKeychain()
        try test.keychain.add(contentsOf: (0..<200).map { password("svc", "batch-\($0)", "same data") })
        for index in 0..<20 { try test.keychain.add(password("svc", "single-\(index)", "same data")) }
        let queue = try DatabaseQueue(path: test.location.databaseURL.path)
        defer { try? queue.close() }
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT item_id, metadata_key, metadata, secret_key, secret FROM items")
        }
        XCTAssertEqual(rows.count, 220)
        for column in ["metadata_key", "secret_key"] {
            XCTAssertEqual(
                Set(rows.map { $0[column] as Data }).count, rows.count, "\(column): every wrapped key differs")
        }
        for column in ["metadata", "secret"] {
            XCTAssertEqual(
                Set(rows.map { ($0[column] as Data).prefix(12) }).count, rows.count, "\(column): every nonce differs")
        }
        for row in rows {
            let id = row["item_id"] as Data
            XCTAssertEqual(id[6] >> 4, 8, "version 8")
            XCTAssertEqual(id[8] >> 6, 0b10, "RFC 9562 variant")
        }
        XCTAssertEqual(try test.keychain.find(query("svc"), returning: .data).count, 220, "and every item opens")
    }
}
