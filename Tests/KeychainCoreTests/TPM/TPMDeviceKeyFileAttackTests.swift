#if canImport(CTSS2)
import AttackTestSupport
import Crypto
import Foundation
import TPMTestSupport
import XCTest
@testable import KeychainCore

/// An attacker who can write the state directory edits a TPM-sealed device key file: forged
/// blobs, a stripped PCR policy, another keychain's sealed file, a clear key of their own.
/// Each gives a precise error and opens nothing.
final class TPMDeviceKeyFileAttackTests: XCTestCase {
    var tpm: SoftwareTPM!
    var test: TestKeychain!
    let secret = "the launch codes"

    override func setUpWithError() throws {
        tpm = try startSoftwareTPM()
        test = try TestKeychain(tpm: tpm.device)
        try test.keychain.add(
            NewItem(.genericPassword, attributes: [.service: "s", .account: "a"], data: Data(secret.utf8)))
    }

    /// Rewrites the device key file with `edit` applied to its body and a valid checksum, as an
    /// attacker who read the (public) layout would.
    private func forge(_ edit: (inout Data) -> Void) throws {
        var file = try Data(contentsOf: test.location.deviceKeyURL)
        var body = Data(file.dropLast(32))
        edit(&body)
        file = body + Data(SHA256.hash(data: body))
        try file.write(to: test.location.deviceKeyURL)
    }

    private func assertRefused(_ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertKeychainError(
            .keychainUnavailable, revealing: [secret], try self.test.openAnother(), file: file, line: line)
        do { _ = try test.openAnother() } catch let error as KeychainError {
            XCTAssertTrue(
                error.message.contains(expected), "\(error.message) does not say \(expected)", file: file, line: line)
        } catch { XCTFail("\(error)", file: file, line: line) }
    }

    func testAFlippedBitInTheSealedBlobIsRefusedByTheTPM() throws {
        for offset in [5 + 3 + 2 + 34 + 2 + 60, 5 + 3 + 2 + 34 + 2 + 120, 5 + 3 + 2 + 34 + 2 + 200] {
            let original = try Data(contentsOf: test.location.deviceKeyURL)
            try forge { $0[offset] ^= 0x10 }
            XCTAssertKeychainError(.keychainUnavailable, revealing: [secret], try self.test.openAnother())
            try original.write(to: test.location.deviceKeyURL)
        }
        XCTAssertNoThrow(try test.openAnother())
    }

    func testTruncatedOrMisframedFilesAreNotDeviceKeys() throws {
        let original = try Data(contentsOf: test.location.deviceKeyURL)
        try forge { $0 = $0.prefix(40) }
        assertRefused("is not a SecureStorage device key")
        try original.write(to: test.location.deviceKeyURL)
        try forge { $0.append(0) }
        assertRefused("is not a SecureStorage device key")
        try original.write(to: test.location.deviceKeyURL)
        try forge { $0[4] = 9 }
        XCTAssertKeychainError(.unsupportedVersion, try self.test.openAnother())
        try original.write(to: test.location.deviceKeyURL)
        var corrupted = original
        corrupted[50] ^= 1
        try corrupted.write(to: test.location.deviceKeyURL)
        assertRefused("checksum mismatch")
    }

    func testStrippingThePCRPolicyDoesNotUnseal() throws {
        try test.keychain.bindToTPM(pcrs: [7])
        try forge { $0.replaceSubrange(5..<8, with: [0, 0, 0]) }
        XCTAssertKeychainError(.keychainUnavailable, revealing: [secret], try self.test.openAnother())
        try forge { $0.replaceSubrange(5..<8, with: [0, 0x01, 0]) }  // PCR 8 instead of 7
        XCTAssertKeychainError(.keychainUnavailable, revealing: [secret], try self.test.openAnother())
    }

    func testAnotherKeychainsSealedSecretOrAClearKeyOfTheAttackersOpensNothing() throws {
        let other = try TestKeychain(tpm: tpm.device)
        try FileManager.default.removeItem(at: test.location.deviceKeyURL)
        try FileManager.default.copyItem(at: other.location.deviceKeyURL, to: test.location.deviceKeyURL)
        XCTAssertKeychainError(.keychainUnavailable, revealing: [secret], try self.test.openAnother())

        // A version-1 file with a key the attacker chose: the keybag does not open with it.
        var clear = Data("SSDK".utf8) + [1] + Data(repeating: 0x41, count: 32)
        clear += Data(SHA256.hash(data: clear))
        try clear.write(to: test.location.deviceKeyURL)
        assertRefused("does not belong to this keychain")
    }

    func testTheFileStaysPrivateAcrossBindAndUnbind() throws {
        try test.keychain.setPassphrase("pass")
        try test.keychain.unbindFromTPM(passphrase: "pass")
        try test.keychain.bindToTPM(passphrase: "pass")
        for url in [test.location.deviceKeyURL, test.anchorURL] {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, url.lastPathComponent)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: test.location.deviceKeyURL.deletingLastPathComponent().path
        )
        .filter { $0.contains(".tmp-") || $0.hasSuffix(".pending") }
        XCTAssertEqual(leftovers, [])
    }
}
#endif
