import Foundation
import XCTest

/// In a test process, the default keychain is a throw-away one (issue 35): a dependent
/// package's tests never write to the user's real keychain.
final class TestRunnerDefaultKeychainTests: CLITestCase {
    private let sample = CLITestCase.builtExecutable("secure-storage-sample")

    func testATestRunnerGetsAThrowAwayKeychainAndANormalProcessTheUsersDefault() throws {
        let (userHome, changes) = try runnerEnvironment()
        // The sample app under a test bundle's name, as `swift test` runs `…PackageTests.xctest`.
        let runner = scratch.appendingPathComponent("DependentPackageTests.xctest")
        // a copy: the executable's own name counts, not a link's
        try FileManager.default.copyItem(at: sample, to: runner)

        let location = try run(["location"], input: Data(), executable: runner, changing: changes)
        XCTAssertStatus(location, 0)
        let path = location.stdout.trimmingCharacters(in: .newlines)
        XCTAssertFalse(path.hasPrefix(userHome.path), "a test runner's default is not the user's keychain: \(path)")
        XCTAssertTrue(path.hasPrefix(FileManager.default.temporaryDirectory.path) || path.hasPrefix("/tmp"), path)
        XCTAssertTrue(path.contains("secure-storage-test-keychain"), path)

        let written = try run(
            ["set", "com.acme.app", "token", "v4lue"], input: Data(), executable: runner, changing: changes)
        XCTAssertStatus(written, 0)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: userHome.appendingPathComponent(".local/share/secure-storage").path),
            "the test runner wrote to the user's keychain")
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent()
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory.path),
            "the throw-away keychain is removed at exit: \(directory.path)")

        // The same program under its own name: the user's default keychain.
        let normal = try run(["location"], input: Data(), executable: sample, changing: changes)
        XCTAssertEqual(
            normal.stdout, userHome.appendingPathComponent(".local/share/secure-storage/keychain.db").path + "\n")

        // SECURE_STORAGE_HOME still wins in a test runner, and the opt-out gives the user's default.
        var explicit = changes
        explicit["SECURE_STORAGE_HOME"] = home.path
        XCTAssertEqual(
            try run(["location"], input: Data(), executable: runner, changing: explicit).stdout,
            home.appendingPathComponent("data/keychain.db").path + "\n")
        var optedOut = changes
        optedOut["SECURE_STORAGE_TEST_KEYCHAIN"] = "user"
        XCTAssertEqual(
            try run(["location"], input: Data(), executable: runner, changing: optedOut).stdout, normal.stdout)
    }

    func testTheThrowAwayKeychainDirectoryIsPrivate() throws {
        let (_, changes) = try runnerEnvironment()
        let runner = scratch.appendingPathComponent("Other.xctest")
        // a copy: the executable's own name counts, not a link's
        try FileManager.default.copyItem(at: sample, to: runner)
        // `keys` opens the keychain; the process lists the directory's mode before it exits.
        let result = try run(["directory-mode"], input: Data(), executable: runner, changing: changes)
        XCTAssertStatus(result, 0)
        XCTAssertEqual(result.stdout, "700\n")
    }
}

extension CLITestCase {
    /// A user home with no keychain, and the environment of a process with no explicit location
    /// (what a test runner's process sees when nothing chose a keychain for it).
    func runnerEnvironment() throws -> (home: URL, changes: [String: String?]) {
        let userHome = scratch.appendingPathComponent("user-home")
        try FileManager.default.createDirectory(at: userHome, withIntermediateDirectories: true)
        return (
            userHome,
            [
                "SECURE_STORAGE_HOME": nil, "HOME": userHome.path, "XDG_DATA_HOME": nil, "XDG_STATE_HOME": nil,
                "XCTestConfigurationFilePath": nil, "XCTestSessionIdentifier": nil, "XCTestBundlePath": nil,
                "SECURE_STORAGE_TEST_KEYCHAIN": nil
            ]
        )
    }
}
