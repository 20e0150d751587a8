#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import AttackTestSupport
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import TPMTestSupport
import XCTest

/// iOS Secure Enclave code, unchanged, on a keychain bound to a TPM (a software TPM per test):
/// `SecKeyCreateRandomKey` with `kSecAttrTokenIDSecureEnclave` makes the key in the TPM, and
/// signing and key exchange go through it.
final class SecKeyTPMTests: SecItemTestCase {
    var tpm: SoftwareTPM!

    override func tpmForKeychain() throws -> TPMDevice? {
        tpm = try startSoftwareTPM()
        return TPMDevice(tcti: tpm.tcti)
    }

    func testSecureEnclaveKeyLivesInTheTPM() throws {
        XCTAssertEqual(keychain.deviceBinding, .tpm(device: TPMDevice(tcti: tpm.tcti), pcrs: []))
        let tag = Data("com.acme.tpm-key".utf8)
        let key = try makeKey(token: true, [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag])
        let publicKey = try publicKey(of: key)
        let message = Data("attest me".utf8)
        for algorithm in [
            SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256, .ecdsaSignatureMessageX962SHA384,
            .ecdsaSignatureMessageX962SHA1,
            .ecdsaSignatureMessageX962SHA512, .ecdsaSignatureMessageX962SHA224
        ] {
            let signature = try sign(key, algorithm, message)
            XCTAssertTrue(verify(publicKey, algorithm, message, signature).valid, "\(algorithm)")
            XCTAssertFalse(verify(publicKey, algorithm, Data("tampered".utf8), signature).valid)
        }
        let digest = Data(SHA256.hash(data: message))
        XCTAssertTrue(
            verify(
                publicKey, .ecdsaSignatureDigestX962SHA256, digest,
                try sign(key, .ecdsaSignatureDigestX962SHA256, digest)
            ).valid)
        XCTAssertNil(
            secKeyCall { SecKeyCopyExternalRepresentation(key, $0) }.value,
            "a Secure Enclave private key is not exportable")

        // ECDH through the TPM equals swift-crypto's.
        let peer = P256.KeyAgreement.PrivateKey()
        let peerKey = try XCTUnwrap(
            SecKeyCreateWithData(
                peer.publicKey.x963Representation as CFData,
                [
                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                    kSecAttrKeyClass as String: kSecAttrKeyClassPublic
                ] as CFDictionary, nil))
        let shared = try XCTUnwrap(
            secKeyCall { SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, peerKey, [:] as CFDictionary, $0) }
                .value as Data?)
        let expected = try peer.sharedSecretFromKeyAgreement(
            with: P256.KeyAgreement.PublicKey(x963Representation: external(publicKey)))
        XCTAssertEqual(shared, expected.withUnsafeBytes { Data($0) })

        // ECIES decryption is a key agreement in the TPM, too.
        let plaintext = Data("for the TPM's eyes only".utf8)
        let sealed = try XCTUnwrap(
            secKeyCall {
                SecKeyCreateEncryptedData(
                    publicKey, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, plaintext as CFData, $0)
            }.value)
        XCTAssertEqual(
            secKeyCall {
                SecKeyCreateDecryptedData(key, .eciesEncryptionStandardVariableIVX963SHA256AESGCM, sealed, $0)
            }.value as Data?, plaintext)

        // The item says where the key lives.
        var result: CFTypeRef?
        XCTAssertEqual(
            SecItemCopyMatching(
                [
                    kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                    kSecReturnAttributes as String: true
                ] as CFDictionary, &result), errSecSuccess)
        let attributes = try XCTUnwrap(result as? [String: Any])
        XCTAssertEqual(attributes[kSecAttrTokenID as String] as? String, kSecAttrTokenIDSecureEnclave as String)
        XCTAssertEqual(attributes[TokenKeys.storageAttribute.rawValue] as? String, "tpm")
    }
}
#endif
