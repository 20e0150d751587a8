import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// Tamper evidence beyond single rows: deleting, adding or replaying rows
/// outside the library, or editing the state record, shows in `verify()`; every write of the
/// library keeps the record exact.
final class StateDigestTests: XCTestCase {
    private func assertClean(
        _ keychain: Keychain, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let report = try keychain.verify()
        XCTAssertNil(report.stateProblem, message, file: file, line: line)
        XCTAssertTrue(report.isClean, message, file: file, line: line)
    }

    func testEveryKindOfWriteKeepsTheStateExact() throws {
        let test = try TestKeychain()
        try assertClean(test.keychain, "new")
        for index in 0..<5 { try test.keychain.add(password("svc", "a\(index)", "v\(index)")) }
        try assertClean(test.keychain, "add")
        try test.keychain.update(query("svc", "a1"), with: ItemChanges(data: Data("changed".utf8)))
        try test.keychain.addOrUpdate(password("svc", "a2", "upserted"))
        try test.keychain.addOrUpdate(password("svc", "new", "added"))
        try assertClean(test.keychain, "update / addOrUpdate")
        try test.keychain.delete(query("svc", "a0"))
        try assertClean(test.keychain, "delete")
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(password("svc", "ps", "p", .whenPasscodeSetThisDeviceOnly))
        try test.keychain.removePassphrase(current: "pw")
        try assertClean(test.keychain, "passcode-set items destroyed")
        let backup = test.directory.appendingPathComponent("b")
        try test.keychain.exportBackup(to: backup, passphrase: "x")
        try test.keychain.importBackup(from: backup, passphrase: "x", onDuplicate: .replace)
        try assertClean(test.keychain, "import replacing")
        try assertClean(try test.openAnother(), "another instance")
    }

    func testRowsDeletedAddedOrReplayedOutsideTheLibraryAreReported() throws {
        // Deleted.
        var test = try TestKeychain()
        for index in 0..<3 { try test.keychain.add(password("svc", "a\(index)", "v")) }
        try test.tamper { db in try db.execute(sql: "DELETE FROM items WHERE id = 2") }
        var report = try test.keychain.verify()
        XCTAssertEqual(report.damagedItems, [], "every remaining row is genuine")
        XCTAssertTrue(report.stateProblem?.contains("deleted") ?? false, "\(report)")
        // …and a later write does not launder it.
        try test.keychain.add(password("svc", "later", "v"))
        XCTAssertNotNil(try test.keychain.verify().stateProblem)

        // Truncated table.
        test = try TestKeychain()
        for index in 0..<3 { try test.keychain.add(password("svc", "a\(index)", "v")) }
        try test.tamper { db in try db.execute(sql: "DELETE FROM items") }
        XCTAssertNotNil(try test.keychain.verify().stateProblem)

        // An old version of a row put back: its own authentication still holds.
        test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "old password"))
        let old = try DatabaseQueue(path: test.location.databaseURL.path).read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM items WHERE id = 1")!
        }
        try test.keychain.update(query("svc", "acct"), with: ItemChanges(data: Data("new password".utf8)))
        try test.tamper { db in
            try db.execute(
                sql:
                    "UPDATE items SET row_version = ?, metadata_key = ?, metadata = ?, secret_key = ?, secret = ? WHERE id = 1",
                arguments: [
                    old["row_version"] as Int64, old["metadata_key"] as Data, old["metadata"] as Data,
                    old["secret_key"] as Data, old["secret"] as Data
                ])
        }
        XCTAssertEqual(
            try test.keychain.find(query("svc", "acct"), returning: .data).first?.data, Data("old password".utf8),
            "the replayed row reads as valid on its own…")
        report = try test.keychain.verify()
        XCTAssertNotNil(report.stateProblem, "…but the state shows it")
    }

    func testEditedOrMissingStateRecord() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "v"))
        try test.tamper { db in try db.execute(sql: "UPDATE vault_header SET state_counter = state_counter + 5") }
        XCTAssertTrue(try test.keychain.verify().stateProblem?.contains("MAC") ?? false)

        // Removing the record does not get the tampering certified: it is never recreated.
        try test.tamper { db in try db.execute(sql: "UPDATE vault_header SET state_digest = NULL, state_mac = NULL") }
        let reopened = try test.openAnother()
        try reopened.add(password("svc", "later", "v"))
        XCTAssertTrue(try reopened.verify().stateProblem?.contains("missing") ?? false)
    }

    /// An instance remembers the last record it wrote, to skip checking its own record's MAC
    /// again on the next write. A record edited in between must still be checked in full: never
    /// folded, never re-MACed (which would certify it).
    func testARecordEditedBetweenTwoWritesOfOneInstanceIsNeverFolded() throws {
        for edit in ["state_mac = zeroblob(32)", "state_digest = zeroblob(32)", "state_counter = state_counter + 1"] {
            let test = try TestKeychain()
            try test.keychain.add(password("svc", "first", "v"))
            try test.tamper { db in try db.execute(sql: "UPDATE vault_header SET \(edit)") }
            let edited = try stateRecord(of: test)
            try test.keychain.add(password("svc", "second", "v"))
            let after = try stateRecord(of: test)
            XCTAssertEqual(after, edited, "\(edit): the second add left the edited record as it was")
            XCTAssertTrue(try test.keychain.verify().stateProblem?.contains("MAC") ?? false, edit)
        }
    }

    private func stateRecord(of test: TestKeychain) throws -> Row {
        let queue = try DatabaseQueue(path: test.location.databaseURL.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try XCTUnwrap(Row.fetchOne(db, sql: "SELECT state_counter, state_digest, state_mac FROM vault_header"))
        }
    }

    func testAnOlderKeychainGetsItsRecordOnceWhenUpgraded() throws {
        let test = try TestKeychain()
        for index in 0..<3 { try test.keychain.add(password("svc", "a\(index)", "v")) }
        // Turn the file back into format 1, as an older version of the library wrote it; such a
        // keychain predates the format anchor, so there is none beside its device key.
        try test.downgradeToFormat1()
        try FileManager.default.removeItem(at: test.anchorURL)
        let upgraded = try test.openAnother()
        XCTAssertEqual(upgraded.formatVersion, KeychainSchema.formatVersion)
        XCTAssertTrue(FileManager.default.fileExists(atPath: test.anchorURL.path), "the upgrade anchors the new format")
        try assertClean(upgraded, "recorded on upgrade")
        try upgraded.delete(query("svc", "a0"))
        try assertClean(upgraded, "kept exact afterwards")
    }

    func testSumsDoNotCancelLikeXOR() {
        let a = (0..<32).map { UInt8($0 * 7 & 0xFF) }
        let b = (0..<32).map { UInt8(255 - $0) }
        XCTAssertEqual(StateDigest.subtracting(StateDigest.adding(a, b), b), a)
        XCTAssertNotEqual(
            StateDigest.adding(StateDigest.adding(StateDigest.zero, b), b), StateDigest.zero, "a duplicated row shows")
        XCTAssertEqual(
            StateDigest.adding([UInt8](repeating: 0xFF, count: 32), [UInt8](repeating: 0, count: 31) + [1]),
            StateDigest.zero, "mod 2^256")
    }
}
