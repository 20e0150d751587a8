import Foundation
import PostgresTestSupport
import XCTest

/// A keychain error met while syncing is printed `keychain: <message>`, once (issue 35): a
/// `SyncError` of code `keychain` describes itself as `keychain: …`, which the tool used to
/// prefix again (`keychain: keychain: …`).
final class SyncErrorPrefixTests: CLITestCase {
    func testAKeychainErrorWhileSyncingIsPrefixedOnce() throws {
        let server: PostgresTestServer
        do {
            server = try PostgresTestServer()
        } catch let error as PostgresTestServerUnavailable
            where error.isMissing && ProcessInfo.processInfo.environment["REQUIRE_POSTGRES"] == nil
        {
            throw XCTSkip("PostgreSQL is not installed: \(error)")
        }
        XCTAssertStatus(try keychain("create", "--passphrase", input: "sync pass\n"), 0)
        XCTAssertStatus(
            try keychain("sync", "create", "--unlock", "--server", server.connectionString, input: "sync pass\n"), 0)
        // A new process finds the keychain not yet unlocked: the circle's state cannot be read.
        let status = try keychain("sync", "status")
        XCTAssertNotEqual(status.status, 0)
        XCTAssertFalse(status.stderr.contains("keychain: keychain:"), status.stderr)
        XCTAssertTrue(status.stderr.hasPrefix("keychain: The keychain at "), status.stderr)
        XCTAssertTrue(
            status.stderr.contains(
                "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly (--accessibility afterFirstUnlockThisDeviceOnly)"),
            status.stderr)
    }
}
