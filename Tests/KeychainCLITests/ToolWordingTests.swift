import Foundation
import XCTest

/// The tool's messages in the tool's terms (issue 35).
final class ToolWordingTests: CLITestCase {
    func testLockedItemsNameTheAccessibilityFlagNotItsCode() throws {
        XCTAssertStatus(try keychain("create", "--passphrase", input: "tool pass\n"), 0)
        let passphrase = try passphraseFile("tool pass").path
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "--passphrase-file", passphrase, "-s", "svc", "-a", "me", "--accessibility",
                "cku", "--stdin",
                input: "v4lue"), 0)
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "--passphrase-file", passphrase, "-s", "svc", "-a", "ak", "--stdin",
                input: "v4lue"), 0)
        XCTAssertStatus(try keychain("lock"), 0)
        let locked = try keychain("find-generic-password", "-s", "svc", "-a", "ak", "-w")
        XCTAssertStatus(locked, 51)
        XCTAssertTrue(
            locked.stderr.contains("kSecAttrAccessibleWhenUnlocked (--accessibility whenUnlocked)"), locked.stderr)
        XCTAssertFalse(locked.stderr.contains("(ak)"), "no internal code: \(locked.stderr)")
        XCTAssertFalse(locked.stderr.contains("keychain: keychain:"), locked.stderr)
    }
}
