#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
@_spi(Testing) import KeychainCore
import KeychainServices
import SecureStorage
import XCTest

/// Each test gets a fresh keychain behind the SecItem API and a known application identity.
class StorageTestCase: XCTestCase {
    var directory: URL!
    var keychain: Keychain!
    var storage: SecureStorage!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("storage-\(UUID().uuidString)")
        keychain = try Keychain(
            location: KeychainLocation(directory: directory),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: nil))
        SecItemEnvironment.useKeychain(keychain)
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(
            applicationIdentifier: "TEAM.com.acme.app", accessGroups: ["TEAM.com.acme.shared"])
        storage = SecureStorage(service: "com.acme.app")
    }

    override func tearDownWithError() throws {
        SecItemEnvironment.reset()
        keychain = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Gives the keychain a passphrase (a device with a passcode) and locks it.
    func lockWithPassphrase() throws {
        if !keychain.hasPassphrase { try keychain.setPassphrase("device passcode") }
        try SecItemEnvironment.lock()
    }

    func unlock() throws { try SecItemEnvironment.unlock(passphrase: "device passcode") }

    /// Runs `body` with `SECURE_STORAGE_HOME` pointing at a fresh empty directory and no keychain
    /// chosen, so the default keychain would be created there; restores everything afterwards.
    func withEmptyDefaultHome(_ body: (URL) throws -> Void) throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let previous = ProcessInfo.processInfo.environment["SECURE_STORAGE_HOME"]
        setenv("SECURE_STORAGE_HOME", home.path, 1)
        defer {
            if let previous { setenv("SECURE_STORAGE_HOME", previous, 1) } else { unsetenv("SECURE_STORAGE_HOME") }
        }
        SecItemEnvironment.reset()
        try body(home)
    }
}

func XCTAssertStorageError<T>(
    _ expected: SecureStorageError, _ body: @autoclosure () throws -> T, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
        XCTAssertEqual(error as? SecureStorageError, expected, "\(message) \(error)", file: file, line: line)
    }
}
#endif
