import Foundation
import XCTest
import AuthenticationTestSupport
@testable import KeychainCore

/// Items with an ``AccessPolicy``: prompts counted exactly, reuse windows, UI fail/skip, cancel,
/// and biometryCurrentSet invalidation.
final class AccessControlTests: XCTestCase {
    var test: TestKeychain!
    var authenticator: ScriptedAuthenticator!
    var keychain: Keychain { test.keychain }

    override func setUpWithError() throws {
        test = try TestKeychain()
        authenticator = ScriptedAuthenticator()
        keychain.authenticator = authenticator
        try authenticator.enroll(in: keychain)
    }

    func addProtected(_ account: String, _ flags: AccessPolicy.Flags, secret: String = "s3cret") throws {
        try keychain.add(password("bank", account, secret).protected(by: AccessPolicy(flags: flags)))
    }

    func readData(_ account: String, _ options: AuthenticationOptions = AuthenticationOptions()) throws -> String? {
        var query = query("bank", account, limit: .one)
        query.authentication = options
        return try keychain.find(query, returning: .data).first?.data.map { String(decoding: $0, as: UTF8.self) }
    }

    func testProtectedItemNeedsAnAuthenticatorToBeWritten() throws {
        keychain.authenticator = nil
        XCTAssertKeychainError(.authFailed, try self.addProtected("a", [.userPresence]))
        XCTAssertKeychainError(.itemNotFound, try self.keychain.find(query("bank")))
    }

    func testAttributesNeedNoAuthenticationDataNeedsOnePrompt() throws {
        try addProtected("alice", [.userPresence])
        let listed = try keychain.find(query("bank"), returning: .attributes)
        XCTAssertEqual(listed.count, 1)
        XCTAssertEqual(listed[0].accessPolicy?.flags, [.userPresence])
        XCTAssertEqual(authenticator.prompts, 0, "attributes never prompt")
        XCTAssertEqual(try readData("alice", AuthenticationOptions(reason: "Show the balance")), "s3cret")
        XCTAssertEqual(authenticator.prompts, 1)
        XCTAssertEqual(authenticator.requests[0].allowedMethods, [.biometry, .passcode])
        XCTAssertEqual(authenticator.requests[0].reason, "Show the balance")
        XCTAssertEqual(authenticator.requests[0].operation, "data")
        XCTAssertEqual(try readData("alice"), "s3cret")
        XCTAssertEqual(authenticator.prompts, 2, "without a context every read prompts")
    }

    func testCancelAndFailureGiveAppleStatuses() throws {
        try addProtected("alice", [.devicePasscode])
        authenticator.script([.canceled, .failed])
        XCTAssertKeychainError(.userCanceled, try self.readData("alice"))
        XCTAssertKeychainError(.authFailed, try self.readData("alice"))
        XCTAssertEqual(KeychainError.Code.userCanceled.osStatus, -128)
        XCTAssertEqual(authenticator.prompts, 2)
        XCTAssertEqual(authenticator.requests.map(\.allowedMethods), [[.passcode], [.passcode]])
    }

    func testReuseWindowIsHonoured() throws {
        try addProtected("alice", [.userPresence])
        try addProtected("bob", [.userPresence])
        let clock = ManualClock()
        let context = AuthenticationContext(reuseDuration: 10, clock: clock.reading)
        let options = AuthenticationOptions(context: context)
        XCTAssertEqual(try readData("alice", options), "s3cret")
        clock.advance(9)
        XCTAssertEqual(try readData("bob", options), "s3cret")
        XCTAssertEqual(authenticator.prompts, 1, "inside the window the context's authentication is reused")
        clock.advance(2)
        XCTAssertEqual(try readData("alice", options), "s3cret")
        XCTAssertEqual(authenticator.prompts, 2, "after the window it prompts again")

        var all = query("bank")
        all.authentication = options
        XCTAssertEqual(try keychain.find(all, returning: .data).count, 2)
        XCTAssertEqual(authenticator.prompts, 2, "one authentication covers a whole listing")

        context.invalidate()
        XCTAssertKeychainError(.authFailed, try self.readData("alice", options))
        XCTAssertEqual(authenticator.prompts, 2)
    }

    func testReuseWindowIsClampedToAppleMaximum() {
        XCTAssertEqual(
            AuthenticationContext(reuseDuration: 10_000).reuseDuration, AuthenticationContext.maximumReuseDuration)
        XCTAssertEqual(AuthenticationContext(reuseDuration: -1).reuseDuration, 0)
    }

    func testInteractionFailAndSkip() throws {
        try addProtected("alice", [.userPresence])
        try keychain.add(password("bank", "open"))
        XCTAssertKeychainError(
            .interactionNotAllowed, try self.readData("alice", AuthenticationOptions(interaction: .fail)))
        let context = AuthenticationContext()
        context.interactionNotAllowed = true
        XCTAssertKeychainError(
            .interactionNotAllowed, try self.readData("alice", AuthenticationOptions(context: context)))

        var all = query("bank")
        all.authentication = AuthenticationOptions(interaction: .skip)
        let found = try keychain.find(all, returning: [.attributes, .data])
        XCTAssertEqual(
            found.map { $0.attributes[.account]?.stringValue }, ["open"], "skip leaves out what would prompt")
        var onlyProtected = query("bank", "alice")
        onlyProtected.authentication = AuthenticationOptions(interaction: .skip)
        XCTAssertKeychainError(.itemNotFound, try self.keychain.find(onlyProtected, returning: .data))
        XCTAssertEqual(authenticator.prompts, 0)

        // A context that already authenticated satisfies even a call that may not prompt.
        let reused = AuthenticationContext()
        XCTAssertEqual(try readData("alice", AuthenticationOptions(context: reused)), "s3cret")
        XCTAssertEqual(try readData("alice", AuthenticationOptions(context: reused, interaction: .fail)), "s3cret")
        XCTAssertEqual(authenticator.prompts, 1)
    }

