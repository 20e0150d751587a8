import Foundation

/// The throw-away keychain a test process gets by default, so that the tests of a package that
/// uses SecureStorage never write to the user's real keychain.
///
/// A process is a test runner when its executable is an XCTest bundle (`<Package>PackageTests.xctest`,
/// which `swift test` builds and runs for XCTest and Swift Testing alike on Linux), Apple's
/// `xctest` runner, or SwiftPM's `swiftpm-testing-helper`, or when Xcode's test variables
/// (`XCTestConfigurationFilePath`, `XCTestSessionIdentifier`, `XCTestBundlePath`) are set. The
/// test keychain is then a fresh directory in the temporary directory, created with mode 0700
/// on first use and removed when the process exits normally.
///
/// `SECURE_STORAGE_HOME` still wins (the project's own `scripts/test` sets it), as does any
/// explicit location; `SECURE_STORAGE_TEST_KEYCHAIN=user` makes a test process use the user's
/// default keychain after all.
enum TestRunnerKeychain {
    /// Whether the current process is a test runner.
    static let isTestRunner: Bool = isTestRunner(
        executables: [CommandLine.arguments.first ?? "", (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""],
        environment: ProcessInfo.processInfo.environment)

    /// Whether a process with these executable paths (`argv[0]`, the resolved executable) and
    /// environment is a test runner.
    static func isTestRunner(executables: [String], environment: [String: String]) -> Bool {
        let names = executables.map { URL(fileURLWithPath: $0).lastPathComponent }
        if names.contains(where: { $0.hasSuffix(".xctest") || $0 == "xctest" || $0 == "swiftpm-testing-helper" }) { return true }
        return ["XCTestConfigurationFilePath", "XCTestSessionIdentifier", "XCTestBundlePath"].contains { environment[$0] != nil }
    }

    /// Whether the test keychain replaces the default in `environment`: in a test runner,
    /// unless `SECURE_STORAGE_HOME` is set or `SECURE_STORAGE_TEST_KEYCHAIN` is `user`.
    static func applies(environment: [String: String], isTestRunner: Bool) -> Bool {
        guard isTestRunner else { return false }
        if let home = environment["SECURE_STORAGE_HOME"], !home.isEmpty { return false }
        return environment["SECURE_STORAGE_TEST_KEYCHAIN"] != "user"
    }

    /// The test keychain's directory (laid out like `SECURE_STORAGE_HOME`), made on first use;
    /// `nil` when no private directory can be made, in which case the default is refused
    /// rather than the user's keychain used.
    static let home: URL? = {
        let template = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("secure-storage-test-keychain.XXXXXX").path
        var bytes = Array(template.utf8CString)
        // mkdtemp creates the directory with mode 0700, under a name nobody could have chosen first.
        guard let made = mkdtemp(&bytes) else { return nil }
        let path = String(cString: made)
        atexit { TestRunnerKeychain.removeHome() }
        return URL(fileURLWithPath: path, isDirectory: true)
    }()

    /// Removes the test keychain's directory (at exit).
    private static func removeHome() {
        guard let home else { return }
        try? FileManager.default.removeItem(at: home)
    }
}
