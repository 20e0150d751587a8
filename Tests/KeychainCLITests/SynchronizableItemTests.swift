import Foundation
import XCTest

/// Issue 35 §3: an item that arrived from another device of the sync circle looked lost: a
/// search without `--synchronizable` (a SecItem query without kSecAttrSynchronizable) matches
/// only items that do not sync. The rule stays; `list` marks synchronizable items, and a find or
/// delete that found nothing says which flag finds one that matches.
final class SynchronizableItemTests: CLITestCase {
    private let hint =
        "hint: a synchronizable item matches (one that syncs with your other devices; `keychain list` marks them): add --synchronizable to find it; without it, a command looks only at items that do not sync, as SecItem queries without kSecAttrSynchronizable do."

    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", "api.example.com", "-a", "alice", "--synchronizable", "-w",
                "synced-secret"), 0)
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "local.example.com", "-a", "bob", "-w", "local-secret"), 0)
        XCTAssertStatus(
            try keychain(
                "add-internet-password", "-s", "example.com", "-a", "carol", "--synchronizable", "-w", "web-secret"), 0)
    }

    func testListMarksSynchronizableItems() throws {
        let listed = try keychain("list")
        XCTAssertStatus(listed, 0)
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        let synced = try XCTUnwrap(lines.first { $0.contains("api.example.com") }, listed.stdout)
        let local = try XCTUnwrap(lines.first { $0.contains("local.example.com") }, listed.stdout)
        let web = try XCTUnwrap(lines.first { $0.contains("example.com") && $0.hasPrefix("inet") }, listed.stdout)
        XCTAssertTrue(synced.hasSuffix("  synchronizable"), synced)
        XCTAssertTrue(web.hasSuffix("  synchronizable"), web)
        XCTAssertFalse(local.contains("synchronizable"), local)

        let items = try XCTUnwrap(try keychain("list", "--json").json()["items"] as? [[String: Any]])
        let flags = items.compactMap { item -> (String, Int)? in
            guard let attributes = item["attributes"] as? [String: Any], let account = attributes["acct"] as? String
            else { return nil }
            return (account, attributes["sync"] as? Int ?? -1)
        }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: flags), ["alice": 1, "bob": 0, "carol": 1])
    }

    /// Both ways of parsing a find (the direct parser and the argument parser) give the hint.
    func testFindingASynchronizableItemWithoutTheFlagSaysWhichFlagFindsIt() throws {
        for changes in [[:], ["KEYCHAIN_NO_DIRECT_PARSE": "1"]] as [[String: String?]] {
            let missed = try run(
                ["find-generic-password", "-s", "api.example.com", "-a", "alice", "-w"], input: Data(),
                changing: changes)
            XCTAssertStatus(missed, 44)
            XCTAssertEqual(missed.stdout, "")
            XCTAssertTrue(missed.stderr.hasPrefix("keychain: No keychain item matches the query."), missed.stderr)
            XCTAssertTrue(missed.stderr.hasSuffix(hint + "\n"), missed.stderr)
            XCTAssertFalse(missed.stderr.contains("synced-secret"), missed.stderr)
        }
        let webMissed = try keychain("find-internet-password", "-s", "example.com", "-a", "carol")
        XCTAssertStatus(webMissed, 44)
        XCTAssertTrue(webMissed.stderr.hasSuffix(hint + "\n"), webMissed.stderr)

        let found = try keychain(
            "find-generic-password", "-s", "api.example.com", "-a", "alice", "--synchronizable", "-w")
        XCTAssertStatus(found, 0)
        XCTAssertEqual(found.stdout, "synced-secret\n")
        // Nothing matches at all: no hint. The item that does not sync is found as before.
        let absent = try keychain("find-generic-password", "-s", "api.example.com", "-a", "mallory")
        XCTAssertStatus(absent, 44)
        XCTAssertFalse(absent.stderr.contains("hint:"), absent.stderr)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "local.example.com", "-a", "bob", "-w"), 0)
    }

    func testDeletingASynchronizableItemWithoutTheFlagSaysWhichFlagDeletesIt() throws {
        let missed = try keychain("delete-generic-password", "-s", "api.example.com", "-a", "alice")
        XCTAssertStatus(missed, 44)
        XCTAssertTrue(
            missed.stderr.hasSuffix(
                "hint: a synchronizable item matches (`keychain list` marks them): add --synchronizable to delete it, on every device of the sync circle; without it, a command looks only at items that do not sync, as SecItem queries without kSecAttrSynchronizable do.\n"
            ), missed.stderr)
        XCTAssertStatus(
            try keychain("find-generic-password", "-s", "api.example.com", "-a", "alice", "--synchronizable"), 0)

        let deleted = try keychain(
            "delete-generic-password", "-s", "api.example.com", "-a", "alice", "--synchronizable")
        XCTAssertStatus(deleted, 0)
        let gone = try keychain("delete-generic-password", "-s", "api.example.com", "-a", "alice")
        XCTAssertStatus(gone, 44)
        XCTAssertFalse(gone.stderr.contains("hint:"), gone.stderr)
    }
}
