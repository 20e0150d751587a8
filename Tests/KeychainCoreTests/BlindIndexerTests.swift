import Crypto
import Foundation
import XCTest
@testable import KeychainCore

/// Blind indexes are stored in every keychain file, so their format must never drift: these
/// known answers were computed independently (HMAC-SHA256 over the length-prefixed encoding).
final class BlindIndexerTests: XCTestCase {
    private let indexer = BlindIndexer(key: SymmetricKey(data: Data(count: 32)))

    private func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    func testKnownAnswers() {
        XCTAssertEqual(hex(indexer.attribute(.service, .string("svc"))), "e81abbb8378d160a00c0b99d8b043043")
        XCTAssertEqual(hex(indexer.accessGroup("TEAM.app")), "815b91e323c032943153cbe6e151375e")
        XCTAssertEqual(hex(indexer.attribute(.port, .number(443))), "e65ea682a26fd4adca3305f8ae0f7553")
        XCTAssertEqual(hex(indexer.attribute(.isInvisible, .bool(true))), "fc930d2609b24f05110238189850543f")
        XCTAssertEqual(
            hex(indexer.attribute(.creationDate, .date(Date(timeIntervalSinceReferenceDate: 123456.5)))),
            "c9151c0665e9f8d5ac2518aa7d2f7aa1")
        XCTAssertEqual(hex(indexer.attribute(.generic, .data(Data([0, 1, 255])))), "5b7aed28c1ea1016217d1890077b098e")
        XCTAssertEqual(
            hex(
                indexer.primaryKey(
                    of: .internetPassword, attributes: [.server: "example.com", .account: "alice", .port: 443])),
            "8d103740137895b3b6e740ce8cad67a3")
        XCTAssertEqual(hex(indexer.identityLink(Data([9, 8, 7]))), "446404f611d6626a69aa2cebb72deb5d")
    }

    /// Rows SQLite selected by an index are checked against the query on their decrypted
    /// attributes by comparing canonical values instead of computing indexes again: the two
    /// comparisons must agree on every pair, across kinds (a string and the same bytes as data,
    /// a number and a boolean, dates to the bit).
    func testCanonicalEqualityAgreesWithIndexEquality() {
        let date = Date(timeIntervalSinceReferenceDate: 123456.5)
        let values: [AttributeValue] = [
            .string(""), .string("svc"), .string("svC"), .string("é"), .string("e\u{301}"), .data(Data()),
            .data(Data("svc".utf8)),
            .data(Data([0, 1, 255])), .data(Data("é".utf8)), .number(0), .number(1), .number(-1), .number(443),
            .bool(false), .bool(true),
            .date(date), .date(date.addingTimeInterval(1e-9)), .date(Date(timeIntervalSinceReferenceDate: 0)),
            .date(Date(timeIntervalSinceReferenceDate: -0.0))
        ]
        for first in values {
            for second in values {
                XCTAssertEqual(
                    BlindIndexer.canonicallyEqual(first, second),
                    indexer.attribute(.generic, first) == indexer.attribute(.generic, second), "\(first) vs \(second)")
            }
        }
    }

    /// Access-group indexes are remembered (a bounded cache): remembered or not, they are the
    /// attribute's index, however many groups a process uses.
    func testRememberedAccessGroupIndexesAreTheAttributeIndexes() {
        let groups = (0..<(BlindIndexer.groupCacheLimit * 2 + 5)).map { "TEAM.group-\($0)" } + ["", "TEAM.app"]
        for _ in 0..<3 {
            for group in groups {
                XCTAssertEqual(indexer.accessGroup(group), indexer.attribute(.accessGroup, .string(group)), group)
            }
        }
        XCTAssertEqual(hex(indexer.accessGroup("TEAM.app")), "815b91e323c032943153cbe6e151375e")
    }

    func testRepeatedUseOfTheKeyedStateGivesTheSameIndex() {
        let first = indexer.attribute(.account, .string("alice"))
        _ = indexer.attribute(.account, .string("bob"))
        XCTAssertEqual(indexer.attribute(.account, .string("alice")), first)
        XCTAssertEqual(
            indexer.attribute(.account, .data(Data("alice".utf8))), first, "string and data of the same bytes match")
        XCTAssertNotEqual(indexer.attribute(.service, .string("alice")), first, "the attribute is part of the index")
    }
}
