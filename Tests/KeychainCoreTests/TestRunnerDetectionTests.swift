import Foundation
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Which processes are test runners, whose default keychain is a throw-away one (issue 35).
final class TestRunnerDetectionTests: XCTestCase {
    /// Only the executable's own name counts (review 35b, F4): not `argv[0]`, not Xcode's
    /// variables, which programs started from a test harness or Xcode inherit.
    func testTestRunnersAreRecognisedByTheirExecutableOnly() {
        for executable in ["/x/.build/debug/AppPackageTests.xctest", "/usr/bin/swiftpm-testing-helper"] {
            XCTAssertTrue(TestRunnerKeychain.isTestRunner(executable: executable), executable)
        }
        for executable in [
            "/usr/bin/app", "/usr/bin/xctest-report", "/opt/.xctest", "/usr/bin/xctest", "/x/App.xctest/app"
        ] {
            XCTAssertFalse(TestRunnerKeychain.isTestRunner(executable: executable), executable)
        }
    }

    /// Review 35b, F2: with no private directory, the test default is a path nothing can
    /// create, not even root (before, root created `/nonexistent/…` and kept it for every run).
    func testTheUnusableTestHomeCannotBeCreatedEvenByRoot() {
        XCTAssertThrowsError(
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: "/dev/null/secure-storage-test-keychain/data"),
                withIntermediateDirectories: true))
    }

    /// Review 35, F3: the throw-away keychain's unlock tickets (file or kernel keyring key) go
    /// with it at exit, found by the format anchors in its state directory.
    func testRemovingTheTestKeychainRemovesItsUnlockTickets() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-runner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = KeychainLocation(directory: directory)
        let options = KeychainOptions(
            passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: "TEAM.test.app", tpm: nil)
        let keychain = try Keychain(location: location, options: options)
        try keychain.setPassphrase("p")
        guard (try? UnlockTicketStore(location).prepare()) != nil else {
            throw XCTSkip("no place for unlock sessions here")
        }
        try keychain.unlock(passphrase: "p", keepingSessionFor: nil)
        XCTAssertNotNil(try Keychain(location: location, options: options).unlockSession)
        TestRunnerKeychain.removeUnlockTickets(in: directory)
        XCTAssertNil(try Keychain(location: location, options: options).unlockSession, "the ticket is gone")
        XCTAssertEqual(try Keychain(location: location, options: options).lockState, .beforeFirstUnlock)
    }

    func testThisTestProcessIsATestRunner() {
        XCTAssertTrue(
            TestRunnerKeychain.isTestRunner, "the XCTest bundle running this test: \(CommandLine.arguments.first ?? "")"
        )
        // scripts/test sets SECURE_STORAGE_HOME, which wins: no throw-away keychain was chosen.
        if ProcessInfo.processInfo.environment["SECURE_STORAGE_HOME"].map({ !$0.isEmpty }) == true,
            !KeychainLocation.isTestKeychainDefault
        {
            XCTAssertNil(TestRunnerKeychain.home)
        }
    }
}
