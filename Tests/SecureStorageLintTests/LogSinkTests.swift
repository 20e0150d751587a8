import Foundation
import XCTest
@testable import SecureStorageLint

/// Which `os_log` arguments the unified log keeps public, and that judging sinks stays linear.
final class LogSinkTests: XCTestCase {
    func testOSLogFormatPrivacyFollowsApplesDefaults() {
        // Strings and objects are private unless `{public}`; scalars public unless `{private}`.
        XCTAssertEqual(OSLogFormat.arguments(of: "%@ %s %d %f"), [false, false, true, true])
        XCTAssertEqual(OSLogFormat.arguments(of: "%{public}@ %{private}d %{sensitive}s"), [true, false, false])
        XCTAssertEqual(OSLogFormat.arguments(of: "%{public, uint64}llu and %{public}.*s"), [true, true, true])
        XCTAssertEqual(OSLogFormat.arguments(of: "100%% done, %ld items"), [true])
        XCTAssertEqual(OSLogFormat.arguments(of: "%"), [])
    }

    /// Many sinks in one file: each is judged on its own nodes (a `filter` on a syntax collection
    /// once copied the whole tree for each `print`, which made this quadratic).
    func testManySinksStayLinear() {
        let source = String(repeating: "print(\"x\", token.count)\n", count: 16_000) + "print(token)\n"
        let start = Date()
        let found = SourceFileLinter().lint(path: "Sinks.swift", bytes: Array(source.utf8))
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "16,000 print calls took too long")
        XCTAssertEqual(found.map(\.rule), [.loggedSecret])
        XCTAssertEqual(found.first?.position.line, 16_001)
    }
}
