#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
@_spi(Testing) import KeychainCore
import KeychainServices
@testable import SecureStorage
import SecureStorageFoundation
import XCTest

/// Attacks on the protected files' key cache (``FileKeyCache``, issue 39) through a second value
/// of the same store — what a second `ProtectedFiles(directory:)` in this process, or another
/// process, does to the keychain within the cache's one-second lifetime.
final class ProtectedFileKeyCacheAttackTests: ProtectedFilesTestCase {
    /// Writes and reads `name` (a complete file), so that the store's name key and the class's
    /// wrapping key are in this value's cache, taken just now.
    private func warmCache(_ name: String) throws {
        try files.write(Data("secret".utf8), to: name, protection: .complete)
        XCTAssertEqual(try files.read(name), Data("secret".utf8))
        XCTAssertGreaterThan(try XCTUnwrap(files.keyCache).count, 0)
    }

    /// Attack: `destroy()` promises that once the keys are deleted no copy of any file opens.
    /// Another value of the same store (or another process) destroys it; an attacker puts back a
    /// copy of a file; this value, whose cache still holds the deleted keys, must not open it.
    func testAttackACopyOfAFileDoesNotOpenAfterAnotherValueDestroyedTheStore() throws {
        try warmCache("f")
        let backup = try rawBytes("f")
        try ProtectedFiles(directory: filesDirectory).destroy()
        try setRawBytes(backup, of: "f")
        XCTAssertStorageError(.integrityViolation, try files.read("f"))
    }

    /// Attack (data loss): after another value destroyed the store, a write through this value
    /// succeeds; the file must then be readable by the store (a fresh value of it), not sealed and
    /// named under keys that no longer exist anywhere.
    func testAttackAWriteAfterAnotherValueDestroyedTheStoreStaysReadable() throws {
        try warmCache("f")
        try ProtectedFiles(directory: filesDirectory).destroy()
        try files.write(Data("after".utf8), to: "after-destroy", protection: .complete)
        let fresh = try ProtectedFiles(directory: filesDirectory)
        XCTAssertEqual(try fresh.read("after-destroy"), Data("after".utf8))
    }

    /// Attack: the cache knows the keychain it took its keys from only by `ObjectIdentifier`,
    /// which a new keychain allocated where the released one was gets again. The app releases its
    /// keychain and opens another (another user's, another directory, without this store's
    /// keys): the file must not open with the keys of the released keychain.
    func testAttackKeysOfAReleasedKeychainAreNotUsedWithANewOneAtItsAddress() throws {
        try warmCache("f")
        let released = ObjectIdentifier(try XCTUnwrap(keychain))
        let otherDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("other-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: otherDirectory) }
        // Everything the new keychain's initializer takes is made before the old one goes, so
        // that the first allocation after it is the new instance.
        let location = KeychainLocation(directory: otherDirectory)
        let options = KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: nil)
        SecItemEnvironment.useKeychain(nil)
        keychain = nil
        let other = try Keychain(location: location, options: options)
        keychain = other
        SecItemEnvironment.useKeychain(other)
        guard ObjectIdentifier(other) == released else {
            throw XCTSkip("the allocator did not reuse the released keychain's address this time")
        }
        XCTAssertStorageError(.integrityViolation, try files.read("f"))
    }
}
#endif
