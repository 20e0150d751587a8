#if canImport(CTSS2)
import AttackTestSupport
import Crypto
import Foundation
import TPMTestSupport
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Keychains whose device secret is sealed by a TPM (a software TPM per test): they open on
/// their machine only, bind and unbind without losing an item, and say precisely why they do
/// not open elsewhere.
final class TPMBindingTests: XCTestCase {
    let secret = Data("correct horse battery staple".utf8)
    let entry: [AttributeKey: AttributeValue] = [.service: "api.example.com", .account: "alice"]

    private func addSecret(_ keychain: Keychain) throws {
        try keychain.add(NewItem(.genericPassword, attributes: entry, data: secret))
    }

    private func readSecret(_ keychain: Keychain) throws -> Data? {
        try keychain.findFirst(Query(.genericPassword, entry), returning: .data)?.data
    }

    private func options(_ tpm: TPMDevice?, binding: NewKeychainBinding = .automatic) -> KeychainOptions {
        KeychainOptions(
            passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: "TEAM.test.app", tpm: tpm,
            newKeychainBinding: binding)
    }

    func testNewKeychainIsSealedByTheTPMAndTheFileHoldsNoSecret() throws {
        let tpm = try startSoftwareTPM()
        let test = try TestKeychain(tpm: tpm.device)
        XCTAssertEqual(test.keychain.deviceBinding, .tpm(device: tpm.device, pcrs: []))
        // A software TPM resists copying, but its seeds are files: not secure hardware.
        XCTAssertFalse(test.keychain.deviceBinding.isProtectedBySecureHardware)
        XCTAssertTrue(
            DeviceBinding.tpm(device: TPMDevice(tcti: "device:/dev/tpmrm0"), pcrs: []).isProtectedBySecureHardware)
        XCTAssertFalse(DeviceBinding.keyFile.isProtectedBySecureHardware)
        XCTAssertTrue(tpm.device.isSimulator)
        try addSecret(test.keychain)

        let file = try Data(contentsOf: test.location.deviceKeyURL)
        XCTAssertEqual(file[4], 2, "a sealed device key file")
        let deviceKey = test.keychain.keys.deviceKey.withUnsafeBytes { Data($0) }
        XCTAssertNil(file.range(of: deviceKey), "the device secret is not in the file")
        XCTAssertNil(file.range(of: deviceKey.prefix(8)))

        try test.reopen()
        XCTAssertEqual(try readSecret(test.keychain), secret)
        // A reboot of the machine (PCRs reset, same TPM seeds).
        try tpm.restart()
        try test.reopen()
        XCTAssertEqual(try readSecret(test.keychain), secret)
    }

