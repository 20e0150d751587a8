/// Which paths hold test code: test targets, fixtures and mocks, which write bad data on purpose.
///
/// `keychain-lint` skips them when it searches a directory unless `--include-tests` is given (a
/// file named on the command line is always linted), and the rules that judge by intent
/// (credentials in files, hard-coded credentials) stay silent in them when they are linted.
package enum TestCodePaths {
    /// Whether a directory of this name holds test code: `Tests`, `AppTests`, `AppUITests`,
    /// `WordPressTest`, `Specs`, `Fixtures`, `Mocks`, `TestSupport`, `TestHelpers`.
    package static func isTestDirectory(_ name: Substring) -> Bool {
        name == "Tests" || name == "Test" || name.hasSuffix("Tests") || name.hasSuffix("Test")
            || name == "Specs" || name.hasSuffix("Specs") || name == "Fixtures" || name.hasSuffix("Fixtures")
            || name == "Mocks" || name.hasSuffix("Mocks") || name.hasPrefix("TestSupport")
            || name.hasPrefix("TestHelper") || name.hasPrefix("TestUtilit") || name == "UnitTests"
    }

    /// Whether a file of this name is test code: `LoginTests.swift`, `LoginTest.swift`,
    /// `LoginSpec.swift`, `MockKeychain.swift`, `KeychainMock.swift`.
    package static func isTestFileName(_ name: Substring) -> Bool {
        let stem = name.hasSuffix(".swift") ? name.dropLast(6) : name
        return stem.hasSuffix("Tests") || stem.hasSuffix("Test") || stem.hasSuffix("Spec") || stem.hasSuffix("Specs")
            || stem.hasPrefix("Mock") || stem.hasSuffix("Mock") || stem.hasSuffix("Mocks") || stem.hasSuffix("Stub")
            || stem.hasSuffix("Stubs") || stem.hasSuffix("Fixtures")
    }

    /// Whether a path (relative or absolute) is test code by any of its directories or its name.
    package static func isTestCode(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        if components.dropLast().contains(where: isTestDirectory) { return true }
        return components.last.map(isTestFileName) ?? false
    }
}
