import Foundation
import SecureStorageFoundation
import XCTest
import AuthenticationTestSupport
@_spi(Testing) @testable import KeychainCore

/// The built-in PIN authenticator: verifier with scrypt, attempts with backoff that survive a
/// restart, prompts, and use as a keychain's authenticator.
final class PINAuthenticatorTests: XCTestCase {
    var test: TestKeychain!
    let clock = ManualClock()
    let answers = Locked<[String?]>([])
    let prompts = Locked(0)

    override func setUpWithError() throws { test = try TestKeychain() }

    func makeAuthenticator() throws -> PINAuthenticator {
        try PINAuthenticator(
            keychain: test.location, parameters: .insecureForTestingOnly,
            attemptPolicy: PINAttemptPolicy(freeAttempts: 3, baseDelay: 30, maximumDelay: 120),
            clock: clock.reading
        ) { [answers, prompts] _ in
            prompts.withLock { $0 += 1 }
            return answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }

    func testBackoffAfterFreeAttemptsSurvivesRestart() throws {
        let pin = try makeAuthenticator()
        XCTAssertFalse(pin.isPINSet)
        XCTAssertEqual(pin.availableMethods, [])
        try pin.setPIN("482916", in: test.keychain)
        XCTAssertEqual(pin.availableMethods, [.passcode])
        XCTAssertNil(pin.enrollmentState)
        let mode = try FileManager.default.attributesOfItem(atPath: pin.fileURL.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        XCTAssertFalse(try Data(contentsOf: pin.fileURL).range(of: Data("482916".utf8)) != nil)

        for attempt in 1...3 {
            XCTAssertFalse(try pin.verify("000000"), "attempt \(attempt)")
        }
        XCTAssertEqual(try pin.remainingLockout(), 0, "three free attempts")
        XCTAssertFalse(try pin.verify("000000"))
        XCTAssertEqual(try pin.remainingLockout(), 30)
        XCTAssertKeychainError(.authFailed, try pin.verify("482916"), "even the right PIN waits")

        let restarted = try makeAuthenticator()
        XCTAssertEqual(try restarted.failedAttempts(), 4)
        XCTAssertEqual(try restarted.remainingLockout(), 30, "a restart does not reset the wait")
        clock.advance(30)
        XCTAssertFalse(try restarted.verify("111111"))
        XCTAssertEqual(try restarted.remainingLockout(), 60, "the wait doubles")
        clock.advance(60)
        XCTAssertFalse(try restarted.verify("111111"))
        XCTAssertEqual(try restarted.remainingLockout(), 120)
        clock.advance(120)
        XCTAssertFalse(try restarted.verify("111111"))
        XCTAssertEqual(try restarted.remainingLockout(), 120, "capped at the maximum")
        clock.advance(-500)
        XCTAssertEqual(try restarted.remainingLockout(), 120, "setting the clock back does not shorten it")
        clock.advance(620)
        XCTAssertTrue(try restarted.verify("482916"))
        XCTAssertEqual(try restarted.failedAttempts(), 0)
        XCTAssertEqual(try restarted.remainingLockout(), 0)
    }

    func testChangingThePINNeedsTheCurrentOne() throws {
        let pin = try makeAuthenticator()
        try pin.setPIN("1234", in: test.keychain)
        XCTAssertKeychainError(.authFailed, try pin.setPIN("5678", in: test.keychain))
        XCTAssertKeychainError(.authFailed, try pin.setPIN("5678", current: "9999", in: test.keychain))
        try pin.setPIN("5678", current: "1234", in: test.keychain)
        XCTAssertTrue(try pin.verify("5678"))
        XCTAssertFalse(try pin.verify("1234"))
        XCTAssertKeychainError(.invalidParameter, try pin.setPIN("", current: "5678", in: test.keychain))
    }

    func testDamagedFileIsReportedNotCrashed() throws {
        let pin = try makeAuthenticator()
        try pin.setPIN("1234", in: test.keychain)
        try Data("garbage".utf8).write(to: pin.fileURL)
        XCTAssertKeychainError(.integrityViolation, try pin.verify("1234"))
    }

    func testGuardsUserPresenceItemsAndRefusesBiometryOnes() throws {
        let pin = try makeAuthenticator()
        try pin.setPIN("2468", in: test.keychain)
        let keychain = test.keychain
        keychain.authenticator = pin
        try keychain.add(password("bank", "alice").protected(by: AccessPolicy(flags: [.userPresence])))
        XCTAssertKeychainError(
            .authFailed, try keychain.add(password("bank", "bio").protected(by: AccessPolicy(flags: [.biometryAny]))),
            "no biometry is enrolled: such an item could never be read")

        answers.withLock { $0 = ["2468"] }
        XCTAssertEqual(try keychain.find(query("bank", "alice"), returning: .data).first?.data, Data("s3cret".utf8))
        answers.withLock { $0 = ["1111"] }
        XCTAssertKeychainError(.authFailed, try keychain.find(query("bank", "alice"), returning: .data))
        answers.withLock { $0 = [nil] }
        XCTAssertKeychainError(.userCanceled, try keychain.find(query("bank", "alice"), returning: .data))
        XCTAssertEqual(prompts.withLock { $0 }, 3)

        for _ in 1...3 { _ = try pin.verify("0000") }
        XCTAssertGreaterThan(try pin.remainingLockout(), 0)
        XCTAssertKeychainError(.authFailed, try keychain.find(query("bank", "alice"), returning: .data))
        XCTAssertEqual(prompts.withLock { $0 }, 3, "a locked-out PIN is not even asked for")
    }
}
