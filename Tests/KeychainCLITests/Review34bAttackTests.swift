import Foundation
import GRDB
import XCTest

/// Review 34b of the fix in 575a3b4 ("error messages and the tool's standard error escape
/// control characters"): `keychain verify`'s text report goes to standard output through
/// `print`, not `printError`, and quotes the item class as stored in the file.
final class Review34bTerminalAttackTests: CLITestCase {
    /// Someone who can write the keychain file (the case `verify` exists for) sets a row's
    /// `item_class` to a terminal escape: `keychain verify` prints `DAMAGED row 2 (<raw>)` to
    /// the terminal. Reproduction: `sqlite3 ~/.../data/keychain.db "UPDATE items SET
    /// item_class = 'genp' || char(27) || ']0;pwned' || char(7) WHERE id = 2"`, then `keychain verify`.
    func testReview34bVerifyPrintsTheStoredItemClassRaw() throws {
        for account in ["a", "b"] {
            XCTAssertStatus(
                try keychain("add-generic-password", "-s", "svc", "-a", account, "-w", "value-\(account)"), 0)
        }
        let database = try DatabaseQueue(path: home.appendingPathComponent("data/keychain.db").path)
        try database.write { db in
            try db.execute(
                sql: "UPDATE items SET item_class = ? WHERE id = 2", arguments: ["genp\u{1B}]0;pwned\u{07}\u{9B}2J"])
        }
        try database.close()
        let report = try keychain("verify")
        XCTAssertNotEqual(report.status, 0)
        XCTAssertEqual(unsafeCharacters(in: report.stdout), [], "verify stdout: \(report.stdout.debugDescription)")
        XCTAssertEqual(unsafeCharacters(in: report.stderr), [], "verify stderr: \(report.stderr.debugDescription)")
    }
}
