import Foundation
import CTestRunnerKeychain
import SecureStorageFoundation

/// The throw-away keychain a test process gets by default, so that the tests of a package that
/// uses SecureStorage never write to the user's real keychain.
///
/// A process is a test runner when its executable (`/proc/self/exe`: never `argv[0]` or the
/// environment, which a program launched from a test harness inherits) is an XCTest bundle
/// (`<Package>PackageTests.xctest`, which `swift test` builds and runs for XCTest and Swift
/// Testing alike on Linux) or SwiftPM's `swiftpm-testing-helper`. Before `main` runs, a
/// constructor (`CTestRunnerKeychain`) then makes a fresh directory in the temporary directory
/// (mode 0700) and sets it as `SECURE_STORAGE_HOME`, so that the test process and every process
/// it starts, from the first line of `setUp` on, use that keychain and never the user's. When
/// the process exits normally, the directory is removed, with the unlock sessions of the
/// keychains in it (their tickets in the runtime directory or the kernel keyring).
///
/// `SECURE_STORAGE_HOME` set before the process starts still wins (the project's own
/// `scripts/test` sets it), as does any explicit location; `SECURE_STORAGE_TEST_KEYCHAIN=user`
/// makes a test process use the user's default keychain after all. When no private directory
/// can be made, the default is a path under `/dev/null`, which nothing can create, rather than
/// the user's keychain.
enum TestRunnerKeychain {
    /// Whether the current process is a test runner.
    static var isTestRunner: Bool { secure_storage_is_test_runner() != 0 }

    /// Whether an executable at `path` is a test runner: the constructor's own rule.
    static func isTestRunner(executable path: String) -> Bool {
        secure_storage_is_test_runner_executable(path) != 0
    }

    /// The throw-away keychain's directory chosen for this process before `main` (a private
    /// directory, or the unusable path), or `nil` when the user's default applies.
    static let chosenHome: URL? = secure_storage_test_keychain_home().map {
        URL(fileURLWithPath: String(cString: $0), isDirectory: true)
    }

    /// The test keychain's directory when it was made (laid out like `SECURE_STORAGE_HOME`);
    /// touching it registers the removal of its unlock tickets at exit.
    static let home: URL? = {
        guard secure_storage_test_keychain_made() != 0, let chosenHome else { return nil }
        atexit { TestRunnerKeychain.removeHome() }
        return chosenHome
    }()

    /// Whether `SECURE_STORAGE_HOME` in `environment` is this process's throw-away keychain.
    static func isChosenHome(environment: [String: String]) -> Bool {
        guard let chosenHome, let configured = environment["SECURE_STORAGE_HOME"] else { return false }
        return configured == chosenHome.path
    }

    /// Removes the test keychain's unlock tickets and directory (at exit; the constructor's own
    /// handler removes whatever is left, without following links).
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
                let vaultID = UUID(uuidString: String(name.dropFirst("keychain-".count).dropLast(".anchor".count)))
            else { continue }
            try? store.remove(vaultID: vaultID)
        }
    }
}
