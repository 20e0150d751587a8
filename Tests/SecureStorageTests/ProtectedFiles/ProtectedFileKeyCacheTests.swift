#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
@_spi(Testing) import KeychainCore
import KeychainServices
@testable import SecureStorage
import SecureStorageFoundation
import XCTest

/// The cache of the store's keys (``FileKeyCache``, issue 39): it lives only while the keychain
/// is unlocked, is emptied at once by every lock and key change, and what it held is gone when the
/// store goes (memory hygiene); a locked keychain refuses a file with the error it always gave,
/// whatever was cached (attacks).
final class ProtectedFileKeyCacheTests: ProtectedFilesTestCase {
    private func cache() throws -> FileKeyCache { try XCTUnwrap(files.keyCache) }

    /// Writes and reads a file of each class, which fills the cache.
    private func fillCache() throws {
        for protection in FileProtection.allCases {
            try files.write(Data("\(protection)".utf8), to: "f-\(protection)", protection: protection)
            XCTAssertEqual(try files.read("f-\(protection)"), Data("\(protection)".utf8))
        }
        // At least the name key and the last file's wrapping key (all five unless a second went
        // by since the first was taken: the cache's lifetime).
        XCTAssertGreaterThan(try cache().count, 0)
    }

    /// Hygiene: the lock empties the cache at once (its observer), not at the next use.
    func testHygieneTheLockEmptiesTheCacheAtOnce() throws {
        try keychain.setPassphrase("device passcode")
        try fillCache()
        try SecItemEnvironment.lock()
        XCTAssertEqual(try cache().count, 0)
    }

    /// Hygiene: the cache goes with the last copy of the store, and with it the only references to
    /// its keys (swift-crypto zeroes a key's storage when it is freed).
    func testHygieneTheCacheGoesWithTheStore() throws {
        // A store of its own: every value of a store in the process shares its cache, and other
        // tests' values of the default store stay alive until the suite ends.
        var own: ProtectedFiles? = try ProtectedFiles(
            directory: filesDirectory.appendingPathComponent("own"), identifier: "hygiene-\(UUID().uuidString)")
        try own!.write(Data("x".utf8), to: "f", protection: .complete)
        XCTAssertEqual(try own!.read("f"), Data("x".utf8))
        weak var released = try XCTUnwrap(own!.keyCache)
        XCTAssertGreaterThan(released?.count ?? 0, 0)
        var copy: ProtectedFiles? = own
        own = nil
        XCTAssertNotNil(released, "a copy of the store shares the cache")
        copy = nil
        XCTAssertNil(copy)
        XCTAssertNil(released)
    }

    /// A store opened without an access group reads and deletes its keys in every group the app
    /// has: its destroy empties the cache of the same store opened with an explicit group too
    /// (second attack round of issue 39).
    func testADestroyWithoutAGroupEmptiesTheCacheOfTheStoreOpenedWithOne() throws {
        let grouped = try ProtectedFiles(directory: filesDirectory, accessGroup: "TEAM.com.acme.app")
        try grouped.write(Data("g".utf8), to: "g", protection: .complete)
        XCTAssertEqual(try grouped.read("g"), Data("g".utf8))
        XCTAssertGreaterThan(try XCTUnwrap(grouped.keyCache).count, 0)
        try files.destroy()
        XCTAssertEqual(try XCTUnwrap(grouped.keyCache).count, 0)
    }

    /// One cache per store in the process: a value made later (as `SecureStorage.files()` makes
    /// one on every call) shares it, so a destroy through either empties it for both.
    func testEveryValueOfAStoreSharesItsCache() throws {
        try fillCache()
        let other = try ProtectedFiles(directory: filesDirectory)
        XCTAssertTrue(try XCTUnwrap(other.keyCache) === cache())
        try other.destroy()
        XCTAssertEqual(try cache().count, 0)
    }

    /// Hygiene: key bytes read from the keychain are zeroed where they are once the key is made.
    func testHygieneRawKeyBytesAreWipedInPlace() {
        var bytes = Data(repeating: 0x5A, count: 32)
        let key = FileKeySet.symmetricKey(wiping: &bytes)
        XCTAssertEqual(bytes, Data(count: 32))
        XCTAssertEqual(key.withUnsafeBytes { Data($0) }, Data(repeating: 0x5A, count: 32))
    }

