import XCTest
@testable import SecureStorageLint

/// The four comment forms, `all`, and the finding a misspelt rule id gets.
final class SuppressionTests: XCTestCase {
    /// The statuses ignored on lines 3 and 4 of `body` (each line a `SecItemDelete(q)` or a comment).
    func lint(_ source: String) -> [String] {
        SourceFileLinter().lint(path: "Sample.swift", bytes: Array(source.utf8)).map {
            "\($0.position.line) \($0.rule.rawValue)"
        }
    }

    func testUnsuppressedFindingsAreReported() {
        XCTAssertEqual(
            lint("func f(q: CFDictionary) {\n    SecItemDelete(q)\n    SecItemDelete(q)\n}\n"),
            ["2 unchecked-status", "3 unchecked-status"])
    }

    func testNextLineSuppressesOnlyTheNextLine() {
        let source = """
            func f(q: CFDictionary) {
                // keychain-lint:disable-next-line unchecked-status -- logged out either way
                SecItemDelete(q)
                SecItemDelete(q)
            }
            """
        XCTAssertEqual(lint(source), ["4 unchecked-status"])
    }

    func testSameLineAndBlockComments() {
        let source = """
            func f(q: CFDictionary) {
                SecItemDelete(q) // keychain-lint:disable-line unchecked-status
                SecItemDelete(q) /* keychain-lint:disable-line all */
                SecItemDelete(q) // keychain-lint:disable-line delete-then-add
            }
            """
        XCTAssertEqual(lint(source), ["4 unchecked-status"])
    }

    func testRegionsEndAtTheMatchingEnable() {
        let source = """
            func f(q: CFDictionary) {
                // keychain-lint:disable unchecked-status, delete-then-add
                SecItemDelete(q)
                SecItemDelete(q)
                // keychain-lint:enable unchecked-status
                SecItemDelete(q)
            }
            """
        XCTAssertEqual(lint(source), ["6 unchecked-status"])
    }

    func testWholeFile() {
        let source =
            "func f(q: CFDictionary) {\n    SecItemDelete(q)\n}\n// keychain-lint:disable-file unchecked-status\n"
        XCTAssertEqual(lint(source), [])
    }

    func testAMisspeltRuleIsReportedAndSuppressesNothing() {
        let source = """
            func f(q: CFDictionary) {
                // keychain-lint:disable-next-line unchecked-stauts -- typo
                SecItemDelete(q)
            }
            """
        XCTAssertEqual(lint(source), ["2 unknown-suppression", "3 unchecked-status"])
        let directive = "// keychain-lint:silence unchecked-status\nlet x = 1\n"
        XCTAssertEqual(lint(directive), ["1 unknown-suppression"])
    }

    func testProseAndStringsAreNotDirectives() {
        let source = """
            /// Write `// keychain-lint:disable-next-line unchecked-status` above a call to silence it.
            func f(q: CFDictionary) {
                let text = "// keychain-lint:disable-line unchecked-status"
                SecItemDelete(q); print(text) // see keychain-lint: the docs
            }
            """
        XCTAssertEqual(lint(source), ["4 unchecked-status"])
    }

    func testUnknownSuppressionCannotBeSuppressed() {
        let source = "// keychain-lint:disable-file all\n// keychain-lint:disable-line nonsense\n"
        XCTAssertEqual(lint(source), ["2 unknown-suppression"])
    }
}
