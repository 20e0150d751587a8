import Foundation
import XCTest
@testable import KeychainCore

/// Reading only the synchronizable rows that changed since a caller last read them: a row's
/// stamp moves with every update, a deleted and re-added item is a new row, and nothing else is
/// opened.
final class SynchronizedRowStampTests: XCTestCase {
    private func item(_ service: String, _ secret: String) -> NewItem {
        NewItem(
            .genericPassword, attributes: [.service: .string(service), .account: "a", .synchronizable: 1],
            data: Data(secret.utf8),
            accessibility: .afterFirstUnlock)
    }

    func testOnlyChangedRowsAreReadAgain() throws {
        let test = try TestKeychain()
        let keychain = test.keychain
        for name in ["one", "two", "three"] { try keychain.add(item(name, "v1")) }
        let first = try keychain.synchronizableItems()
        XCTAssertEqual(first.items.count, 3)
        XCTAssertEqual(Set(first.stamps.keys), Set(first.rowIDs))

        let unchanged = try keychain.synchronizableItems(skipping: first.stamps)
        XCTAssertTrue(unchanged.items.isEmpty, "nothing changed, nothing opened")
        XCTAssertEqual(Set(unchanged.unchangedRows), Set(first.rowIDs))

        try keychain.update(
            Query(.genericPassword, [.service: "two"], synchronizable: .yes), with: ItemChanges(data: Data("v2".utf8)))
        try keychain.delete(Query(.genericPassword, [.service: "three"], synchronizable: .yes))
        try keychain.add(item("three", "again"))
        try keychain.add(item("four", "new"))
        let after = try keychain.synchronizableItems(skipping: first.stamps)
        XCTAssertEqual(Set(after.items.map { String(decoding: $0.data, as: UTF8.self) }), ["v2", "again", "new"])
        XCTAssertEqual(after.unchangedRows.count, 1, "only the untouched item was skipped")
        XCTAssertEqual(after.stamps.count, 4, "every synchronizable row is stamped, read or skipped")
    }

    func testAnotherInstanceOfTheSameFileSeesTheSameStamps() throws {
        let test = try TestKeychain()
        try test.keychain.add(item("shared", "v1"))
        let first = try test.keychain.synchronizableItems()
        let other = try Keychain(location: test.location, options: test.options)
        try other.update(
            Query(.genericPassword, [.service: "shared"], synchronizable: .yes),
            with: ItemChanges(data: Data("by another process".utf8)))
        let after = try test.keychain.synchronizableItems(skipping: first.stamps)
        XCTAssertEqual(after.items.map { String(decoding: $0.data, as: UTF8.self) }, ["by another process"])
    }
}
