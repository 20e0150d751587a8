import Foundation
import XCTest

/// Issue 34 §4.2: item attributes can come from a circle member, an imported backup or a
/// migrated file. Printed raw, `\e]0;…\a` retitles the terminal window, `\e[2J` clears the
/// screen and U+009B (the one-character CSI) starts any control sequence. The text output
/// shows every control and bidirectional formatting character as `?`; JSON keeps the exact
/// value, with those characters as `\u` escapes.
final class TerminalEscapeTests: CLITestCase {
    private let title = "\u{1B}]0;pwned\u{07}"
    private let clear = "\u{1B}[2J"
    private let csi = "\u{9B}31m"
    private let bidi = "\u{202E}"

    private func assertNothingRaw(
        _ result: CLIResult, _ command: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertStatus(result, 0, file: file, line: line)
        XCTAssertEqual(
            unsafeCharacters(in: result.stdout), [], "\(command) stdout: \(result.stdout.debugDescription)", file: file,
            line: line)
        XCTAssertEqual(
            unsafeCharacters(in: result.stderr), [], "\(command) stderr: \(result.stderr.debugDescription)", file: file,
            line: line)
    }

    func testItemAttributesNeverReachTheTerminalRaw() throws {
        let service = "svc\(title)"
        let account = "acct\(clear)"
        let label = "label\(csi)"
        let comment = "note\(title)\(clear)\(csi)\(bidi)end"
        let secret = "pw\(clear)\(csi)"
        XCTAssertStatus(
            try keychain(
                "add-generic-password", "-s", service, "-a", account, "-l", label, "-j", comment, "-w", secret), 0)
        // The attack works on a raw print: the values are stored as given.
        let listed = try keychain("list")
        assertNothingRaw(listed, "list")
        XCTAssertTrue(listed.stdout.contains("\"svc?]0;pwned?\"  \"acct?[2J\"  \"label?31m\""), listed.stdout)

        let found = try keychain("find-generic-password", "-s", service, "-g")
        assertNothingRaw(found, "find-generic-password -g")
        XCTAssertTrue(found.stdout.contains("\"icmt\"<blob>=\"note?]0;pwned??[2J?31m?end\""), found.stdout)
        XCTAssertTrue(
            found.stderr.contains("password: 0x" + Data(secret.utf8).map { String(format: "%02X", $0) }.joined()),
            "the secret as hex: \(found.stderr)")

        let dumped = try keychain("dump-keychain", "-d")
        assertNothingRaw(dumped, "dump-keychain -d")
        XCTAssertTrue(dumped.stdout.contains("\"labl\"<blob>=\"label?31m\""), dumped.stdout)

        // JSON keeps every value exactly, with no raw control character either.
        for command in [
            ["list", "--json"], ["find-generic-password", "-s", service, "-g", "--json"],
            ["dump-keychain", "-d", "--json"]
        ] {
            let result = try run(command, input: Data())
            assertNothingRaw(result, command.joined(separator: " "))
            XCTAssertTrue(result.stdout.contains(#"\u009b31m"#), "C1 as a JSON escape: \(result.stdout)")
            let json = try result.json()
            let item = try XCTUnwrap((json["items"] as? [[String: Any]])?.first ?? json, "\(command)")
            let attributes = try XCTUnwrap(item["attributes"] as? [String: Any], "\(command)")
            XCTAssertEqual(attributes["svce"] as? String, service, "\(command)")
            XCTAssertEqual(attributes["acct"] as? String, account, "\(command)")
            XCTAssertEqual(attributes["labl"] as? String, label, "\(command)")
            XCTAssertEqual(attributes["icmt"] as? String, comment, "\(command)")
            if command[0] != "list" {
                XCTAssertEqual((item["password"] ?? item["data"]) as? String, secret, "\(command)")
            }
        }
    }
}
