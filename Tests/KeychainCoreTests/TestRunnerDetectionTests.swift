import Foundation
import XCTest
@testable import KeychainCore

/// Which processes are test runners, whose default keychain is a throw-away one (issue 35).
final class TestRunnerDetectionTests: XCTestCase {
    func testTestRunnersAreRecognised() {
        for executable in ["/x/.build/debug/AppPackageTests.xctest", "/Applications/Xcode.app/Contents/Developer/usr/bin/xctest",
                           "/usr/bin/swiftpm-testing-helper"] {
            XCTAssertTrue(TestRunnerKeychain.isTestRunner(executables: [executable], environment: [:]), executable)
        }
        XCTAssertTrue(TestRunnerKeychain.isTestRunner(executables: ["/usr/bin/app"], environment: ["XCTestSessionIdentifier": "1"]))
        XCTAssertFalse(TestRunnerKeychain.isTestRunner(executables: ["/usr/bin/app", "/usr/bin/app"], environment: ["HOME": "/home/u"]))
        XCTAssertFalse(TestRunnerKeychain.isTestRunner(executables: ["/usr/bin/xctest-report"], environment: [:]))

        XCTAssertTrue(TestRunnerKeychain.applies(environment: [:], isTestRunner: true))
        XCTAssertFalse(TestRunnerKeychain.applies(environment: [:], isTestRunner: false))
        XCTAssertFalse(TestRunnerKeychain.applies(environment: ["SECURE_STORAGE_HOME": "/srv/k"], isTestRunner: true))
        XCTAssertTrue(TestRunnerKeychain.applies(environment: ["SECURE_STORAGE_HOME": ""], isTestRunner: true))
        XCTAssertFalse(TestRunnerKeychain.applies(environment: ["SECURE_STORAGE_TEST_KEYCHAIN": "user"], isTestRunner: true))
    }

    /// Review 35, F3: the throw-away keychain's unlock tickets (file or kernel keyring key) go
    /// with it at exit, found by the format anchors in its state directory.
    func testRemovingTheTestKeychainRemovesItsUnlockTickets() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-runner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = KeychainLocation(directory: directory)
        let options = KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: "TEAM.test.app", tpm: nil)
        let keychain = try Keychain(location: location, options: options)
        try keychain.setPassphrase("p")
        guard (try? UnlockTicketStore(location).prepare()) != nil else { throw XCTSkip("no place for unlock sessions here") }
        try keychain.unlock(passphrase: "p", keepingSessionFor: nil)
        XCTAssertNotNil(try Keychain(location: location, options: options).unlockSession)
        TestRunnerKeychain.removeUnlockTickets(in: directory)
        XCTAssertNil(try Keychain(location: location, options: options).unlockSession, "the ticket is gone")
        XCTAssertEqual(try Keychain(location: location, options: options).lockState, .beforeFirstUnlock)
    }

    func testThisTestProcessIsATestRunner() {
        XCTAssertTrue(TestRunnerKeychain.isTestRunner, "the XCTest bundle running this test: \(CommandLine.arguments.first ?? "")")
    }
}
