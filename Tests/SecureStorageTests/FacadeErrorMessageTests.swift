#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import GRDB
import KeychainCore
import KeychainServices
import SecureStorage
import XCTest

/// Every facade entry point's error carries the engine's precise message (issue 35): what
/// happened, which path, and the fix, in ``SecureStorageError/message`` and in `description`
/// and `localizedDescription` — never a bare OSStatus text, and never a secret.
final class FacadeErrorMessageTests: ProtectedFilesTestCase {
    private let passphrase = "correct horse battery staple 7f3a"
    private let secretValue = "s3cr3t-value-9c1e"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try keychain.setPassphrase(passphrase)
    }

    /// The error `body` throws, which must be a `SecureStorageError` of `code` whose message,
    /// description and localized description contain every one of `fragments` and no secret.
    @discardableResult
    private func assertMessage<T>(
        _ code: SecureStorageError.Code, _ body: @autoclosure () throws -> T, contains fragments: [String],
        file: StaticString = #filePath, line: UInt = #line
    ) -> SecureStorageError? {
        do {
            _ = try body()
            XCTFail("no error", file: file, line: line)
            return nil
        } catch let error as SecureStorageError {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
            let message = error.message ?? ""
            XCTAssertFalse(message.isEmpty, "an error without the engine's message: \(error)", file: file, line: line)
            for fragment in fragments {
                XCTAssertTrue(
                    message.contains(fragment), "message lacks \(fragment.debugDescription): \(message)", file: file,
                    line: line)
                XCTAssertTrue(
                    error.description.contains(fragment), "description lacks \(fragment.debugDescription): \(error)",
                    file: file, line: line)
                XCTAssertTrue(
                    error.localizedDescription.contains(fragment),
                    "localizedDescription lacks \(fragment.debugDescription): \(error.localizedDescription)",
                    file: file, line: line)
            }
            for secret in [passphrase, secretValue] {
                XCTAssertFalse(
                    error.description.contains(secret) || message.contains(secret), "a secret in \(error)", file: file,
                    line: line)
            }
            XCTAssertFalse(
                error.description.contains("You may need to restart your computer"), "Apple's generic text: \(error)",
                file: file, line: line)
            return error
        } catch {
            XCTFail("not a SecureStorageError: \(error)", file: file, line: line)
            return nil
        }
    }

    private func passphraseFile(mode: mode_t, content: String? = nil) throws -> URL {
        let url = directory.appendingPathComponent("passphrase-\(UUID().uuidString)")
        try Data((content ?? passphrase).utf8).write(to: url)
        XCTAssertEqual(chmod(url.path, mode), 0)
        return url
    }

    // MARK: - Unlocking

    func testPassphraseFileReadableByOthers() throws {
        try SecItemEnvironment.lock()
        let file = try passphraseFile(mode: 0o644)
        assertMessage(
            .underlying, try SecureStorage.unlock(from: .file(file)), contains: [file.path, "chmod 600 \(file.path)"])
    }

    func testMissingPassphraseFile() throws {
        let file = directory.appendingPathComponent("no-such-passphrase")
        assertMessage(
            .underlying, try SecureStorage.unlock(from: .file(file)),
            contains: [file.path, "does not exist", "mode 0600"])
    }

    func testPassphraseFileIsADirectory() throws {
        let file = directory.appendingPathComponent("a-directory")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        assertMessage(
            .underlying, try SecureStorage.unlock(from: .file(file)),
            contains: [file.path, "not a regular file", "Remove it"])
    }

    func testWrongPassphrase() throws {
        try SecItemEnvironment.lock()
        let file = try passphraseFile(mode: 0o600, content: "not the passphrase")
        let databasePath = keychain.location.databaseURL.path
        assertMessage(
            .authenticationFailed, try SecureStorage.unlock(from: .file(file)),
            contains: [file.path, databasePath, "put its passphrase in the file"])
        assertMessage(
            .authenticationFailed, try SecureStorage.unlock(passphrase: "not the passphrase"),
            contains: [databasePath, "try again"])
    }

    func testLockingWithoutAPassphraseNamesTheKeychainAndTheFix() throws {
        try withEmptyDefaultHome { home in
            _ = try SecureStorage(service: "svc").contains("k")  // opens (creates) the default keychain
            assertMessage(
                .underlying, try SecureStorage.lock(),
                contains: [home.appendingPathComponent("data/keychain.db").path, "Set a passphrase first"])
        }
    }

    func testErrorsMatchWhateverTheirMessage() throws {
        try SecItemEnvironment.lock()
        XCTAssertThrowsError(try SecureStorage.unlock(passphrase: "wrong")) { error in
            XCTAssertEqual(
                error as? SecureStorageError, .authenticationFailed, "the message does not change what an error matches"
            )
            XCTAssertTrue(SecureStorageError.authenticationFailed ~= error)
        }
        XCTAssertNil(SecureStorageError.locked.message)
    }

    // MARK: - Values

    func testLockedKeychainNamesTheProtectionInFacadeTerms() throws {
        try storage.set(secretValue, for: "token")
        try SecItemEnvironment.lock()
        let path = keychain.location.databaseURL.path
        let fix = "SecureStorage.unlock(passphrase:) in code"
        let error = assertMessage(
            .locked, try storage.string(for: "token"),
            contains: [path, "kSecAttrAccessibleWhenUnlockedThisDeviceOnly (.secret)", fix])
        XCTAssertFalse(
            error?.description.contains("(aku)") ?? true, "no internal protection code: \(String(describing: error))")
        assertMessage(
            .locked, try storage.set("other-\(secretValue)", for: "new", sensitivity: .topSecret), contains: [path, fix]
        )
        assertMessage(.locked, try storage.changeProtection(of: "token", to: .topSecret), contains: [path, fix])
        assertMessage(.locked, try storage.allKeys(), contains: [path, fix])
    }

    func testTamperedValueNamesTheKeychainAndTheFix() throws {
        try storage.set(secretValue, for: "k")
        let queue = try DatabaseQueue(path: keychain.location.databaseURL.path)
        try queue.write { db in
            var secret = try XCTUnwrap(Data.fetchOne(db, sql: "SELECT secret FROM items"))
            secret[0] ^= 1
            try db.execute(sql: "UPDATE items SET secret = ?", arguments: [secret])
        }
        try queue.close()
        assertMessage(
            .integrityViolation, try storage.string(for: "k"),
            contains: [keychain.location.databaseURL.path, "Restore the keychain from a backup"])
    }

    func testUnusableDefaultKeychainSaysWhichFile() throws {
        try withEmptyDefaultHome { home in
            let deviceKey = home.appendingPathComponent("state/device.key")
            try SecureStorage(service: "svc").set(secretValue, for: "k")
            SecItemEnvironment.reset()
            XCTAssertEqual(chmod(deviceKey.path, 0o644), 0)
            assertMessage(
                .underlying, try SecureStorage(service: "svc").string(for: "k"), contains: [deviceKey.path, "chmod"])
        }
    }

    // MARK: - Protected files

    func testProtectedFileErrorsNameTheFileNotAnItem() throws {
        try files.write(Data(secretValue.utf8), to: "report.txt", protection: .complete)
        let path = self.path("report.txt")

        let missing = assertMessage(
            .notFound, try files.read("absent.txt"),
            contains: [self.path("absent.txt"), "does not exist", "Write it first"])
        XCTAssertFalse(missing?.description.contains("item") ?? true, "file wording: \(String(describing: missing))")

        var bytes = try rawBytes("report.txt")
        bytes[bytes.count - 1] ^= 1
        try setRawBytes(bytes, of: "report.txt")
        let tampered = assertMessage(
            .integrityViolation, try files.read("report.txt"), contains: [path, "Remove it and write it again"])
        XCTAssertFalse(tampered?.description.contains("item") ?? true, "file wording: \(String(describing: tampered))")

        try files.write(Data(secretValue.utf8), to: "report.txt", protection: .complete)
        try SecItemEnvironment.lock()
        let locked = assertMessage(
            .locked, try files.read("report.txt"), contains: [path, "SecureStorage.unlock(passphrase:)"])
        XCTAssertFalse(locked?.description.contains("item") ?? true, "file wording: \(String(describing: locked))")
        try SecItemEnvironment.unlock(passphrase: passphrase)

        assertMessage(
            .invalidName, try files.read("../escape"), contains: ["'../escape'", "not a valid protected file name"])
        XCTAssertEqual(chmod(filesDirectory.path, 0o755), 0)
        assertMessage(
            .insecureFile, try ProtectedFiles(directory: filesDirectory), contains: [filesDirectory.path, "0700"])
    }

    func testProtectedFileStreamsNameTheFile() throws {
        let writer = try files.create("stream.bin", protection: .complete)
        try writer.write(Data(count: 10))
        try writer.commit()
        try SecItemEnvironment.lock()
        assertMessage(.locked, try files.open("stream.bin"), contains: [path("stream.bin")])
        assertMessage(.locked, try files.create("other.bin", protection: .complete), contains: [path("other.bin")])
    }
}
#endif
