import XCTest
@testable import SecureStorageLint

/// Every rule has a descriptor with an explanation, a distinct name and an example.
final class RuleCatalogTests: XCTestCase {
    func testEveryRuleIsDescribedOnceInOrder() {
        XCTAssertEqual(RuleCatalog.all.map(\.id), RuleID.allCases)
        XCTAssertEqual(Set(RuleCatalog.all.map(\.name)).count, RuleCatalog.all.count)
        for (index, rule) in RuleCatalog.all.enumerated() {
            XCTAssertEqual(RuleCatalog.index(of: rule.id), index)
            XCTAssertGreaterThan(rule.explanation.count, 200, rule.id.rawValue)
            XCTAssertFalse(rule.summary.isEmpty)
            XCTAssertFalse(rule.example.isEmpty)
            XCTAssertFalse(rule.fix.isEmpty)
            XCTAssertFalse(rule.explanation.contains("\n"), "one paragraph: \(rule.id.rawValue)")
        }
    }

    func testSeveritiesAreOrdered() {
        XCTAssertLessThan(Severity.note, .warning)
        XCTAssertLessThan(Severity.warning, .error)
        XCTAssertEqual(RuleCatalog.descriptor(of: .hardcodedSecret).severity, .error)
        XCTAssertEqual(RuleCatalog.descriptor(of: .implicitAccessibility).severity, .note)
    }
}
