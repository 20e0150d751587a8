import Foundation
@_spi(Testing) @testable import KeychainCore

/// The committed keychains of earlier formats (Fixtures/README.md), copied where a test may
/// change them. Git keeps no file modes: the copy gets the private ones (0700 directories, 0600
/// files) the keychain insists on.
enum KeychainFixture {
    /// The `Tests` directory of this checkout.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The format-5 keychain: the protected-files fixture's (the keys of the store
    /// `SecureStorage.files/default`, written by the format-5 release).
    static let format5 = "SecureStorageTests/Fixtures/protected-files-v1/keychain"

    /// Copies `Tests/<path>` to `destination` (created with its parents), with private modes.
    static func copy(_ path: String, to destination: URL) throws {
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: testsDirectory.appendingPathComponent(path), to: destination)
        let enumerator = FileManager.default.enumerator(at: destination, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            let isDirectory = try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true
            try FileManager.default.setAttributes(
                [.posixPermissions: isDirectory ? 0o700 : 0o600], ofItemAtPath: url.path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: destination.path)
    }

    /// A copy of `Tests/<path>` at `<scratch>/keychain`, opened (so upgraded) with cheap scrypt
    /// parameters and without resuming an unlock session.
    static func open(_ path: String, in scratch: URL) throws -> Keychain {
        let copy = scratch.appendingPathComponent("keychain")
        try KeychainFixture.copy(path, to: copy)
        return try Keychain(
            location: KeychainLocation(directory: copy),
            options: KeychainOptions(
                passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false, tpm: nil))
    }
}
