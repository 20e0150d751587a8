import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// A listing (limit all) decrypts and proves its rows on every core, a batch at a time. Edited
/// rows, locked classes and rows that cannot be read must give exactly the error a row-by-row
/// scan gives for the first bad row in order, whichever core opened which row first.
final class ParallelListingAttackTests: XCTestCase {
    /// More rows than one parallel chunk and than one proof batch, so that both split.
    private let count = Keychain.proofBatch + 300

    private func filled() throws -> TestKeychain {
        let test = try TestKeychain()
        try test.keychain.add(contentsOf: (0..<count).map { password("bulk", "acct-\($0)", "secret-\($0)") })
        return test
    }

    /// The error a listing throws, and the one a scan that proves row by row throws (a limit
    /// above the number of rows takes the sequential path).
    private func listingErrors(_ keychain: Keychain) -> (parallel: KeychainError?, sequential: KeychainError?) {
        func error(_ limit: MatchLimit) -> KeychainError? {
            do {
                _ = try keychain.find(query("bulk", limit: limit), returning: .attributes)
                return nil
            } catch {
                return error
            }
        }
        return (error(.all), error(.count(count + 1)))
    }

    /// Edits `column` of the row with this id: its last byte flipped.
    private func flipLastByte(of column: String, rowID: Int, _ test: TestKeychain) throws {
        try test.tamper { db in
            var blob = try XCTUnwrap(
                Data.fetchOne(db, sql: "SELECT \(column) FROM items WHERE id = ?", arguments: [rowID]))
            blob[blob.count - 1] ^= 0x01
            try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = ?", arguments: [blob, rowID])
        }
    }

    func testAnUntouchedListingReturnsEveryItemInOrderWithItsAttributes() throws {
        let test = try filled()
        let found = try test.keychain.find(query("bulk"), returning: .attributes)
        XCTAssertEqual(found.map { $0.attributes[.account] }, (0..<count).map { .string("acct-\($0)") })
        XCTAssertTrue(found.allSatisfy { $0.attributes[.sha1] == nil && $0.data == nil })
        let sequential = try test.keychain.find(query("bulk", limit: .count(count + 1)), returning: .attributes)
        XCTAssertEqual(found, sequential, "the parallel listing differs from a row-by-row scan")
    }

    /// Two edited rows in different batches and different chunks, the later one edited so that
    /// it fails differently: the listing reports the earlier row's failure.
    func testTheFirstEditedRowInOrderDecidesTheError() throws {
        let test = try filled()
        try flipLastByte(of: "metadata_key", rowID: 1200, test)  // second batch
        try flipLastByte(of: "metadata", rowID: 700, test)  // first batch, a later chunk than 300's
        try flipLastByte(of: "metadata_key", rowID: 900, test)
        let errors = listingErrors(test.keychain)
        XCTAssertEqual(errors.parallel?.code, .integrityViolation)
        XCTAssertEqual(errors.parallel, errors.sequential, "not the error of the first edited row (700)")
        XCTAssertEqual(errors.parallel, KeychainError.tamperedItemHalf(name: "attributes", itemClass: "genp"))
    }

    /// An item of another service given the listed service's index (it opens, but is not what
    /// the query asked for: `tamperedLookupValues`), after an edited row that does not open at
    /// all: the earlier row decides; alone, the lookup edit is reported.
    func testEditedLookupValuesAreReportedInOrder() throws {
        let test = try filled()
        try test.keychain.add(password("other", "acct"))
        try test.tamper { db in
            try db.execute(
                sql: "UPDATE items SET service_index = (SELECT service_index FROM items WHERE id = 1) WHERE id = ?",
                arguments: [count + 1])
        }
        var errors = listingErrors(test.keychain)
        XCTAssertEqual(errors.parallel, KeychainError.tamperedLookupValues())
        XCTAssertEqual(errors.parallel, errors.sequential)
        try flipLastByte(of: "metadata", rowID: 1100, test)
        errors = listingErrors(test.keychain)
        XCTAssertEqual(errors.parallel, KeychainError.tamperedItemHalf(name: "attributes", itemClass: "genp"))
        XCTAssertEqual(errors.parallel, errors.sequential)
    }

    /// A row whose columns cannot be read (a wrong type) fails where a sequential scan reaches it:
    /// after an edited row before it, before one after it.
    func testARowThatCannotBeReadFailsInItsPlace() throws {
        let test = try filled()
        try test.tamper { db in try db.execute(sql: "UPDATE items SET row_version = 'x' WHERE id = 1150") }
        try flipLastByte(of: "metadata", rowID: 1250, test)
        var errors = listingErrors(test.keychain)
        XCTAssertEqual(errors.parallel, KeychainError.tamperedItemColumnType(name: "row_version"))
        XCTAssertEqual(errors.parallel, errors.sequential)
        try flipLastByte(of: "metadata_key", rowID: 1049, test)
        errors = listingErrors(test.keychain)
        XCTAssertEqual(errors.parallel?.code, .integrityViolation)
        XCTAssertNotEqual(errors.parallel, KeychainError.tamperedItemColumnType(name: "row_version"))
        XCTAssertEqual(errors.parallel, errors.sequential, "the edited row 1049 comes before the unreadable 1150")
    }

    /// Locked class-A rows among class-D ones: the whole listing is `interactionNotAllowed`,
    /// unless an edited row comes before the first locked one.
    func testLockedRowsFailTheWholeListingInOrder() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(
            contentsOf: (0..<count).map {
                password("bulk", "acct-\($0)", "secret-\($0)", $0 >= 600 && $0 % 2 == 0 ? .whenUnlocked : .always)
            })
        XCTAssertEqual(try test.keychain.find(query("bulk"), returning: .attributes).count, count)
        try test.keychain.lock()
        var errors = listingErrors(test.keychain)
        XCTAssertEqual(errors.parallel?.code, .interactionNotAllowed)
        XCTAssertEqual(errors.parallel, errors.sequential)
        try flipLastByte(of: "metadata", rowID: 598, test)  // class D, before the first locked row (601)
        errors = listingErrors(test.keychain)
        XCTAssertEqual(errors.parallel, KeychainError.tamperedItemHalf(name: "attributes", itemClass: "genp"))
        XCTAssertEqual(errors.parallel, errors.sequential)
    }
}