    func testCopiedFilesOpenNothingOnAnotherMachineAndOpenBackHome() throws {
        let home = try startSoftwareTPM()
        let elsewhere = try startSoftwareTPM()
        let test = try TestKeychain(tpm: home.device)
        try addSecret(test.keychain)
        let key = try test.keychain.generateTokenKey(.p256)
        let copy = try test.copyFiles()
        defer {
            try? FileManager.default.removeItem(
                at: copy.databaseURL.deletingLastPathComponent().deletingLastPathComponent())
        }

        XCTAssertThrowsError(try Keychain(location: copy, options: options(elsewhere.device))) { error in
            let failure = error as! KeychainError
            XCTAssertEqual(failure.code, .keychainUnavailable)
            XCTAssertTrue(failure.message.contains("sealed by another TPM"), failure.message)
            XCTAssertNil(failure.message.range(of: "correct horse"))
        }
        XCTAssertThrowsError(try Keychain(location: copy, options: options(nil))) { error in
            XCTAssertEqual((error as! KeychainError).code, .keychainUnavailable)
            XCTAssertTrue((error as! KeychainError).message.contains("sealed by a TPM, and this process uses none"))
        }
        // The attacker's other route: the device key file's bytes as a clear key.
        let file = try Data(contentsOf: copy.deviceKeyURL)
        for offset in stride(from: 0, to: file.count - 32, by: 1) {
            XCTAssertNotEqual(
                SymmetricKey(data: file[offset..<offset + 32]).withUnsafeBytes { Data($0) },
                test.keychain.keys.deviceKey.withUnsafeBytes { Data($0) })
        }

        // The same copy back on the machine it came from opens, and the TPM key signs there.
        let back = try Keychain(location: copy, options: options(home.device))
        XCTAssertEqual(try readSecret(back), secret)
        let message = Data("hello".utf8)
        let digest = Data(SHA256.hash(data: message))
        let signature = try back.signWithTokenKey(key.persistentReference, digest: digest)
        let publicKey = try P256.Signing.PublicKey(x963Representation: back.tokenKeyPublicKey(key.persistentReference))
        XCTAssertTrue(
            publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
    }

    func testBindingAnExistingKeychainKeepsEveryItemAndItsSoftwareKeys() throws {
        let tpm = try startSoftwareTPM()
        let test = try TestKeychain(tpm: tpm.device)
        // Created as a key file (as before TPM support), then bound.
        let location = test.location
        let unbound = KeychainLocation(directory: test.directory.appendingPathComponent("old"))
        let before = try Keychain(location: unbound, options: options(tpm.device, binding: .keyFile))
        XCTAssertEqual(before.deviceBinding, .keyFile)
        try addSecret(before)
        let softwareKey = try before.generateTokenKey(.p256)
        XCTAssertEqual(softwareKey.attributes[TokenKeys.storageAttribute], .string("software"))

        try before.bindToTPM()
        XCTAssertEqual(before.deviceBinding, .tpm(device: tpm.device, pcrs: []))
        let tpmKey = try before.generateTokenKey(.p256)
        XCTAssertEqual(tpmKey.attributes[TokenKeys.storageAttribute], .string("tpm"))
        let p384 = try before.generateTokenKey(.p384)
        XCTAssertEqual(
            p384.attributes[TokenKeys.storageAttribute], .string("software"), "the TPM holds P-256 keys only")

        let reopened = try Keychain(location: unbound, options: options(tpm.device))
        XCTAssertEqual(try readSecret(reopened), secret)
        let message = Data("message".utf8)
        let digest = Data(SHA256.hash(data: message))
        for key in [softwareKey, tpmKey] {
            let signature = try reopened.signWithTokenKey(key.persistentReference, digest: digest)
            let publicKey = try P256.Signing.PublicKey(
                x963Representation: reopened.tokenKeyPublicKey(key.persistentReference))
            XCTAssertTrue(
                publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
        }
        let found = try XCTUnwrap(
            reopened.findFirst(Query(persistentReference: softwareKey.persistentReference), returning: .attributes))
        XCTAssertEqual(TokenKeys.storage(of: found.attributes), .software)
        XCTAssertThrowsError(try Keychain(location: unbound, options: options(nil)))
        _ = location
    }

    func testUnbindNeedsThePassphraseAndLeavesAKeyFile() throws {
        let tpm = try startSoftwareTPM()
        let test = try TestKeychain(tpm: tpm.device)
        try addSecret(test.keychain)
        XCTAssertThrowsError(try test.keychain.unbindFromTPM(passphrase: "anything")) { error in
            XCTAssertEqual(
                (error as! KeychainError).code, .invalidState,
                "no passphrase: unbinding would leave the items unprotected")
        }
        try test.keychain.setPassphrase("open sesame")
        XCTAssertThrowsError(try test.keychain.unbindFromTPM(passphrase: "open sesam")) { error in
            XCTAssertEqual((error as! KeychainError).code, .authFailed)
        }
        XCTAssertEqual(
            test.keychain.deviceBinding, .tpm(device: tpm.device, pcrs: []), "a wrong passphrase changes nothing")
        XCTAssertEqual(try Data(contentsOf: test.location.deviceKeyURL)[4], 2)

        try test.keychain.unbindFromTPM(passphrase: "open sesame")
        XCTAssertEqual(test.keychain.deviceBinding, .keyFile)
        XCTAssertThrowsError(try test.keychain.unbindFromTPM(passphrase: "open sesame")) { error in
            XCTAssertEqual((error as! KeychainError).code, .invalidState)
        }
        // Moved to a machine without a TPM: it opens, and the passphrase opens its items.
        let copy = try test.copyFiles()
        let moved = try Keychain(location: copy, options: options(nil))
        try moved.unlock(passphrase: "open sesame")
        XCTAssertEqual(try readSecret(moved), secret)
        // And binds to the new machine's TPM.
        let newMachine = try startSoftwareTPM()
        let there = try Keychain(location: copy, options: options(newMachine.device))
        try there.bindToTPM(passphrase: "open sesame")
        XCTAssertEqual(
            try Keychain(location: copy, options: options(newMachine.device)).deviceBinding,
            .tpm(device: newMachine.device, pcrs: []))
        XCTAssertThrowsError(
            try Keychain(location: copy, options: options(tpm.device)),
            "the old machine's TPM no longer opens the moved copy")
    }

    func testPCRPolicyRefusesAChangedBootStateUntilItIsBack() throws {
        let tpm = try startSoftwareTPM()
        let test = try TestKeychain(tpm: tpm.device)
        try addSecret(test.keychain)
        try test.keychain.bindToTPM(pcrs: [7])
        XCTAssertEqual(test.keychain.deviceBinding, .tpm(device: tpm.device, pcrs: [7]))
        try test.reopen()
        XCTAssertEqual(try readSecret(test.keychain), secret)

        try tpm.extendPCR(7)
        XCTAssertThrowsError(try test.openAnother()) { error in
            let failure = error as! KeychainError
            XCTAssertEqual(failure.code, .keychainUnavailable)
            XCTAssertTrue(failure.message.contains("PCR values that changed"), failure.message)
        }
        // Another PCR does not matter; booting the old configuration again (PCRs reset) does.
        try tpm.restart()
        try tpm.extendPCR(8)
        XCTAssertEqual(try readSecret(test.openAnother()), secret)
        XCTAssertThrowsError(try test.keychain.bindToTPM(pcrs: [24])) { error in
            XCTAssertEqual((error as! KeychainError).code, .invalidParameter)
        }
    }

    func testNewKeychainBindingChoices() throws {
        let tpm = try startSoftwareTPM()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-binding-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        func location(_ name: String) -> KeychainLocation {
            KeychainLocation(directory: directory.appendingPathComponent(name))
        }
        XCTAssertEqual(
            try Keychain(location: location("file"), options: options(tpm.device, binding: .keyFile)).deviceBinding,
            .keyFile)
        XCTAssertEqual(try Keychain(location: location("none"), options: options(nil)).deviceBinding, .keyFile)
        XCTAssertThrowsError(try Keychain(location: location("required"), options: options(nil, binding: .tpm))) {
            error in
            XCTAssertEqual((error as! KeychainError).code, .keychainUnavailable)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: location("required").deviceKeyURL.path))
        // A TPM that cannot be reached: automatic falls back to a key file, required fails.
        let gone = TPMDevice(tcti: "swtpm:path=\(directory.path)/no-such-socket")
        XCTAssertEqual(try Keychain(location: location("fallback"), options: options(gone)).deviceBinding, .keyFile)
        XCTAssertThrowsError(try Keychain(location: location("unreachable"), options: options(gone, binding: .tpm))) {
            error in
            XCTAssertEqual((error as! KeychainError).code, .keychainUnavailable)
            XCTAssertTrue(
                (error as! KeychainError).message.contains("cannot be reached"), (error as! KeychainError).message)
        }
    }

    func testEnvironmentChoosesTheTPM() {
        XCTAssertEqual(
            TPMDevice.discovered(environment: ["SECURE_STORAGE_TPM_TCTI": "swtpm:path=/x/sock"]),
            TPMDevice(tcti: "swtpm:path=/x/sock"))
        XCTAssertNil(TPMDevice.discovered(environment: ["SECURE_STORAGE_TPM_TCTI": "none"]))
        XCTAssertNil(TPMDevice.discovered(environment: ["SECURE_STORAGE_TPM_TCTI": " "]))
        XCTAssertTrue(TPMDevice.isSupported)
    }
}
#endif
