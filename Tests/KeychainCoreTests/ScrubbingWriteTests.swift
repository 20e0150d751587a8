import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// A delete commits without its own sync and lets the truncating checkpoint that scrubs the log
/// make it durable (``Keychain/writeThenScrub(_:)``): the deleted ciphertext must still leave
/// both files, the delete must still be there for every later reader, and the connection must go
/// back to `synchronous = FULL` for every other write, whether the delete succeeded or failed.
final class ScrubbingWriteTests: XCTestCase {
    func testADeletedItemsCiphertextIsInNeitherFileAfterTheDelete() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "doomed", String(repeating: "s", count: 64)))
        try test.keychain.add(password("svc", "kept", "k"))
        let ciphertext = try test.keychain.read { db in
            try XCTUnwrap(Data.fetchOne(db, sql: "SELECT secret FROM items WHERE rowid = 1"))
        }
        try test.keychain.delete(query("svc", "doomed"))
        let path = test.keychain.databasePath
        XCTAssertNil(try Data(contentsOf: URL(fileURLWithPath: path)).range(of: ciphertext), "in keychain.db")
        let log = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
        XCTAssertNil(log.range(of: ciphertext), "in keychain.db-wal")
        XCTAssertEqual(log.count, 0, "the log is truncated after the delete")
        let reopened = try test.openAnother()
        XCTAssertKeychainError(.itemNotFound, try reopened.find(query("svc", "doomed")))
        XCTAssertEqual(try reopened.find(query("svc", "kept"), returning: .data).first?.data, Data("k".utf8))
    }

    func testEveryOtherWriteStillCommitsAtFullSynchronousAfterADelete() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "v"))
        try test.keychain.delete(query("svc", "a"))
        XCTAssertEqual(try test.writerSynchronousSetting(), 2, "synchronous = FULL after a delete")
        // A delete that fails inside its transaction (nothing matches) restores it too.
        XCTAssertKeychainError(.itemNotFound, try test.keychain.delete(query("svc", "none")))
        XCTAssertEqual(try test.writerSynchronousSetting(), 2, "synchronous = FULL after a failed delete")
    }

    /// A reader holding an older snapshot keeps the checkpoint from copying the delete's frames:
    /// the log is synced directly and the delete is what every later reader sees.
    func testADeleteWhoseCheckpointAReaderBlocksIsStillCommitted() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "doomed", "v"))
        let reader = try test.openAnother()
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? reader.read { _ in
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        try test.keychain.delete(query("svc", "doomed"))
        release.signal()
        done.wait()
        XCTAssertKeychainError(.itemNotFound, try test.openAnother().find(query("svc", "doomed")))
        XCTAssertEqual(try test.writerSynchronousSetting(), 2)
    }
}

extension TestKeychain {
    /// `PRAGMA synchronous` on the keychain's writer connection (2 is FULL).
    func writerSynchronousSetting() throws -> Int? {
        try keychain.database.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
    }
}
