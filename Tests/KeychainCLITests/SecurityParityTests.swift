import Foundation
import XCTest

/// Scripts written for macOS `security` run unchanged where Linux can do the same, and say so
/// where it cannot.
final class SecurityParityTests: CLITestCase {
    func testVersion() throws {
        let version = try keychain("--version")
        XCTAssertStatus(version, 0)
        XCTAssertTrue(version.stdout.hasPrefix("keychain (SecureStorage) 0.13.0, keychain format "), version.stdout)
    }

    func testAFreshMachineHasAnEmptyKeychain() throws {
        let list = try keychain("list")
        XCTAssertStatus(list, 0)
        XCTAssertEqual(list.stdout, "")
        XCTAssertEqual((try keychain("list", "--json").json()["items"] as? [Any])?.count, 0)
        XCTAssertStatus(try keychain("find-generic-password", "-s", "nothing", "-w"), 44)
        XCTAssertStatus(try keychain("find-internet-password", "-s", "nothing"), 44)
        XCTAssertTrue(try keychain("list").stderr.contains("no keychain yet"), "reading created nothing")
        // A keychain named explicitly must exist.
        XCTAssertStatus(try keychain("list", "--keychain", scratch.appendingPathComponent("missing").path), 53)
    }

    func testDashGPrintsThePasswordOnStandardError() throws {
        XCTAssertStatus(try keychain("add-generic-password", "-s", "svc", "-a", "alice", "-w", "s3cret"), 0)
        let found = try keychain("find-generic-password", "-s", "svc", "-g")
        XCTAssertStatus(found, 0)
        XCTAssertFalse(found.stdout.contains("s3cret"), "attributes only on standard output")
        XCTAssertTrue(found.stderr.contains("password: \"s3cret\""), found.stderr)
    }

    func testAppleNamesAndCodesForProtocolAuthenticationTypeAndAccessibility() throws {
        XCTAssertStatus(
            try keychain(
                "add-internet-password", "-s", "example.com", "-a", "bob", "-r", "https", "-P", "8443",
                "-t", "htmlForm", "--accessibility", "afterFirstUnlockThisDeviceOnly", "-w", "pw"), 0)
        let json = try keychain("find-internet-password", "-s", "example.com", "--json").json()
        let attributes = try XCTUnwrap(json["attributes"] as? [String: Any])
        XCTAssertEqual(attributes["ptcl"] as? String, "htps", "https is stored as Apple's code")
        XCTAssertEqual(attributes["atyp"] as? String, "form")
        XCTAssertEqual(attributes["pdmn"] as? String, "cku")
        // codes match too
        XCTAssertStatus(try keychain("find-internet-password", "-s", "example.com", "-r", "htps", "-t", "form"), 0)
        XCTAssertStatus(try keychain("find-internet-password", "-s", "example.com", "-r", "kSecAttrProtocolHTTPS"), 0)
        XCTAssertStatus(
            try keychain("add-internet-password", "-s", "ftp.example.com", "-a", "bob", "-r", "ftp", "-w", "pw"), 0)
        let ftp = try keychain("find-internet-password", "-s", "ftp.example.com", "--json").json()
        XCTAssertEqual(
            (ftp["attributes"] as? [String: Any])?["ptcl"] as? String, "ftp ", "Apple's code has a trailing space")

        let unknown = try keychain(
            "add-internet-password", "-s", "x.example.com", "-a", "bob", "-r", "hxxps", "-w", "pw")
        XCTAssertStatus(unknown, 64)
        XCTAssertTrue(unknown.stderr.contains("https (htps)"), unknown.stderr)
        XCTAssertStatus(
            try keychain("add-generic-password", "-s", "s", "-a", "a", "--accessibility", "sometimes", "-w", "x"), 64)

        let listed = try keychain("list", "--accessibility", "afterFirstUnlockThisDeviceOnly")
        XCTAssertEqual(listed.stdout.split(separator: "\n").count, 1, listed.stdout)
        XCTAssertTrue(
            listed.stdout.contains("htps://example.com:8443"), "list shows protocol, server and port: \(listed.stdout)")
    }

    func testACLFlagsAreAcceptedWithANoteAndAliasesWork() throws {
        let added = try keychain(
            "add-generic-password", "-s", "svc", "-a", "a", "-T", "/usr/bin/curl", "-T", "", "-A", "-w", "x")
        XCTAssertStatus(added, 0)
        XCTAssertTrue(added.stderr.contains("-T and -A are ignored"), added.stderr)
        XCTAssertStatus(try keychain("create-keychain", "--keychain", scratch.appendingPathComponent("second").path), 0)
        XCTAssertTrue(
            try keychain("lock-keychain").stderr.contains("keychain set-passphrase"),
            "a terminal user is told the command, not a Swift method")
        XCTAssertStatus(try keychain("unlock-keychain", "--help"), 0)
        let none = try runOnTerminal(
            ["set-keychain-password"],
            answers: [("New passphrase: ", "first pass"), ("Retype to confirm: ", "first pass")])
        XCTAssertStatus(none.result, 0)  // none yet: sets one
        XCTAssertStatus(
            try keychain(
                "set-keychain-password", "--passphrase-file", passphraseFile("first pass").path, input: "second pass\n"),
            0)  // then changes it
        XCTAssertStatus(try keychain("find-generic-password", "-s", "svc", "-w", "--unlock", input: "first pass\n"), 50)
        XCTAssertEqual(
            try keychain("find-generic-password", "-s", "svc", "-w", "--unlock", input: "second pass\n").stdout, "x\n")
    }

    func testKeychainGivenAFileSuggestsItsDirectory() throws {
        XCTAssertStatus(try keychain("create", "--keychain", scratch.appendingPathComponent("kc").path), 0)
        let file = scratch.appendingPathComponent("kc/data/keychain.db").path
        let refused = try keychain("list", "--keychain", file)
        XCTAssertStatus(refused, 64)
        XCTAssertTrue(
            refused.stderr.contains("Did you mean --keychain \(scratch.appendingPathComponent("kc").path)?"),
            refused.stderr)
    }

    func testHelpNamesValues() throws {
        let help = try keychain("add-internet-password", "--help")
        for shown in ["-a <account>", "-s <server>", "-r <protocol>", "-P <port>", "-t <type>", "-l <label>"] {
            XCTAssertTrue(help.stdout.contains(shown), "\(shown) in \(help.stdout)")
        }
        XCTAssertFalse(help.stdout.contains("<a>"))
    }
}
