import Foundation
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Lock states and passphrases.
final class LockStateTests: XCTestCase {
    private func addOneOfEach(_ keychain: Keychain) throws {
        for accessibility in Accessibility.allCases {
            try keychain.add(
                password("matrix", accessibility.rawValue, "secret-\(accessibility.rawValue)", accessibility))
        }
    }

    private func attempt(_ keychain: Keychain, _ accessibility: Accessibility) -> (
        read: KeychainError.Code?, attributes: KeychainError.Code?, add: KeychainError.Code?,
        update: KeychainError.Code?
    ) {
        func code(_ body: () throws -> Void) -> KeychainError.Code? {
            do {
                try body()
                return nil
            } catch { return (error as? KeychainError)?.code }
        }
        let q = query("matrix", accessibility.rawValue)
        return (
            code { _ = try keychain.find(q, returning: .data) },
            code { _ = try keychain.find(q, returning: .attributes) },
            code {
                try keychain.add(password("matrix-add", accessibility.rawValue + "-\(UUID())", "x", accessibility))
            },
            code { try keychain.update(q, with: ItemChanges(data: Data("updated".utf8))) }
        )
    }

    /// Every accessibility in every state: class A and passcode-set need unlocked, C needs a
    /// first unlock, D is always available.
    func testLockStateMatrixForAllSevenAccessibilities() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("correct horse")
        try addOneOfEach(test.keychain)

        // Unlocked: everything works.
        XCTAssertEqual(test.keychain.lockState, .unlocked)
        for accessibility in Accessibility.allCases {
            let result = attempt(test.keychain, accessibility)
            XCTAssertNil(result.read, "\(accessibility)")
            XCTAssertNil(result.attributes)
            XCTAssertNil(result.add)
            XCTAssertNil(result.update)
        }

        // Locked: A and PS refused for read, attribute-only read, add and update; C and D fine.
        try test.keychain.lock()
        XCTAssertEqual(test.keychain.lockState, .locked)
        for accessibility in Accessibility.allCases {
            let result = attempt(test.keychain, accessibility)
            let expected: KeychainError.Code? =
                [.whenUnlocked, .whenPasscodeSet].contains(accessibility.protectionClass) ? .interactionNotAllowed : nil
            XCTAssertEqual(result.read, expected, "read \(accessibility)")
            XCTAssertEqual(result.attributes, expected, "attributes \(accessibility)")
            XCTAssertEqual(result.add, expected, "add \(accessibility)")
            XCTAssertEqual(result.update, expected, "update \(accessibility)")
        }

        // Before the first unlock (a fresh process): only class D.
        let fresh = try test.openAnother()
        XCTAssertEqual(fresh.lockState, .beforeFirstUnlock)
        for accessibility in Accessibility.allCases {
            let result = attempt(fresh, accessibility)
            let expected: KeychainError.Code? = accessibility.protectionClass == .always ? nil : .interactionNotAllowed
            XCTAssertEqual(result.read, expected, "read \(accessibility)")
            XCTAssertEqual(result.add, expected, "add \(accessibility)")
        }

