import Foundation
import XCTest
@testable import SecureStorageLint

/// Code that does not parse, cut-off files and odd bytes give findings or none, never a crash
/// or a hang.
final class RobustnessTests: XCTestCase {
    func testTruncatedFixturesLintWithoutCrashing() throws {
        let fixture = FixtureTests.fixtures.appendingPathComponent("delete-then-add/positive.swift")
        let bytes = Array(try Data(contentsOf: fixture))
        let linter = SourceFileLinter()
        for end in stride(from: 0, to: bytes.count, by: 37) {
            _ = linter.lint(path: "cut.swift", bytes: Array(bytes[..<end]))
        }
    }

    func testMalformedInput() {
        let linter = SourceFileLinter()
        let inputs: [[UInt8]] = [
            [], [0xFF, 0xFE, 0x00, 0x41], Array("SecItemDelete(".utf8), Array("\"\"\"\nunterminated".utf8),
            Array("func f() { SecItemDelete(q) // keychain-lint:disable-line".utf8),
            Array(repeating: UInt8(ascii: "("), count: 10_000),
            Array("let k = \"AKIAIOSFODNN7EXAMPL\u{0}E\"".utf8),
        ]
        for input in inputs { _ = linter.lint(path: "odd.swift", bytes: input) }
    }

    func testMessagesNeverQuoteTheSecret() {
        // Assembled, so that this file does not hold a token-shaped literal itself.
        let token = "ghp_" + "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"
        let source = #"let githubToken = ""# + token + #""; let clientSecret = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b""#
        let findings = SourceFileLinter().lint(path: "a.swift", bytes: Array(source.utf8))
        XCTAssertEqual(findings.count, 2)
        for finding in findings {
            XCTAssertFalse(finding.message.contains("wWPw5k4a"))
            XCTAssertFalse(finding.message.contains("9f86d081"))
        }
    }
}
