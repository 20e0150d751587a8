import CExtendedAttributes
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
        try FileManager.default.createDirectory(
            at: files, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
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
        XCTAssertKeychainError(
            .authFailed,
            try self.test.keychain.unlock(from: .file(self.write(self.passphrase + "\n\n", named: "two", mode: 0o600))),
            "only one newline is ignored")
    }

    func testAFileOthersCanReadIsRefusedAndNotEchoed() throws {
        for (name, mode) in [("world", 0o644), ("group", 0o640), ("group-write", 0o620)] {
            let url = try write(passphrase, named: name, mode: mode)
            XCTAssertKeychainError(
                .keychainUnavailable, revealing: [passphrase], try self.test.keychain.unlock(from: .file(url)), name)
            XCTAssertEqual(test.keychain.lockState, .beforeFirstUnlock, name)
        }
        let target = try write(passphrase, named: "target", mode: 0o600)
        let link = files.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        XCTAssertKeychainError(
            .keychainUnavailable, revealing: [passphrase], try self.test.keychain.unlock(from: .file(link)),
            "a symbolic link")
        let fifo = files.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertKeychainError(
            .keychainUnavailable, try self.test.keychain.unlock(from: .file(fifo)), "a FIFO does not hang the unlock")
        XCTAssertKeychainError(
            .keychainUnavailable,
            try self.test.keychain.unlock(
                from: .file(self.write(String(repeating: "x", count: 5000), named: "big", mode: 0o600))))
        XCTAssertKeychainError(
            .invalidParameter, try self.test.keychain.unlock(from: .file(self.write("\n", named: "empty", mode: 0o600)))
        )
        XCTAssertThrowsError(try self.test.keychain.unlock(from: .file(self.files.appendingPathComponent("missing"))))
    }

    func testASystemdCredentialIsFoundByItsDocumentedName() throws {
        XCTAssertFalse(try test.keychain.unlockFromCredentialsIfPresent(environment: [:]), "no CREDENTIALS_DIRECTORY")
        let credentials = ["CREDENTIALS_DIRECTORY": files.path]
        XCTAssertFalse(try test.keychain.unlockFromCredentialsIfPresent(environment: credentials), "no such credential")
        XCTAssertKeychainError(
            .keychainUnavailable, try self.test.keychain.unlock(from: .systemdCredential(), environment: [:]))
        _ = try write(passphrase, named: PassphraseSource.credentialName, mode: 0o400)
        XCTAssertTrue(try test.keychain.unlockFromCredentialsIfPresent(environment: credentials))
        XCTAssertEqual(test.keychain.lockState, .unlocked)
        XCTAssertFalse(try test.keychain.unlockFromCredentialsIfPresent(environment: credentials), "already unlocked")
        XCTAssertEqual(PassphraseSource.systemdCredential().description, "systemdCredential(secure-storage-passphrase)")
    }

    /// A credential given to a service whose keychain has no passphrase (a new keychain, made
    /// where the unit's SECURE_STORAGE_HOME pointed, not where the passphrase was set) is an
    /// error naming both, not a silent `false` and an empty keychain (a new user's trial).
    func testACredentialForAKeychainWithoutAPassphraseIsAnErrorNamingBoth() throws {
        let other = try TestKeychain()
        _ = try write(passphrase, named: PassphraseSource.credentialName, mode: 0o400)
        let credentials = ["CREDENTIALS_DIRECTORY": files.path]
        XCTAssertKeychainError(
            .invalidState, revealing: [passphrase],
            try other.keychain.unlockFromCredentialsIfPresent(environment: credentials))
        do {
            _ = try other.keychain.unlockFromCredentialsIfPresent(environment: credentials)
        } catch {
            XCTAssertTrue(
                error.message.contains(other.location.databaseURL.path)
                    && error.message.contains(PassphraseSource.credentialName), error.message)
            XCTAssertTrue(error.message.contains("SECURE_STORAGE_HOME"), error.message)
        }
        XCTAssertFalse(
            try other.keychain.unlockFromCredentialsIfPresent(environment: [:]), "no credential: nothing to say")
    }

    /// systemd grants the service user read access to a root-owned credential with an ACL, whose
    /// mask shows in the group bits: group bits are accepted only when the ACL proves they are that
    /// mask and grants nobody but the owner and this user anything. A group that can read the
    /// file, another user named in the ACL, or others are refused, and the error never echoes the
    /// passphrase.
    func testACredentialIsReadableOnlyByItsOwnerAndThisUser() throws {
        let credentials = ["CREDENTIALS_DIRECTORY": files.path]
        let credential = try write(passphrase, named: PassphraseSource.credentialName, mode: 0o400)
        let me = getuid()
        func refused(_ why: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertKeychainError(
                .keychainUnavailable, revealing: [passphrase],
                try self.test.keychain.unlock(from: .systemdCredential(), environment: credentials), why)
        }

        // What systemd writes: user::r, user:<service user>:r, group::-, mask::r, other::-.
        try setACL(credential, [(0x01, 4, .max), (0x02, 4, me), (0x04, 0, .max), (0x10, 4, .max), (0x20, 0, .max)])
        XCTAssertEqual(try mode(credential), 0o440, "the mask shows as group bits")
        XCTAssertKeychainError(
            .keychainUnavailable, try self.test.keychain.unlock(from: .file(credential)),
            "a plain passphrase file stays owner-only")
        try test.keychain.unlock(from: .systemdCredential(), environment: credentials)
        XCTAssertEqual(test.keychain.lockState, .unlocked)

        try test.reopen()
        try setACL(
            credential,
            [(0x01, 4, .max), (0x02, 4, me), (0x02, 4, 1234), (0x04, 0, .max), (0x10, 4, .max), (0x20, 0, .max)])
        refused("another user named in the ACL")
        try setACL(credential, [(0x01, 4, .max), (0x04, 4, .max), (0x08, 4, 100), (0x10, 4, .max), (0x20, 0, .max)])
        refused("a group named in the ACL")
        try setACL(credential, [(0x01, 4, .max), (0x02, 4, me), (0x04, 4, .max), (0x10, 4, .max), (0x20, 0, .max)])
        refused("the owning group in the ACL")
        try setACL(credential, [(0x01, 4, .max), (0x02, 4, me), (0x04, 0, .max), (0x10, 4, .max), (0x20, 4, .max)])
        refused("others in the ACL")
        XCTAssertEqual(removexattr(credential.path, "system.posix_acl_access"), 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o440], ofItemAtPath: credential.path)
        refused("group bits without an ACL are the group's real access")
        try FileManager.default.setAttributes([.posixPermissions: 0o404], ofItemAtPath: credential.path)
        refused("readable by every user")
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: credential.path)
        try test.keychain.unlock(from: .systemdCredential(), environment: credentials)
        XCTAssertEqual(test.keychain.lockState, .unlocked)
    }

    private func mode(_ url: URL) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber).intValue
    }

    /// Sets the file's POSIX ACL (tag, permissions, id), as `setfacl` would.
    private func setACL(_ url: URL, _ entries: [(tag: UInt16, permissions: UInt16, id: UInt32)]) throws {
        var bytes: [UInt8] = [2, 0, 0, 0]
        for entry in entries {
            bytes += withUnsafeBytes(of: entry.tag.littleEndian, Array.init)
            bytes += withUnsafeBytes(of: entry.permissions.littleEndian, Array.init)
            bytes += withUnsafeBytes(of: entry.id.littleEndian, Array.init)
        }
        guard setxattr(url.path, "system.posix_acl_access", bytes, bytes.count, 0) == 0 else {
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(errno),
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "setxattr system.posix_acl_access failed: the test directory's file system must keep POSIX ACLs"
                ])
        }
    }
}
