#if canImport(CTSS2)
import AttackTestSupport
import AuthenticationTestSupport
import Crypto
import Foundation
import TPMTestSupport
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Token keys ("Secure Enclave" keys) of a keychain bound to a TPM: generated, used and kept in
/// the TPM; the keychain stores only the TPM's blob. Checked against swift-crypto.
final class TPMTokenKeyTests: XCTestCase {
    var tpm: SoftwareTPM!
    var test: TestKeychain!
    var keychain: Keychain { test.keychain }

    override func setUpWithError() throws {
        tpm = try startSoftwareTPM()
        test = try TestKeychain(tpm: tpm.device)
    }

    func testSignsEveryDigestSizeAndSwiftCryptoVerifies() throws {
        let key = try keychain.generateTokenKey(.p256, attributes: [.applicationTag: .data(Data("com.acme.tpm".utf8))])
        XCTAssertEqual(key.attributes[TokenKeys.storageAttribute], .string("tpm"))
        XCTAssertEqual(key.attributes[.tokenID]?.stringValue, TokenKeys.tokenID)
        let publicKeyBytes = try keychain.tokenKeyPublicKey(key.persistentReference)
        XCTAssertEqual(key.attributes[.applicationLabel]?.dataValue, Data(Insecure.SHA1.hash(data: publicKeyBytes)))
        let publicKey = try P256.Signing.PublicKey(x963Representation: publicKeyBytes)
        let message = Data("attest me".utf8)

        func signature(_ digest: some Digest) throws -> P256.Signing.ECDSASignature {
            try P256.Signing.ECDSASignature(
                derRepresentation: keychain.signWithTokenKey(key.persistentReference, digest: Data(digest)))
        }
        XCTAssertTrue(
            publicKey.isValidSignature(try signature(SHA256.hash(data: message)), for: SHA256.hash(data: message)))
        XCTAssertTrue(
            publicKey.isValidSignature(
                try signature(Insecure.SHA1.hash(data: message)), for: Insecure.SHA1.hash(data: message)))
        XCTAssertTrue(
            publicKey.isValidSignature(try signature(SHA384.hash(data: message)), for: SHA384.hash(data: message)))
        XCTAssertTrue(
            publicKey.isValidSignature(try signature(SHA512.hash(data: message)), for: SHA512.hash(data: message)))
        XCTAssertFalse(
            publicKey.isValidSignature(
                try signature(SHA256.hash(data: message)), for: SHA256.hash(data: Data("tampered".utf8))))
    }

    func testKeyAgreementMatchesSwiftCryptoAndRejectsBadPoints() throws {
        let key = try keychain.generateTokenKey(.p256)
        let peer = P256.KeyAgreement.PrivateKey()
        let shared = try keychain.keyAgreementWithTokenKey(
            key.persistentReference, peerPublicKey: peer.publicKey.x963Representation)
        let expected = try peer.sharedSecretFromKeyAgreement(
            with: P256.KeyAgreement.PublicKey(x963Representation: keychain.tokenKeyPublicKey(key.persistentReference)))
        XCTAssertEqual(shared, expected.withUnsafeBytes { Data($0) })

        var offCurve = peer.publicKey.x963Representation
        offCurve[40] ^= 0x01
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.keyAgreementWithTokenKey(key.persistentReference, peerPublicKey: offCurve))
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.keyAgreementWithTokenKey(
                key.persistentReference, peerPublicKey: Data(offCurve.prefix(33))))
        XCTAssertKeychainError(
            .invalidParameter,
            try self.keychain.keyAgreementWithTokenKey(key.persistentReference, peerPublicKey: Data()))
    }

    func testTheKeychainStoresOnlyTheTPMBlob() throws {
        let key = try keychain.generateTokenKey(.p256)
        var item = try keychain.read { db in
            try XCTUnwrap(
                self.keychain.matchingItems(
                    ResolvedQuery(Query(persistentReference: key.persistentReference)), limit: 1, proof: .attributes, db
                ).first?.opened)
        }
        try keychain.openData(of: &item, presenceKey: nil)
        let stored = try XCTUnwrap(item.data)
        let record = try XCTUnwrap(
            TPMTokenKeyRecord(encoded: stored), "the item's secret is a TPM record, not a scalar")
        XCTAssertEqual(record.authorization.count, 32)
        XCTAssertGreaterThan(stored.count, 150)
        // The blob loads only in the TPM that made it: another TPM refuses it.
        let other = try startSoftwareTPM()
        XCTAssertThrowsError(try record.signature(forDigest: Data(count: 32), on: other.device)) { error in
            XCTAssertEqual((error as! KeychainError).code, .keychainUnavailable)
            XCTAssertTrue((error as! KeychainError).message.contains("another TPM"))
        }
        // Without its authorization value this TPM refuses it too.
        var stripped = record
        stripped.authorization = Data(repeating: 7, count: 32)
        XCTAssertKeychainError(
            .integrityViolation, try stripped.signature(forDigest: Data(count: 32), on: self.tpm.device))
    }

    func testPrivateKeyUsagePolicyGatesTheTPMKey() throws {
        let authenticator = ScriptedAuthenticator()
        keychain.authenticator = authenticator
        try authenticator.enroll(in: keychain)
        let key = try keychain.generateTokenKey(
            .p256, policy: AccessPolicy(flags: [.privateKeyUsage, .biometryCurrentSet]))
        XCTAssertEqual(key.attributes[TokenKeys.storageAttribute], .string("tpm"))
        _ = try keychain.tokenKeyPublicKey(key.persistentReference)
        XCTAssertEqual(authenticator.prompts, 0)
        _ = try keychain.signWithTokenKey(key.persistentReference, digest: Data(count: 32))
        XCTAssertEqual(authenticator.prompts, 1)
        authenticator.script([.canceled])
        XCTAssertKeychainError(
            .userCanceled, try self.keychain.signWithTokenKey(key.persistentReference, digest: Data(count: 32)))
        authenticator.enroll("someone else")
        XCTAssertKeychainError(
            .authFailed,
            try self.keychain.keyAgreementWithTokenKey(
                key.persistentReference, peerPublicKey: P256.KeyAgreement.PrivateKey().publicKey.x963Representation))
    }

    func testTPMKeysStayBehindWhenTheKeychainMoves() throws {
        let key = try keychain.generateTokenKey(.p256)
        try keychain.setPassphrase("moving day")
        try keychain.unbindFromTPM(passphrase: "moving day")
        let copy = try test.copyFiles()
        let newMachine = try startSoftwareTPM()
        let moved = try Keychain(
            location: copy,
            options: KeychainOptions(
                passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: "TEAM.test.app",
                tpm: newMachine.device))
        try moved.unlock(passphrase: "moving day")
        XCTAssertThrowsError(try moved.signWithTokenKey(key.persistentReference, digest: Data(count: 32))) { error in
            XCTAssertEqual((error as! KeychainError).code, .keychainUnavailable)
            XCTAssertTrue((error as! KeychainError).message.contains("another TPM"), (error as! KeychainError).message)
        }
        // At home it still signs.
        XCTAssertNoThrow(try keychain.signWithTokenKey(key.persistentReference, digest: Data(count: 32)))
    }
}
#endif