    /// Attack: a complete file whose keys were cached before the lock fails after it with
    /// `.locked`, exactly as without a cache, for open, read and write; the unlock brings it back.
    func testACachedKeyOpensNothingAfterTheLock() throws {
        try keychain.setPassphrase("device passcode")
        try fillCache()
        let reader = try files.open("f-completeUntilFirstUserAuthentication")
        try SecItemEnvironment.lock()
        XCTAssertStorageError(.locked, try files.read("f-complete"))
        XCTAssertStorageError(.locked, try files.open("f-complete"))
        XCTAssertStorageError(.locked, try files.read("f-completeUnlessOpen"))
        XCTAssertStorageError(.locked, try files.write(Data("x".utf8), to: "new", protection: .complete))
        XCTAssertEqual(try files.read("f-none"), Data("none".utf8), "none files open in every state")
        XCTAssertEqual(try reader.readToEnd(), Data("completeUntilFirstUserAuthentication".utf8))
        XCTAssertEqual(try cache().count, 0, "nothing is cached while locked")
        try unlock()
        XCTAssertEqual(try files.read("f-complete"), Data("complete".utf8))
    }

    /// Attack: a passphrase change (new class keys, a new file-key generation at the next
    /// write) empties the cache in the process that made it.
    func testAPassphraseChangeEmptiesTheCache() throws {
        try keychain.setPassphrase("device passcode")
        try fillCache()
        try keychain.changePassphrase(from: "device passcode", to: "new passcode")
        XCTAssertEqual(try cache().count, 0)
        try files.write(Data("after".utf8), to: "after", protection: .complete)
        XCTAssertNotEqual(try rawBytes("after")[24..<28], try rawBytes("f-complete")[24..<28], "a new generation")
        XCTAssertEqual(try files.read("f-complete"), Data("complete".utf8))
    }

    /// Attack: another process (here another instance of the keychain) changes the passphrase.
    /// This process's instance is back before its first unlock from its next keychain call, and
    /// the cache follows it: the file answers `.locked`, as it did without a cache.
    func testAPassphraseChangeInAnotherProcessReachesTheCache() throws {
        try keychain.setPassphrase("device passcode")
        try fillCache()
        let other = try Keychain(
            location: KeychainLocation(directory: directory),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: nil))
        try other.unlock(passphrase: "device passcode")
        try other.changePassphrase(from: "device passcode", to: "new passcode")
        _ = try keychain.classKeyEpoch  // any keychain call of this process
        XCTAssertEqual(try cache().count, 0)
        XCTAssertStorageError(.locked, try files.read("f-complete"))
        try SecItemEnvironment.unlock(passphrase: "new passcode")
        XCTAssertEqual(try files.read("f-complete"), Data("complete".utf8))
    }

    /// Attack: keys cached from one keychain are never used with another (the app switched
    /// keychains, or it was reopened, before its first unlock): the file answers `.locked`.
    func testKeysOfOneKeychainInstanceAreNotUsedWithAnother() throws {
        try keychain.setPassphrase("device passcode")
        try fillCache()
        let reopened = try Keychain(
            location: KeychainLocation(directory: directory),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: nil))
        SecItemEnvironment.useKeychain(reopened)
        XCTAssertStorageError(.locked, try files.read("f-complete"))
        XCTAssertEqual(try cache().count, 0)
        keychain = reopened
    }

    /// destroy() and rekey() empty the cache: no deleted key is used afterwards.
    func testDestroyAndRekeyEmptyTheCache() throws {
        try keychain.setPassphrase("device passcode")
        try fillCache()
        try keychain.changePassphrase(from: "device passcode", to: "new passcode")
        try fillCache()
        try files.rekey()
        XCTAssertEqual(try cache().count, 0)
        try fillCache()
        let backup = try rawBytes("f-complete")
        try files.destroy()
        XCTAssertEqual(try cache().count, 0)
        try setRawBytes(backup, of: "f-complete")
        XCTAssertStorageError(.integrityViolation, try files.read("f-complete"))
    }
}
#endif