    func testBiometryCurrentSetIsInvalidatedByEnrolmentChangeAndBiometryAnySurvives() throws {
        try addProtected("current", [.biometryCurrentSet])
        try addProtected("any", [.biometryAny])
        XCTAssertEqual(try readData("current"), "s3cret")
        XCTAssertEqual(authenticator.prompts, 1)

        authenticator.enroll("finger-2")
        XCTAssertKeychainError(.authFailed, try self.readData("current"))
        XCTAssertEqual(authenticator.prompts, 1, "an invalidated item fails without prompting")
        XCTAssertEqual(try readData("any"), "s3cret")
        XCTAssertEqual(authenticator.prompts, 2)

        authenticator.enroll("finger-1")
        XCTAssertEqual(
            try readData("current"), "s3cret", "the original enrolled set reads it again, as Apple's domain state does")
        authenticator.enroll("finger-3")
        try test.reopen()
        keychain.authenticator = authenticator
        XCTAssertKeychainError(.authFailed, try self.readData("current"))
        XCTAssertEqual(
            try keychain.find(query("bank", "current")).count, 1,
            "the item stays listed; the app deletes and recreates it")
        try keychain.delete(query("bank", "current"))
    }

    func testCurrentSetNeedsEnrolledBiometry() throws {
        authenticator.enroll(nil)
        XCTAssertKeychainError(.authFailed, try self.addProtected("a", [.biometryCurrentSet]))
        authenticator.offer([.passcode])
        try addProtected("b", [.biometryAny])
        XCTAssertKeychainError(.authFailed, try self.readData("b"), "no biometry available")
        XCTAssertEqual(authenticator.prompts, 0)
    }

    func testAndNeedsEveryConstraintOrNeedsOne() throws {
        try addProtected("and", [.biometryAny, .devicePasscode, .and])
        XCTAssertEqual(try readData("and"), "s3cret")
        XCTAssertEqual(authenticator.requests.map(\.allowedMethods), [[.biometry], [.passcode]])
        try addProtected("or", [.biometryAny, .devicePasscode, .or])
        XCTAssertEqual(try readData("or"), "s3cret")
        XCTAssertEqual(authenticator.requests.last?.allowedMethods, [.biometry, .passcode])
        XCTAssertEqual(authenticator.prompts, 3)
        authenticator.script([.success(.biometry), .canceled])
        XCTAssertKeychainError(.userCanceled, try self.readData("and"))
    }

    func testInvalidFlagCombinationsAreRefused() {
        XCTAssertKeychainError(.invalidParameter, try AccessPolicy(flags: [.or, .and]))
        XCTAssertKeychainError(.invalidParameter, try AccessPolicy(flags: [.biometryAny, .biometryCurrentSet]))
        XCTAssertKeychainError(.invalidParameter, try AccessPolicy(flags: [.userPresence, .devicePasscode]))
        XCTAssertKeychainError(.unimplemented, try self.addProtected("c", [.companion]))
        XCTAssertKeychainError(
            .invalidParameter, try self.addProtected("k", [.userPresence, .privateKeyUsage]),
            "privateKeyUsage is for keys generated inside the keychain")
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.add(
                password("bank", "s", extra: [.synchronizable: true]).protected(
                    by: AccessPolicy(flags: [.userPresence]))))
    }

    func testUpdatingDataNeedsNoPromptRemovingThePolicyDoes() throws {
        try addProtected("alice", [.userPresence])
        try keychain.update(query("bank", "alice"), with: ItemChanges(data: Data("new".utf8)))
        XCTAssertEqual(authenticator.prompts, 0, "writing never prompts (encrypt is allowed)")
        authenticator.script([.canceled])
        XCTAssertKeychainError(
            .userCanceled,
            try self.keychain.update(
                query("bank", "alice"),
                with: ItemChanges(attributes: [.accessControl: AccessPolicy(flags: []).attributeValue])))
        XCTAssertEqual(
            try keychain.find(query("bank", "alice")).first?.accessPolicy?.flags, [.userPresence],
            "a cancelled change changes nothing")
        try keychain.update(
            query("bank", "alice"),
            with: ItemChanges(attributes: [.accessControl: AccessPolicy(flags: []).attributeValue]))
        XCTAssertEqual(authenticator.prompts, 2)
        XCTAssertEqual(try readData("alice"), "new")
        XCTAssertEqual(authenticator.prompts, 2, "no policy left")
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.update(
                query("bank", "alice"),
                with: ItemChanges(
                    attributes: [.accessControl: .data(Data([9, 9]))])))
    }

    func testPolicyDescriptionNamesFlagsOnly() throws {
        var policy = try AccessPolicy(flags: [.biometryCurrentSet, .privateKeyUsage])
        policy.enrollmentState = Data("secret-enrolment".utf8)
        XCTAssertEqual(policy.description, "AccessPolicy(biometryCurrentSet|privateKeyUsage)")
        XCTAssertEqual(AccessPolicy(encoded: policy.encoded), policy)
        XCTAssertNil(AccessPolicy(encoded: Data([1, 0, 0])))
    }
}
