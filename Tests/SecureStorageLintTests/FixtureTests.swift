import Foundation
import XCTest
@testable import SecureStorageLint

/// Every rule against its positive and negative fixtures (Fixtures/<rule>/): each finding must be
/// announced by an `// expect: rule[, rule]` comment on its line, and every announced finding
/// must be found. Negative fixtures announce none.
final class FixtureTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Lints one fixture (path relative to Fixtures/, as the rules see it) and compares.
    func check(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = Self.fixtures.appendingPathComponent(relativePath)
        let bytes = Array(try Data(contentsOf: url))
        let found = SourceFileLinter().lint(path: relativePath, bytes: bytes)
        let actual = Set(found.map { "\($0.position.line): \($0.rule.rawValue)" })
        XCTAssertEqual(
            actual, Self.expectations(in: String(decoding: bytes, as: UTF8.self)),
            "\(relativePath):\n"
                + found.map { "\($0.position.line):\($0.position.column) \($0.rule.rawValue): \($0.message)" }.joined(
                    separator: "\n"),
            file: file, line: line)
    }

    /// Lints every `.swift` file under a fixture directory (relative to Fixtures/) as one module,
    /// so that rules see what the other files declare, and compares each file's findings with
    /// its `// expect:` comments.
    func checkModule(_ relativeDirectory: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = Self.fixtures.appendingPathComponent(relativeDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertFalse(names.isEmpty, "no Swift files in \(relativeDirectory)", file: file, line: line)
        let files = try names.map { name in
            (
                path: "\(relativeDirectory)/\(name)",
                bytes: Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            )
        }
        let found = SourceFileLinter().lint(module: files)
        for source in files {
            let mine = found.filter { $0.file == source.path }
            XCTAssertEqual(
                Set(mine.map { "\($0.position.line): \($0.rule.rawValue)" }),
                Self.expectations(in: String(decoding: source.bytes, as: UTF8.self)),
                "\(source.path):\n"
                    + mine.map { "\($0.position.line):\($0.position.column) \($0.rule.rawValue): \($0.message)" }
                    .joined(separator: "\n"),
                file: file, line: line)
        }
    }

    static func expectations(in text: String) -> Set<String> {
        var expected: Set<String> = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let marker = line.range(of: "// expect: ") ?? line.range(of: "// expect-next-line: ")
            guard let marker else { continue }
            let target = line[marker.lowerBound...].hasPrefix("// expect-next-line: ") ? index + 2 : index + 1
            for rule in line[marker.upperBound...].split(separator: ",") {
                expected.insert("\(target): \(rule.trimmingCharacters(in: .whitespaces))")
            }
        }
        return expected
    }

    func testEveryRuleHasPositiveAndNegativeFixtures() throws {
        for rule in RuleID.allCases where rule != .unknownSuppression {
            let positive = try String(
                contentsOf: Self.fixtures.appendingPathComponent("\(rule.rawValue)/positive.swift"), encoding: .utf8)
            XCTAssertTrue(Self.expectations(in: positive).contains { $0.hasSuffix(" \(rule.rawValue)") }, rule.rawValue)
            let negative = try String(
                contentsOf: Self.fixtures.appendingPathComponent("\(rule.rawValue)/negative.swift"), encoding: .utf8)
            XCTAssertTrue(Self.expectations(in: negative).isEmpty, rule.rawValue)
        }
    }

    func testDeleteThenAdd() throws {
        try check("delete-then-add/positive.swift")
        try check("delete-then-add/negative.swift")
    }

    /// Aliases in one file, a query builder in another, the delete-then-add in a third.
    func testDeleteThenAddAcrossFilesThroughAliasesAndBuilders() throws {
        try checkModule("delete-then-add/module-aliases-builders")
    }

    /// Deleting and adding through the module's functions, the deleting one through another.
    func testDeleteThenAddThroughModuleFunctions() throws {
        try checkModule("delete-then-add/module-wrapper")
    }

    /// KeychainSwift's shape: computed aliases, `delete(key)` then an account `keyWithPrefix(key)`.
    func testDeleteThenAddWithPrefixedKey() throws {
        try checkModule("delete-then-add/module-prefixed-key")
    }

    func testUncheckedStatus() throws {
        try check("unchecked-status/positive.swift")
        try check("unchecked-status/negative.swift")
    }

    func testImplicitAccessibility() throws {
        try check("implicit-accessibility/positive.swift")
        try check("implicit-accessibility/negative.swift")
    }

    func testReturnDataMatchAll() throws {
        try check("return-data-match-all/positive.swift")
        try check("return-data-match-all/negative.swift")
    }

    func testAccessibleAlways() throws {
        try check("accessible-always/positive.swift")
        try check("accessible-always/negative.swift")
    }

    func testInsecureSecretStorage() throws {
        try check("insecure-secret-storage/positive.swift")
        try check("insecure-secret-storage/negative.swift")
        try check("insecure-secret-storage/file-name/AuthManager.swift")
        try check("insecure-secret-storage/file-name/AuthManagerTests/AuthManagerTests.swift")
    }

    func testInsecureSecretStorageKnowsTheModulesCredentialTypesAndKeys() throws {
        try checkModule("insecure-secret-storage/module-credentials")
    }

    func testUnencryptedDatabase() throws {
        try check("unencrypted-database/positive.swift")
        try check("unencrypted-database/negative.swift")
        try check("unencrypted-database/encrypted/EncryptedRealm.swift")
        try check("unencrypted-database/encrypted/SQLCipherStore.swift")
        try check("unencrypted-database/system-sqlite/PragmaKeyIgnored.swift")
        try check("unencrypted-database/encrypted/UnrelatedKeyName.swift")
        try check("unencrypted-database/encrypted/RealmKeyAndCoreData.swift")
    }

    func testExposedSecret() throws {
        try check("exposed-secret/positive.swift")
        try check("exposed-secret/negative.swift")
    }

    func testHardcodedSecret() throws {
        try check("hardcoded-secret/positive.swift")
        try check("hardcoded-secret/negative.swift")
        try check("hardcoded-secret/chosen-positive.swift")
        try check("hardcoded-secret/chosen-negative.swift")
        try check("hardcoded-secret/public-keys-negative.swift")
        try check("hardcoded-secret/LoginTests/LoginTests.swift")
    }

    func testLoggedSecret() throws {
        try check("logged-secret/positive.swift")
        try check("logged-secret/negative.swift")
        try check("logged-secret/by-name-positive.swift")
        try check("logged-secret/by-name-negative.swift")
    }

    func testSecItemOnMainActor() throws {
        try check("secitem-on-main-actor/positive.swift")
        try check("secitem-on-main-actor/negative.swift")
        try checkModule("secitem-on-main-actor/module-subclasses")
    }
}
