import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Every operation runs in one SQLite transaction that it begins and ends itself (statements
/// prepared once per connection). A read or write that fails halfway must end its transaction
/// all the same: a read left open would pin an old snapshot (later reads would miss newer
/// items), a write left open would hold the write lock (every other writer would time out).
final class TransactionTests: XCTestCase {
    func testAReadThatFailsHalfwayLeavesNoSnapshotBehind() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "broken", "v"))
        // An INTEGER where the attributes' ciphertext belongs: the read fails while decoding the row.
        try test.tamper { db in try db.execute(sql: "UPDATE items SET metadata = 12") }
        let writer = try test.openAnother()
        // More rounds than the pool has reader connections, so that every one of them failed once.
        for round in 0..<12 {
            XCTAssertKeychainError(
                .integrityViolation, try test.keychain.find(query("svc", "broken")), "round \(round)")
            try writer.add(password("svc", "new-\(round)", "v\(round)"))
            let found = try test.keychain.find(query("svc", "new-\(round)"), returning: .data)
            XCTAssertEqual(
                found.first?.data, Data("v\(round)".utf8),
                "round \(round): the next read sees a write made after the failure")
        }
    }

    func testAWriteThatFailsHalfwayReleasesTheWriteLock() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "v"))
        let other = try test.openAnother()
        for round in 0..<5 {
            // A duplicate fails inside the write transaction, after BEGIN IMMEDIATE took the lock.
            XCTAssertKeychainError(
                .duplicateItem, try test.keychain.add(password("svc", "acct", "again")), "round \(round)")
            let start = ContinuousClock.now
            try other.add(password("svc", "other-\(round)", "v"))
            XCTAssertLessThan(
                ContinuousClock.now - start, .seconds(2),
                "round \(round): no writer waits for a lock a failed write kept")
        }
        XCTAssertEqual(try test.keychain.find(query("svc")).count, 6)
    }
}
