#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import AuthenticationTestSupport
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import SecureStorage
import XCTest

/// `requireUserPresence` writes and `SigningKey`, with a scripted authenticator.
final class UserPresenceTests: StorageTestCase {
    var authenticator: ScriptedAuthenticator!

    override func setUpWithError() throws {
        try super.setUpWithError()
        authenticator = ScriptedAuthenticator()
        SecItemEnvironment.authenticator = authenticator
        try authenticator.enroll(in: keychain)
    }

    func testRequireUserPresencePromptsOnReadOnly() throws {
        try storage.set(Data("recovery-1".utf8), for: "recovery", requireUserPresence: true)
        try storage.set("open", for: "plain")
        XCTAssertEqual(try storage.allKeys().sorted(), ["plain", "recovery"])
        XCTAssertTrue(try storage.contains("recovery"))
        XCTAssertEqual(try storage.protection(of: "recovery"), .whenUnlockedThisDeviceOnly)
        XCTAssertEqual(authenticator.prompts, 0, "listing, contains and protection never prompt")

        XCTAssertEqual(try storage.data(for: "recovery"), Data("recovery-1".utf8))
        XCTAssertEqual(authenticator.prompts, 1)
        XCTAssertEqual(try storage.string(for: "plain"), "open")
        XCTAssertEqual(authenticator.prompts, 1)

        try storage.set(Data("recovery-2".utf8), for: "recovery")
        XCTAssertEqual(authenticator.prompts, 1, "replacing the value never prompts")
        authenticator.script([.canceled])
        XCTAssertThrowsError(try storage.data(for: "recovery")) { error in
            XCTAssertEqual(error as? SecureStorageError, .userCanceled)
        }
        XCTAssertEqual(
            try storage.data(for: "recovery"), Data("recovery-2".utf8), "the replacement kept the requirement")
        XCTAssertEqual(authenticator.prompts, 3)
        XCTAssertTrue(try storage.removeValue(for: "recovery"))
    }

    func testRequireUserPresenceWithoutAuthenticatorFailsClearly() throws {
        SecItemEnvironment.authenticator = nil
        keychain.authenticator = nil
        XCTAssertThrowsError(try storage.set("x", for: "k", requireUserPresence: true)) { error in
            XCTAssertEqual(error as? SecureStorageError, .authenticationFailed)
        }
        XCTAssertNil(try storage.string(for: "k"))
    }

    func testSigningKeyCreateSignVerifyFindDelete() throws {
        let key = try SigningKey.create(tag: "com.acme.device")
        XCTAssertEqual(key.publicKey.count, 65)
        XCTAssertFalse(key.description.contains(key.publicKey.base64EncodedString()))
        let message = Data("challenge".utf8)
        let signature = try key.sign(message)
        XCTAssertTrue(key.isValidSignature(signature, for: message))
        XCTAssertFalse(key.isValidSignature(signature, for: Data("other".utf8)))
        let verifier = try P256.Signing.PublicKey(x963Representation: key.publicKey)
        XCTAssertTrue(
            verifier.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))

        XCTAssertThrowsError(try SigningKey.create(tag: "com.acme.device")) {
            XCTAssertEqual($0 as? SecureStorageError, .duplicate)
        }
        let found = try XCTUnwrap(SigningKey.find(tag: "com.acme.device"))
        XCTAssertEqual(found.publicKey, key.publicKey)
        XCTAssertTrue(found.isValidSignature(try found.sign(message), for: message))
        XCTAssertEqual(authenticator.prompts, 0)
        XCTAssertTrue(try key.delete())
        XCTAssertFalse(try key.delete())
        XCTAssertNil(try SigningKey.find(tag: "com.acme.device"))
        XCTAssertThrowsError(try key.sign(message)) { XCTAssertEqual($0 as? SecureStorageError, .notFound) }
    }

    func testSigningKeyWithUserPresencePromptsPerSignature() throws {
        let key = try SigningKey.create(tag: "com.acme.guarded", requireUserPresence: true)
        XCTAssertEqual(authenticator.prompts, 0)
        _ = try key.sign(Data("one".utf8), reason: "Approve the payment")
        XCTAssertEqual(authenticator.prompts, 1)
        XCTAssertEqual(authenticator.requests.last?.reason, "Approve the payment")
        XCTAssertEqual(authenticator.requests.last?.operation, "private key")
        authenticator.script([.canceled])
        XCTAssertThrowsError(try key.sign(Data("two".utf8))) {
            XCTAssertEqual($0 as? SecureStorageError, .userCanceled)
        }
        XCTAssertEqual(authenticator.prompts, 2)
    }
}
#endif
