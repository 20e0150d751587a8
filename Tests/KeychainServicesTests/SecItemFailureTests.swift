#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore
import KeychainServices
import XCTest

/// `SecItemEnvironment.capturingFailure` hands out the engine's message behind a failed
/// SecItem call (issue 35): an OSStatus alone says "-25308", the message says which keychain,
/// which protection and what to do.
final class SecItemFailureTests: SecItemTestCase {
    func testTheLastFailedCallsErrorIsCaptured() throws {
        XCTAssertEqual(add(password(), data: "v4lue-7d"), errSecSuccess)
        try keychain.setPassphrase("pw")
        try SecItemEnvironment.lock()
        var query = password()
        query[kSecReturnData as String] = true
        var result: CFTypeRef?
        let (status, failure) = SecItemEnvironment.capturingFailure {
            SecItemCopyMatching(query as CFDictionary, &result)
        }
        XCTAssertEqual(status, errSecInteractionNotAllowed)
        XCTAssertEqual(failure?.code, .interactionNotAllowed)
        let message = failure?.message ?? ""
        XCTAssertTrue(message.contains(keychain.location.databaseURL.path), message)
        XCTAssertTrue(message.contains("kSecAttrAccessibleWhenUnlocked"), message)
        XCTAssertFalse(message.contains("v4lue-7d"))
    }

    func testASucceedingCallCapturesNothingAndCallsOutsideAreNotRecorded() throws {
        _ = add(password("x"))
        XCTAssertEqual(add(password("x")), errSecDuplicateItem, "a failure outside any capture")
        let (status, failure) = SecItemEnvironment.capturingFailure {
            SecItemCopyMatching(password("x") as CFDictionary, nil)
        }
        XCTAssertEqual(status, errSecSuccess)
        XCTAssertNil(failure)
        let (_, duplicate) = SecItemEnvironment.capturingFailure { add(password("x")) }
        XCTAssertEqual(duplicate?.code, .duplicateItem)
    }
}
#endif
