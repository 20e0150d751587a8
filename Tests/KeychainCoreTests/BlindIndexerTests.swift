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
    }

    func testRepeatedUseOfTheKeyedStateGivesTheSameIndex() {
        let first = indexer.attribute(.account, .string("alice"))
        _ = indexer.attribute(.account, .string("bob"))
        XCTAssertEqual(indexer.attribute(.account, .string("alice")), first)
        XCTAssertEqual(indexer.attribute(.account, .data(Data("alice".utf8))), first, "string and data of the same bytes match")
        XCTAssertNotEqual(indexer.attribute(.service, .string("alice")), first, "the attribute is part of the index")
    }
}