        // Unlock again: everything readable, data intact.
        try test.keychain.unlock(passphrase: "correct horse")
        for accessibility in Accessibility.allCases {
            XCTAssertEqual(
                try test.keychain.find(query("matrix", accessibility.rawValue), returning: .data).first?.data,
                Data("updated".utf8))
        }
    }

    /// A query over several rows fails entirely when any matched row is locked;
    /// filtering on accessibility avoids the locked rows.
    func testWholeFindFailsWhenAnyMatchedRowIsLocked() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(password("svc", "background", "b", .afterFirstUnlock))
        try test.keychain.add(password("svc", "foreground", "f", .whenUnlocked))
        try test.keychain.lock()
        XCTAssertKeychainError(.interactionNotAllowed, try test.keychain.find(query("svc"), returning: .attributes))
        XCTAssertEqual(
            try test.keychain.find(Query(.genericPassword, [.service: "svc", .accessible: "ck"]), returning: .data)
                .first?.data, Data("b".utf8))
        XCTAssertEqual(
            try test.keychain.find(query("svc", limit: .one), returning: .data).first?.data, Data("b".utf8),
            "only scanned rows count")
    }

    /// Delete needs no key and works while locked.
    func testDeleteWorksWhileLocked() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(password("svc", "acct", "x", .whenUnlocked))
        try test.keychain.lock()
        XCTAssertEqual(try test.keychain.delete(query("svc", "acct")), 1)
        try test.keychain.unlock(passphrase: "pw")
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(query("svc", "acct")))
    }

    /// Without a passphrase the keychain is a device without a passcode.
    func testNoPassphraseMeansUnlockedAndNoPasscodeItems() throws {
        let test = try TestKeychain()
        XCTAssertFalse(test.keychain.hasPassphrase)
        XCTAssertEqual(test.keychain.lockState, .unlocked)
        XCTAssertKeychainError(
            .authFailed, try test.keychain.add(password("svc", "acct", "x", .whenPasscodeSetThisDeviceOnly)))
        XCTAssertKeychainError(.invalidState, try test.keychain.lock())
        XCTAssertKeychainError(.invalidState, try test.keychain.unlock(passphrase: "anything"))
        try test.reopen()
        XCTAssertEqual(test.keychain.lockState, .unlocked, "reopens unlocked")
    }

    func testPassphraseSetChangeAndRemove() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "ak", "a", .whenUnlocked))
        try test.keychain.setPassphrase("first")
        XCTAssertTrue(test.keychain.hasPassphrase)
        XCTAssertEqual(test.keychain.passphraseParameters, .insecureForTestingOnly)
        XCTAssertKeychainError(.invalidState, try test.keychain.setPassphrase("again"))
        try test.keychain.add(password("svc", "akpu", "p", .whenPasscodeSetThisDeviceOnly))

        try test.keychain.changePassphrase(from: "first", to: "second")
        try test.reopen()
        XCTAssertKeychainError(.authFailed, try test.keychain.unlock(passphrase: "first"))
        try test.keychain.unlock(passphrase: "second")
        XCTAssertEqual(
            try test.keychain.find(query("svc", "ak"), returning: .data).first?.data, Data("a".utf8),
            "items keep their keys across a change")
        XCTAssertEqual(try test.keychain.find(query("svc", "akpu"), returning: .data).first?.data, Data("p".utf8))

        XCTAssertKeychainError(.authFailed, try test.keychain.removePassphrase(current: "first"))
        XCTAssertEqual(
            try test.keychain.removePassphrase(current: "second"), 1,
            "removing the passphrase destroys passcode-set items")
        XCTAssertFalse(test.keychain.hasPassphrase)
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(query("svc", "akpu")))
        try test.reopen()
        XCTAssertEqual(test.keychain.lockState, .unlocked)
        XCTAssertEqual(try test.keychain.find(query("svc", "ak"), returning: .data).first?.data, Data("a".utf8))
        XCTAssertKeychainError(
            .authFailed, try test.keychain.add(password("svc", "akpu2", "p", .whenPasscodeSetThisDeviceOnly)))
    }

    func testWrongPassphraseIsAuthFailedAndLeavesTheKeychainUsable() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("right")
        try test.keychain.add(password("svc", "acct", "v", .whenUnlocked))
        try test.reopen()
        XCTAssertKeychainError(.authFailed, try test.keychain.unlock(passphrase: "wrong"))
        XCTAssertEqual(test.keychain.lockState, .beforeFirstUnlock)
        XCTAssertKeychainError(.authFailed, try test.keychain.changePassphrase(from: "wrong", to: "x"))
        try test.keychain.unlock(passphrase: "right")
        XCTAssertEqual(try test.keychain.find(query("svc", "acct"), returning: .data).first?.data, Data("v".utf8))
        XCTAssertKeychainError(.authFailed, try test.keychain.unlock(passphrase: "wrong"))
        XCTAssertEqual(test.keychain.lockState, .unlocked, "a failed unlock does not lock an unlocked keychain")
    }

    /// Another instance (another process) sees passphrase changes through the keybag generation.
    func testOtherInstanceFollowsPassphraseRemoval() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(password("svc", "acct", "v", .whenUnlocked))
        let other = try test.openAnother()
        XCTAssertKeychainError(.interactionNotAllowed, try other.find(query("svc", "acct"), returning: .data))
        try test.keychain.removePassphrase(current: "pw")
        XCTAssertEqual(try other.find(query("svc", "acct"), returning: .data).first?.data, Data("v".utf8))
        XCTAssertEqual(other.lockState, .unlocked)
        XCTAssertFalse(other.hasPassphrase)
    }

    func testCalibratedHardeningMeetsTheFloor() throws {
        let parameters = try PassphraseHardening.calibrated(target: .milliseconds(1)).parameters()
        XCTAssertGreaterThanOrEqual(parameters.logN, ScryptParameters.floor.logN)
        XCTAssertGreaterThanOrEqual(parameters.parallelism, 1)
    }
}
