#if canImport(CTSS2)
import AttackTestSupport
import Crypto
import Foundation
import TPMTestSupport
import XCTest
@testable import KeychainCore

/// An attacker on the bus between the keychain and the TPM (an interposer on the LPC/SPI lines,
/// or a malicious TCTI), a TPM without a SHA-256 PCR bank, and a TPM that never answers.
final class TPMBusAttackTests: XCTestCase {
    func testASnifferSeesNeitherTheDeviceSecretNorATokenKeysAuthorization() throws {
        let tpm = try startSoftwareTPM()
        let sniffer = try FakeTPMSockets(forwardingTo: tpm)
        defer { sniffer.stop() }
        let tapped = TPMDevice(tcti: sniffer.tcti)
        let test = try TestKeychain(tpm: tapped)
        try test.reopen()  // seal, then unseal
        let key = try test.keychain.generateTokenKey(.p256)
        _ = try test.keychain.signWithTokenKey(key.persistentReference, digest: Data(count: 32))
        let shared = try test.keychain.keyAgreementWithTokenKey(
            key.persistentReference, peerPublicKey: P256.KeyAgreement.PrivateKey().publicKey.x963Representation)

        let captured = sniffer.capturedBytes
        XCTAssertGreaterThan(captured.count, 1000, "the proxy saw the traffic")
        let deviceSecret = test.keychain.keys.deviceKey.withUnsafeBytes { Data($0) }
        XCTAssertNil(captured.range(of: deviceSecret.prefix(16)), "the device secret crossed the bus in clear")
        var item = try test.keychain.read { db in
            try XCTUnwrap(
                test.keychain.matchingItems(
                    ResolvedQuery(Query(persistentReference: key.persistentReference)), limit: 1, proof: .attributes, db
                ).first?.opened)
        }
        try test.keychain.openData(of: &item, presenceKey: nil)
        let authorization = try XCTUnwrap(TPMTokenKeyRecord(encoded: XCTUnwrap(item.data))).authorization
        XCTAssertNil(
            captured.range(of: authorization.prefix(16)), "the token key's authorization crossed the bus in clear")
        XCTAssertNil(captured.range(of: shared.prefix(16)), "the ECDH shared secret crossed the bus in clear")
    }

    func testAPCRPolicyIsRefusedWhenTheTPMKeepsNoSHA256Bank() throws {
        let tpm = try startSoftwareTPM()
        let test = try TestKeychain(tpm: tpm.device)
        try tpm.allocateOnlySHA1Bank()
        let before = try Data(contentsOf: test.location.deviceKeyURL)
        XCTAssertThrowsError(try test.keychain.bindToTPM(pcrs: [7])) { error in
            XCTAssertEqual((error as! KeychainError).code, .invalidParameter)
            XCTAssertTrue(
                (error as! KeychainError).message.contains("keeps no SHA-256 value for PCR 7"),
                (error as! KeychainError).message)
        }
        XCTAssertEqual(try Data(contentsOf: test.location.deviceKeyURL), before, "nothing was written")
        XCTAssertNoThrow(try test.keychain.bindToTPM())
    }

    func testATPMThatNeverAnswersFailsInsteadOfHanging() throws {
        // Silent from the start, and silent only once connected (the first command hangs).
        for answersControl in [false, true] {
            try assertFailsWithinTimeout(FakeTPMSockets(forwardingTo: nil, answersControl: answersControl))
        }
    }

    private func assertFailsWithinTimeout(_ silent: FakeTPMSockets, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        defer { silent.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-silent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = Date()
        let options = KeychainOptions(
            tpm: TPMDevice(tcti: silent.tcti, responseTimeout: .milliseconds(300)), newKeychainBinding: .tpm)
        XCTAssertThrowsError(
            try Keychain(location: KeychainLocation(directory: directory), options: options), file: file, line: line
        ) { error in
            XCTAssertEqual((error as! KeychainError).code, .keychainUnavailable, file: file, line: line)
            XCTAssertTrue(
                (error as! KeychainError).message.contains("did not answer within"), (error as! KeychainError).message,
                file: file, line: line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, file: file, line: line)
    }

    func testMoreThanEightPCRsAreReadAndSealedTo() throws {
        let tpm = try startSoftwareTPM()
        let test = try TestKeychain(tpm: tpm.device)
        try test.keychain.bindToTPM(pcrs: Array(0...10))
        XCTAssertEqual(test.keychain.deviceBinding, .tpm(device: tpm.device, pcrs: Array(0...10)))
        XCTAssertNoThrow(try test.openAnother())
        try tpm.extendPCR(10)
        XCTAssertKeychainError(.keychainUnavailable, try test.openAnother())
    }
}
#endif
