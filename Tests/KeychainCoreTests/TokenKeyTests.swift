import Crypto
import Foundation
import XCTest
import AuthenticationTestSupport
@testable import KeychainCore

/// Keys generated inside the keychain: they sign and agree keys there, verify with swift-crypto,
/// never reveal their scalar, cannot be imported or altered, and honour privateKeyUsage policies.
final class TokenKeyTests: XCTestCase {
    var test: TestKeychain!
    var keychain: Keychain { test.keychain }
    let tag: AttributeValue = .data(Data("com.acme.signing".utf8))

    override func setUpWithError() throws { test = try TestKeychain() }

    func testGeneratedKeySignsAndSwiftCryptoVerifies() throws {
        let key = try keychain.generateTokenKey(.p256, attributes: [.applicationTag: tag, .label: "signing"])
        let publicKey = try keychain.tokenKeyPublicKey(key.persistentReference)
        XCTAssertEqual(publicKey.count, 65)
        XCTAssertEqual(key.attributes[.applicationLabel]?.dataValue, Data(Insecure.SHA1.hash(data: publicKey)))
        XCTAssertEqual(key.attributes[.tokenID]?.stringValue, TokenKeys.tokenID)
        XCTAssertEqual(key.attributes[.keyClass]?.numberValue, 1)
        XCTAssertEqual(key.attributes[.type]?.numberValue, 73)
        XCTAssertEqual(key.attributes[.keySizeInBits]?.numberValue, 256)
        XCTAssertEqual(key.attributes[.isExtractable]?.numberValue, 0)
        XCTAssertEqual(key.accessibility, .whenUnlockedThisDeviceOnly)

        let message = Data("attest me".utf8)
        let signature = try keychain.signWithTokenKey(key.persistentReference, digest: Data(SHA256.hash(data: message)))
        let verifier = try P256.Signing.PublicKey(x963Representation: publicKey)
        XCTAssertTrue(
            verifier.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
        XCTAssertFalse(
            verifier.isValidSignature(
                try P256.Signing.ECDSASignature(derRepresentation: signature), for: Data("tampered".utf8)))

        // A new instance (a restart) finds the key by its tag and signs with it.
        try test.reopen()
        let found = try XCTUnwrap(keychain.findFirst(Query(.key, [.applicationTag: tag, .keyClass: 1])))
        let again = try keychain.signWithTokenKey(found.persistentReference, digest: Data(SHA256.hash(data: message)))
        XCTAssertTrue(
            verifier.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: again), for: message))
    }

    func testP384KeyAgreementMatchesSwiftCrypto() throws {
        let key = try keychain.generateTokenKey(.p384)
        let peer = P384.KeyAgreement.PrivateKey()
        let ours = try keychain.keyAgreementWithTokenKey(
            key.persistentReference, peerPublicKey: peer.publicKey.x963Representation)
        let theirs = try peer.sharedSecretFromKeyAgreement(
            with: P384.KeyAgreement.PublicKey(x963Representation: keychain.tokenKeyPublicKey(key.persistentReference)))
        XCTAssertEqual(ours, theirs.withUnsafeBytes { Data($0) })
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.keyAgreementWithTokenKey(
                key.persistentReference, peerPublicKey: Data(repeating: 4, count: 65)))
        XCTAssertKeychainError(.invalidParameter, try self.keychain.generateTokenKey(.p521))
    }

    func testPrivateScalarIsNeverReturned() throws {
        let key = try keychain.generateTokenKey(.p256, attributes: [.applicationTag: tag])
        let found = try keychain.find(Query(.key, [.applicationTag: tag]), returning: .all)
        XCTAssertEqual(found.first?.data, Data(), "a token key reveals no data")
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.update(Query(.key, [.applicationTag: tag]), with: ItemChanges(data: Data(count: 32))))
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.update(
                Query(.key, [.applicationTag: tag]),
                with: ItemChanges(attributes: [.tokenID: "other"])),
            "removing the token ID would reveal the scalar")
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.add(
                NewItem(
                    .key, attributes: [.tokenID: .string(TokenKeys.tokenID), .keyClass: 1],
                    data: Data(count: 32))), "no import into the token")
        try keychain.add(NewItem(.key, attributes: [.applicationTag: "soft", .keyClass: 1], data: Data(count: 32)))
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.update(
                Query(.key, [.applicationTag: "soft"]),
                with: ItemChanges(attributes: [.tokenID: .string(TokenKeys.tokenID)])))
        XCTAssertKeychainError(
            .invalidParameter, try self.keychain.generateTokenKey(.p256, attributes: [.accessible: "ak"]),
            "token keys are ThisDeviceOnly")
        try keychain.update(Query(.key, [.applicationTag: tag]), with: ItemChanges(attributes: [.label: "renamed"]))
        XCTAssertNoThrow(try keychain.signWithTokenKey(key.persistentReference, digest: Data(count: 32)))

        let backup = test.directory.appendingPathComponent("backup.sskb")
        let summary = try keychain.exportBackup(to: backup, passphrase: "backup pass")
        XCTAssertEqual(summary.skippedThisDeviceOnlyItems, 1, "the token key never leaves the device")
        let softwareKeyReference = try XCTUnwrap(keychain.findFirst(Query(.key, [.applicationTag: "soft"])))
            .persistentReference
        XCTAssertKeychainError(
            .invalidParameter, try self.keychain.signWithTokenKey(softwareKeyReference, digest: Data(count: 32)))
        XCTAssertKeychainError(
            .itemNotFound,
            try self.keychain.signWithTokenKey(
                PersistentReference(itemClass: .key, uuid: UUID()), digest: Data(count: 32)))
    }

    func testPrivateKeyUsagePolicyPromptsForUseNotForPublicKey() throws {
        let authenticator = ScriptedAuthenticator()
        keychain.authenticator = authenticator
        try authenticator.enroll(in: keychain)
        let key = try keychain.generateTokenKey(
            .p256, policy: AccessPolicy(flags: [.privateKeyUsage, .biometryCurrentSet]))
        _ = try keychain.tokenKeyPublicKey(key.persistentReference)
        _ = try keychain.find(Query(persistentReference: key.persistentReference), returning: .all)
        XCTAssertEqual(authenticator.prompts, 0)
        _ = try keychain.signWithTokenKey(key.persistentReference, digest: Data(count: 32))
        XCTAssertEqual(authenticator.prompts, 1)
        XCTAssertEqual(authenticator.requests[0].operation, "private key")
        authenticator.script([.canceled])
        XCTAssertKeychainError(
            .userCanceled, try self.keychain.signWithTokenKey(key.persistentReference, digest: Data(count: 32)))
        authenticator.enroll("someone else")
        XCTAssertKeychainError(
            .authFailed, try self.keychain.signWithTokenKey(key.persistentReference, digest: Data(count: 32)))
        XCTAssertEqual(authenticator.prompts, 2)
    }
}
