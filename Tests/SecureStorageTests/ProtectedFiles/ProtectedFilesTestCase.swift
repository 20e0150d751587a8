#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
@_spi(Testing) import KeychainCore
import KeychainServices
import SecureStorage
import XCTest

/// A fresh keychain (``StorageTestCase``) and a store of protected files in a fresh directory.
class ProtectedFilesTestCase: StorageTestCase {
    var filesDirectory: URL!
    var files: ProtectedFiles!

    override func setUpWithError() throws {
        try super.setUpWithError()
        filesDirectory = directory.appendingPathComponent("files")
        files = try ProtectedFiles(directory: filesDirectory)
    }

    /// Replaces the keychain instance with a freshly opened one, as after a reboot: with a
    /// passphrase set it is before its first unlock.
    func restart() throws {
        keychain = try Keychain(
            location: KeychainLocation(directory: directory),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: nil))
        SecItemEnvironment.useKeychain(keychain)
        files = try ProtectedFiles(directory: filesDirectory)
    }

    /// A copy of the keychain's files as they are now: what an attacker keeps from before a
    /// passphrase change. Removed after the test.
    func copyOfTheKeychain() throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("old-copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: directory, to: copy)
        addTeardownBlock { try? FileManager.default.removeItem(at: copy) }
        return copy
    }

    /// The store's directory read through an old keychain copy unlocked with its passphrase.
    func storeThroughOldCopy(_ copy: URL, passphrase: String) throws -> ProtectedFiles {
        let old = try Keychain(
            location: KeychainLocation(directory: copy),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: nil))
        SecItemEnvironment.useKeychain(old)
        try old.unlock(passphrase: passphrase)
        return try ProtectedFiles(directory: filesDirectory)
    }

    /// `count` bytes of a repeating, position-dependent pattern (chunk swaps change the content).
    func pattern(_ count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) })
    }

    /// The path of a stored file.
    func path(_ name: String) -> String { filesDirectory.appendingPathComponent(name).path }

    /// The raw bytes of a stored file.
    func rawBytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }

    /// Replaces the raw bytes of a stored file, keeping it private (as an attacker with this
    /// user's file access would).
    func setRawBytes(_ data: Data, of name: String) throws {
        try data.write(to: URL(fileURLWithPath: path(name)))
        chmod(path(name), 0o600)
    }

    /// The temporary files in the store's directory.
    func temporaries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: filesDirectory.path).filter { $0.hasPrefix(".") }
    }
}
#endif
