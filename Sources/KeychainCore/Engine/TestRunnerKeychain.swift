#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LockedState

/// The throw-away keychain a test process gets by default, so that the tests of a package that
/// uses SecureStorage never write to the user's real keychain.
///
/// A process is a test runner when its executable is an XCTest bundle (`<Package>PackageTests.xctest`,
/// which `swift test` builds and runs for XCTest and Swift Testing alike on Linux), Apple's
/// `xctest` runner, or SwiftPM's `swiftpm-testing-helper`, or when Xcode's test variables
/// (`XCTestConfigurationFilePath`, `XCTestSessionIdentifier`, `XCTestBundlePath`) are set. The
/// test keychain is then a fresh directory in the temporary directory, created with mode 0700
/// on first use and removed, with the unlock sessions of the keychains in it (their tickets in
/// the runtime directory or the kernel keyring), when the process exits normally.
///
/// When the test keychain is made, it is also exported as `SECURE_STORAGE_HOME` in the process
/// environment, so that the processes the test starts (the `keychain` tool, the app's own
/// executable) inherit it and use the same throw-away keychain instead of the user's. This is
/// done once, when the default keychain is first used; like any `setenv`, it should not race
/// with other threads changing the environment.
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

    /// The test keychain's directory (laid out like `SECURE_STORAGE_HOME`), made on first use and
    /// exported as `SECURE_STORAGE_HOME` for child processes; `nil` when no private directory
    /// can be made, in which case the default is refused rather than the user's keychain used
    /// (and children are given the same unusable path).
    static let home: URL? = {
        let template = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("secure-storage-test-keychain.XXXXXX").path
        var bytes = Array(template.utf8CString)
        // mkdtemp creates the directory with mode 0700, under a name nobody could have chosen first.
        let made = mkdtemp(&bytes).map { URL(fileURLWithPath: String(cString: $0), isDirectory: true) }
        export((made ?? unusableHome).path)
        if made != nil { atexit { TestRunnerKeychain.removeHome() } }
        return made
    }()

    /// The location used when no private directory can be made: one that cannot be opened.
    static let unusableHome = URL(fileURLWithPath: "/nonexistent/secure-storage-test-keychain", isDirectory: true)

    /// The `SECURE_STORAGE_HOME` this process set for its children, if it did.
    private static let exported = Locked<String?>(nil)

    /// Sets `SECURE_STORAGE_HOME` to `path` (only ever from ``home``'s one-time initialisation).
    private static func export(_ path: String) {
        exported.withLock { $0 = path }
        setenv("SECURE_STORAGE_HOME", path, 1)
    }

    /// Whether `environment`'s `SECURE_STORAGE_HOME` is the one this process exported for its test keychain.
    static func isExported(environment: [String: String]) -> Bool {
        guard let home = environment["SECURE_STORAGE_HOME"] else { return false }
        return exported.withLock { $0 == home }
    }

    /// Removes the test keychain's directory and the unlock tickets of its keychains (at exit).
    private static func removeHome() {
        guard let home else { return }
        removeUnlockTickets(in: home)
        try? FileManager.default.removeItem(at: home)
    }

    /// Removes the unlock ticket (file or keyring key) of each keychain in `home`, found by the
    /// format anchors beside its device key (`state/keychain-<vault id>.anchor`), so that no
    /// ticket outlives the throw-away keychain it opens.
    static func removeUnlockTickets(in home: URL) {
        let location = KeychainLocation(directory: home)
        let state = location.deviceKeyURL.deletingLastPathComponent()
        let store = UnlockTicketStore(location)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? [] {
            guard name.hasPrefix("keychain-"), name.hasSuffix(".anchor"),
                  let vaultID = UUID(uuidString: String(name.dropFirst("keychain-".count).dropLast(".anchor".count))) else { continue }
            store.remove(vaultID: vaultID)
        }
    }
}
