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

    func testThisTestProcessIsATestRunner() {
        XCTAssertTrue(TestRunnerKeychain.isTestRunner, "the XCTest bundle running this test: \(CommandLine.arguments.first ?? "")")
    }
}
