/// Which paths hold test code: test targets, fixtures and mocks, which write bad data on purpose.
///
/// `keychain-lint` skips them when it searches a directory unless `--include-tests` is given (a
/// file named on the command line is always linted), and the rules that judge by intent
/// (credentials in files, hard-coded credentials) stay silent in them when they are linted.
/// Only the path below the directory a file was found under counts (a checkout at `/ci/Test/`
/// is not test code), and names must say test as a word: `SpeedTest`, `Contest`, `Mockup` and
/// `Attestation` are production code.
package enum TestCodePaths {
    /// Whether a directory of this name holds test code: `Tests`, `AppTests`, `AppUITests`,
    /// `Specs`, `AppSpecs`, `Fixtures`, `Mocks`, `TestSupport`, `TestHelpers`.
    package static func isTestDirectory(_ name: Substring) -> Bool {
        let words = CredentialNames.words(of: String(name))
        guard let last = words.last else { return false }
        if ["tests", "specs", "fixtures", "mocks"].contains(last) { return true }
        return name == "Test" || name == "UnitTests"
            || words.first == "test" && words.count >= 2
                && ["support", "helpers", "helper", "utilities", "utils", "doubles", "plans"].contains(words[1])
    }

    /// Whether a file of this name is test code: `LoginTests.swift`, `LoginSpec.swift`,
    /// `MockKeychain.swift`, `KeychainMock.swift`, `KeychainStub.swift`.
    package static func isTestFileName(_ name: Substring) -> Bool {
        let stem = name.hasSuffix(".swift") ? name.dropLast(6) : name
        let words = CredentialNames.words(of: String(stem))
        guard let first = words.first, let last = words.last else { return false }
        return ["tests", "spec", "specs", "mock", "mocks", "stub", "stubs", "fixtures"].contains(last)
            || (first == "mock" && words.count >= 2)
    }

    /// Whether a file of this name inside a package target is a mock (`MockLoginState.swift`,
    /// `KeychainMock.swift`): targets hold previews' mocks, but a `…Tests`, `…Spec` or `…Stub`
    /// file there is production code named oddly.
    static func isMockFileName(_ name: Substring) -> Bool {
        let stem = name.hasSuffix(".swift") ? name.dropLast(6) : name
        let words = CredentialNames.words(of: String(stem))
        guard words.count >= 2, let first = words.first, let last = words.last else { return false }
        return first == "mock" || last == "mock" || last == "mocks"
    }

    /// Whether a path (as found, relative or absolute) is test code by any of its directories or
    /// its name; inside a package target (`Sources/<Target>/`) only directories and mocks count.
    package static func isTestCode(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        if components.dropLast().contains(where: isTestDirectory) { return true }
        if components.dropLast().contains("Sources") { return components.last.map(isMockFileName) ?? false }
        return components.last.map(isTestFileName) ?? false
    }

    /// Whether `file` is test code by its path below the directory it was found under (that
    /// directory's own name included, so a test target named on the command line is test code,
    /// and the directories above it never count).
    package static func isTestCode(_ file: String, roots: [String]) -> Bool {
        isTestCode(ModuleMap.pathBelowRoot(of: file, roots: roots))
    }
}
