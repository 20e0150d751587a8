import XCTest
@testable import SecureStorageLint

/// CredentialEvidence's reasons, and its cost on long blocks.
final class CredentialEvidenceTests: XCTestCase {
    /// The findings of `source` linted as one file.
    private func lint(_ source: String) -> [Finding] {
        SourceFileLinter().lint(path: "App/Store.swift", bytes: Array(source.utf8))
    }

    func testReasonsNameTheOrigin() {
        let findings = lint(
            """
            func save(secret value: String, url: URL) throws {
                let data = Data(value.utf8)
                try data.write(to: url)
            }
            """)
        XCTAssertEqual(findings.count, 1)
        XCTAssertTrue(findings.first?.message.contains("a parameter labelled `secret`") == true, "\(findings)")
    }

    func testAPushTokenIsNotACredential() {
        XCTAssertTrue(lint(#"func f(t: String) { UserDefaults.standard.set(t, forKey: "apnsDeviceToken") }"#).isEmpty)
    }

    /// Every look-back from a statement of a long block costs the statements looked at, not the
    /// block's length.
    func testLookBackOnALongBlockStaysLinear() {
        var source = "func f(token: String) {\n    let defaults = UserDefaults.standard\n"
        for index in 0..<2_000 {
            source += "    let value\(index) = Data(token.utf8)\n    defaults.set(value\(index), forKey: \"k\")\n"
        }
        source += "}\n"
        let start = Date()
        let findings = lint(source)
        XCTAssertEqual(findings.count, 2_000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "look-back must not be quadratic")
    }
}
