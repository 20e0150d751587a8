import Foundation
import XCTest
@testable import KeychainCore

/// Unattended unlock: a passphrase file or a systemd credential, read only when it is the
/// user's own and nobody else can read it, and never echoed in an error.
final class PassphraseSourceTests: XCTestCase {
    var test: TestKeychain!
    var files: URL!
    let passphrase = "correct horse battery staple"

    override func setUpWithError() throws {
        test = try TestKeychain()
        try test.keychain.setPassphrase(passphrase)
        try test.reopen()
        files = test.directory.appendingPathComponent("secrets")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func write(_ text: String, named name: String, mode: Int) throws -> URL {
        let url = files.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url
    }

    func testAPrivateFileUnlocksAndOneTrailingNewlineIsIgnored() throws {
        XCTAssertEqual(test.keychain.lockState, .beforeFirstUnlock)
        try test.keychain.unlock(from: .file(write(passphrase + "\n", named: "p", mode: 0o400)))
        XCTAssertEqual(test.keychain.lockState, .unlocked)
        try test.reopen()
        try test.keychain.unlock(from: .file(write(passphrase + "\r\n", named: "crlf", mode: 0o600)))
        XCTAssertEqual(test.keychain.lockState, .unlocked)
        try test.reopen()
        XCTAssertKeychainError(.authFailed, try self.test.keychain.unlock(from: .file(self.write(self.passphrase + "\n\n", named: "two", mode: 0o600))),
                               "only one newline is ignored")
    }

    func testAFileOthersCanReadIsRefusedAndNotEchoed() throws {
        for (name, mode) in [("world", 0o644), ("group", 0o640), ("group-write", 0o620)] {
            let url = try write(passphrase, named: name, mode: mode)
            XCTAssertKeychainError(.keychainUnavailable, revealing: [passphrase], try self.test.keychain.unlock(from: .file(url)), name)
            XCTAssertEqual(test.keychain.lockState, .beforeFirstUnlock, name)
        }
        let target = try write(passphrase, named: "target", mode: 0o600)
        let link = files.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        XCTAssertKeychainError(.keychainUnavailable, revealing: [passphrase], try self.test.keychain.unlock(from: .file(link)), "a symbolic link")
        let fifo = files.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertKeychainError(.keychainUnavailable, try self.test.keychain.unlock(from: .file(fifo)), "a FIFO does not hang the unlock")
        XCTAssertKeychainError(.keychainUnavailable, try self.test.keychain.unlock(from: .file(self.write(String(repeating: "x", count: 5000), named: "big", mode: 0o600))))
        XCTAssertKeychainError(.invalidParameter, try self.test.keychain.unlock(from: .file(self.write("\n", named: "empty", mode: 0o600))))
        XCTAssertThrowsError(try self.test.keychain.unlock(from: .file(self.files.appendingPathComponent("missing"))))
    }

    func testASystemdCredentialIsFoundByItsDocumentedName() throws {
        XCTAssertFalse(try test.keychain.unlockFromCredentialsIfPresent(environment: [:]), "no CREDENTIALS_DIRECTORY")
        let credentials = ["CREDENTIALS_DIRECTORY": files.path]
        XCTAssertFalse(try test.keychain.unlockFromCredentialsIfPresent(environment: credentials), "no such credential")
        XCTAssertKeychainError(.keychainUnavailable, try self.test.keychain.unlock(from: .systemdCredential(), environment: [:]))
        _ = try write(passphrase, named: PassphraseSource.credentialName, mode: 0o400)
        XCTAssertTrue(try test.keychain.unlockFromCredentialsIfPresent(environment: credentials))
        XCTAssertEqual(test.keychain.lockState, .unlocked)
        XCTAssertFalse(try test.keychain.unlockFromCredentialsIfPresent(environment: credentials), "already unlocked")
        XCTAssertEqual(PassphraseSource.systemdCredential().description, "systemdCredential(secure-storage-passphrase)")
    }

    /// systemd may grant the service user read access to a root-owned credential with an ACL,
    /// whose mask shows in the group bits: those are accepted for a credential (not for a plain
    /// file); access for others never is.
    func testACredentialMayShowAnACLMaskButNeverOtherAccess() throws {
        let credentials = ["CREDENTIALS_DIRECTORY": files.path]
        _ = try write(passphrase, named: PassphraseSource.credentialName, mode: 0o440)
        XCTAssertKeychainError(.keychainUnavailable, try self.test.keychain.unlock(from: .file(self.files.appendingPathComponent(PassphraseSource.credentialName))))
        try test.keychain.unlock(from: .systemdCredential(), environment: credentials)
        XCTAssertEqual(test.keychain.lockState, .unlocked)
        try test.reopen()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: files.appendingPathComponent(PassphraseSource.credentialName).path)
        XCTAssertKeychainError(.keychainUnavailable, revealing: [passphrase], try self.test.keychain.unlock(from: .systemdCredential(), environment: credentials))
    }
}
