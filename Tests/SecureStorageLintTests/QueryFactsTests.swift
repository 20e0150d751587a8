import Foundation
import SwiftParser
import XCTest
@testable import SecureStorageLint

/// ``QueryFacts``: what one file contributes, how files merge, what resolving closes over.
final class QueryFactsTests: XCTestCase {
    private func facts(_ sources: String...) -> QueryFacts {
        var merged = QueryFacts()
        for (index, source) in sources.enumerated() {
            var file = QueryFacts()
            file.collect(from: Parser.parse(source: source), path: "File\(index).swift")
            merged.merge(file)
        }
        merged.resolve()
        return merged
    }

    func testDeletingIsTransitiveAndAReplacementIsNoDeletion() {
        let resolved = facts(
            "func removeNoLock(_ key: String) { SecItemDelete(q(key)) }",
            "func remove(_ key: String) { lock.sync { removeNoLock(key) } }",
            "func set(_ value: Data, key: String) { remove(key); SecItemAdd(a, nil) }")
        XCTAssertEqual(resolved.deletingFunctions, ["removeNoLock(_", "remove(_"])
        XCTAssertEqual(resolved.addingFunctions, ["set(_"])
        XCTAssertTrue(resolved.functions.isEmpty, "the call graph is dropped once resolved")
    }

    func testAliasesAcrossFilesAndANameGivenTwoConstantsIsDropped() {
        let resolved = facts(
            "enum K { static let account = kSecAttrAccount as String; static var klass: String { toString(kSecClass) } }",
            "enum L { static let account = kSecAttrService as String }")
        XCTAssertEqual(resolved.aliases, ["klass": "kSecClass"])
        XCTAssertTrue(resolved.ambiguousNames.contains("account"))
    }

    func testBuildersResolveKeysThroughAliasesAndBaseBuilders() throws {
        let resolved = facts(
            "enum K { static let account = kSecAttrAccount as String }",
            """
            func base() -> [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"] }
            func query(for key: String) -> [String: Any] {
                var query = base()
                query[K.account] = prefix + key
                return query
            }
            func json() -> [String: Any] { ["name": name] }
            """)
        let builder = try XCTUnwrap(resolved.builders["query(for"])
        XCTAssertEqual(builder.entries["kSecAttrAccount"], "prefix + $0")
        XCTAssertEqual(builder.entries["kSecClass"], "kSecClassGenericPassword")
        XCTAssertNil(resolved.builders["json("], "a dictionary of other keys is no query")
    }

    func testFactsHoldNoStringLiteralAndSurviveCoding() throws {
        let resolved = facts(
            """
            func query(_ key: String) -> [String: Any] {
                [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "hunter2-service", kSecAttrAccount as String: key]
            }
            """)
        let encoded = try JSONEncoder().encode(resolved)
        XCTAssertFalse(String(decoding: encoded, as: UTF8.self).contains("hunter2"))
        XCTAssertEqual(try JSONDecoder().decode(QueryFacts.self, from: encoded), resolved)
    }
}
