#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// The `LAContext` members wrappers use, and the shared web credential functions, answering as
/// Apple's do.
final class LocalAuthenticationTests: AuthenticatedSecItemTestCase {
    func testLocalizedReasonAndAnEvaluatedPolicyAreUsedByKeychainReads() throws {
        let control = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil)!
        XCTAssertEqual(add(password("alice", [kSecAttrAccessControl as String: control])), errSecSuccess)
        let context = LAContext()
        context.localizedReason = "Open the vault"
        var error: NSError?
        XCTAssertTrue(context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        XCTAssertEqual(context.biometryType, .touchID)
        XCTAssertNotNil(context.evaluatedPolicyDomainState)

        let evaluated = expectation(description: "reply")
        context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign in") { success, error in
            XCTAssertTrue(success, "\(String(describing: error))")
            evaluated.fulfill()
        }
        wait(for: [evaluated], timeout: 10)
        XCTAssertEqual(authenticator.prompts, 1)
        XCTAssertEqual(authenticator.requests.last?.reason, "Sign in")

        let read = copy(
            password("alice", [kSecReturnData as String: true, kSecUseAuthenticationContext as String: context]))
        XCTAssertEqual(read.status, errSecSuccess)
        XCTAssertEqual(authenticator.prompts, 1, "the evaluated context is reused")

        let fresh = LAContext()
        fresh.localizedReason = "Open the vault"
        XCTAssertEqual(
            copy(password("alice", [kSecReturnData as String: true, kSecUseAuthenticationContext as String: fresh]))
                .status, errSecSuccess)
        XCTAssertEqual(authenticator.requests.last?.reason, "Open the vault", "the context's reason is shown")

        authenticator.script([.canceled])
        let canceled = expectation(description: "cancel")
        LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign in") { success, error in
            XCTAssertFalse(success)
            XCTAssertEqual((error as NSError?)?.domain, LAErrorDomain)
            XCTAssertEqual((error as NSError?)?.code, LAError.Code.userCancel.rawValue)
            canceled.fulfill()
        }
        wait(for: [canceled], timeout: 10)

        authenticator.offer([.passcode])
        XCTAssertFalse(LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
        XCTAssertEqual(error?.code, LAError.Code.biometryNotAvailable.rawValue)
        let invalidated = LAContext()
        invalidated.invalidate()
        XCTAssertFalse(invalidated.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
        XCTAssertEqual(error?.code, LAError.Code.invalidContext.rawValue)
    }

    func testSharedWebCredentialsAnswerAsADeviceWithoutThem() throws {
        let added = expectation(description: "add")
        SecAddSharedWebCredential("example.com" as CFString, "alice" as CFString, "pw" as CFString) { error in
            XCTAssertEqual(error?.code, Int(errSecAuthFailed))
            added.fulfill()
        }
        let requested = expectation(description: "request")
        SecRequestSharedWebCredential(nil, nil) { credentials, error in
            XCTAssertNil(credentials)
            XCTAssertEqual(error?.code, Int(errSecItemNotFound))
            requested.fulfill()
        }
        wait(for: [added, requested], timeout: 10)
        XCTAssertEqual(
            copy([kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com"]).status,
            errSecItemNotFound,
            "nothing was stored")

        var seen = Set<String>()
        for _ in 0..<200 {
            let password = try XCTUnwrap(SecCreateSharedWebCredentialPassword() as String?)
            XCTAssertNotNil(
                password.wholeMatch(of: /[a-zA-Z3-9]{3}-[a-zA-Z3-9]{3}-[a-zA-Z3-9]{3}-[a-zA-Z3-9]{3}/), password)
            XCTAssertTrue(
                password.contains(where: \.isLowercase) && password.contains(where: \.isUppercase)
                    && password.contains(where: \.isNumber))
            XCTAssertFalse(password.contains(where: { "ilo IO012".contains($0) }), password)
            seen.insert(password)
        }
        XCTAssertEqual(seen.count, 200)
    }
}
#endif
