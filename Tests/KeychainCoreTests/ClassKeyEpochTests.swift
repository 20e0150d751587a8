import Foundation
import XCTest
import AuthenticationTestSupport
@testable import KeychainCore

/// `Keychain.classKeyEpoch` changes exactly when the passphrase-protected class keys are replaced.
final class ClassKeyEpochTests: XCTestCase {
    func testTheEpochChangesWithEveryPassphraseChangeAndOnlyThen() throws {
        let test = try TestKeychain()
        let initial = try test.keychain.classKeyEpoch
        XCTAssertEqual(initial.count, 32)
        XCTAssertEqual(try test.keychain.classKeyEpoch, initial, "reading twice gives the same epoch")

        try test.keychain.setPassphrase("first")
        let afterSet = try test.keychain.classKeyEpoch
        XCTAssertNotEqual(afterSet, initial)

        try test.keychain.lock()
        XCTAssertEqual(try test.keychain.classKeyEpoch, afterSet, "locking keeps the class keys")
        try test.keychain.unlock(passphrase: "first")
        XCTAssertEqual(try test.keychain.classKeyEpoch, afterSet, "unlocking keeps the class keys")

        let authenticator = ScriptedAuthenticator()
        test.keychain.authenticator = authenticator
        try authenticator.enroll(in: test.keychain)
        XCTAssertEqual(try test.keychain.classKeyEpoch, afterSet, "an enrolment changes only presence slots")

        try test.keychain.changePassphrase(from: "first", to: "second")
        let afterChange = try test.keychain.classKeyEpoch
        XCTAssertNotEqual(afterChange, afterSet)

        _ = try test.keychain.removePassphrase(current: "second")
        let afterRemove = try test.keychain.classKeyEpoch
        XCTAssertNotEqual(afterRemove, afterChange)
        XCTAssertNotEqual(afterRemove, initial, "removing a passphrase makes new keys, not the first ones again")
    }

    /// Another process's rotation shows in this instance's epoch without reopening, and the
    /// epoch can be read before the first unlock.
    func testAnotherInstanceSeesTheRotationInAnyLockState() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("first")
        let other = try test.openAnother()
        XCTAssertEqual(other.lockState, .beforeFirstUnlock)
        let before = try other.classKeyEpoch
        XCTAssertEqual(before, try test.keychain.classKeyEpoch)

        try test.keychain.changePassphrase(from: "first", to: "second")
        XCTAssertEqual(try other.classKeyEpoch, try test.keychain.classKeyEpoch)
        XCTAssertNotEqual(try other.classKeyEpoch, before)
    }
}
