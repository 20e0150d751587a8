#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainCore
import KeychainServices
import SecureStorage
import XCTest

/// Attacks on the store's keys in the keychain: keys planted with a weaker protection, a
/// substituted public key, a deleted or forged generation record, and destroy() with
/// something in the way.
final class ProtectedFileKeyAttackTests: ProtectedFilesTestCase {
    /// The store's key items, in the library-owned namespace: what someone who can forge rows
    /// there (the device key's holder, for `Always` items) would write.
    private var keyItems: SecureStorage {
        SecureStorage(service: ProtectedFiles.keyService(for: "default")).libraryOwned(by: .protectedFiles)
    }
    /// Items of the same names as every app, the `keychain` tool and a backup import write them.
    private var sameNamedAppItems: SecureStorage { SecureStorage(service: ProtectedFiles.keyService(for: "default")) }

    /// Issue 34 §1: keys planted under the store's names through the public API (an import of
    /// someone else's backup, `keychain add-generic-password`) are never taken for the store's:
    /// files keep being written and read under the store's own keys, and the planted ones are
    /// only ordinary items.
    func testKeysPlantedUnderTheStoresNamesThroughThePublicAPIAreNeverUsed() throws {
        try files.write(Data("before".utf8), to: "before", protection: .complete)
        let generation = try generationID(of: "before")
        let attackerKey = Data(repeating: 0x41, count: 32)
        for account in ["g\(generation)/complete", "names", "none", "g4242/complete"] {
            try sameNamedAppItems.insert(
                StoredValue(data: attackerKey, kind: .data), for: account, sensitivity: .custom(.afterFirstUnlock))
        }
        // A generation record naming a generation of the attacker's choosing.
        try sameNamedAppItems.insert(
            StoredValue(data: Data(repeating: 0x42, count: 40), kind: .data), for: "current",
            sensitivity: .custom(.afterFirstUnlock))
        try files.write(Data("after".utf8), to: "after", protection: .complete)
        XCTAssertEqual(try generationID(of: "after"), generation)
        XCTAssertEqual(try files.read("before"), Data("before".utf8))
        XCTAssertEqual(try files.read("after"), Data("after".utf8))
        XCTAssertEqual(try keyItems.data(for: "g\(generation)/complete")?.count, 32)
        XCTAssertNotEqual(try keyItems.data(for: "g\(generation)/complete"), attackerKey)
        XCTAssertEqual(
            Set(try sameNamedAppItems.allKeys()),
            ["g\(generation)/complete", "names", "none", "g4242/complete", "current"])
    }

    private func generationID(of name: String) throws -> UInt32 {
        try rawBytes(name)[24..<28].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private func replace(_ account: String, with value: Data, _ protection: Protection) throws {
        try keyItems.removeValue(for: account)
        try keyItems.insert(StoredValue(data: value, kind: .data), for: account, sensitivity: .custom(protection))
    }

    /// Someone who can write `Always` items but not passphrase-protected ones (the device key
    /// without the passphrase, or a process while locked) replaces the class A key with one of
    /// its own: it is refused, never used, for old and new files alike.
    func testAClassKeyWithAWeakerProtectionIsRefused() throws {
        try keychain.setPassphrase("device passcode")
        try files.write(Data("old".utf8), to: "old", protection: .complete)
        let generation = try generationID(of: "old")
        try SecItemEnvironment.lock()
        try replace("g\(generation)/complete", with: Data(repeating: 0x41, count: 32), .always)
        try replace(
            "g\(generation)/unlessOpen.private", with: Curve25519.KeyAgreement.PrivateKey().rawRepresentation, .always)
        try unlock()
        XCTAssertStorageError(.integrityViolation, try files.write(Data("new".utf8), to: "new", protection: .complete))
        XCTAssertStorageError(
            .integrityViolation, try files.write(Data("new".utf8), to: "new", protection: .completeUnlessOpen))
        XCTAssertStorageError(.integrityViolation, try files.read("old"))
        XCTAssertFalse(try files.names().contains("new"))
    }

    /// A public key of the attacker's put in place of the class's: caught at the first use
    /// while unlocked, so no file is wrapped to it from then on.
    func testASubstitutedUnlessOpenPublicKeyIsCaughtWhileUnlocked() throws {
        try keychain.setPassphrase("device passcode")
        try files.write(Data("warm-up".utf8), to: "warm-up", protection: .completeUnlessOpen)
        let generation = try generationID(of: "warm-up")
        try replace(
            "g\(generation)/unlessOpen.public", with: Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation,
            .afterFirstUnlock)
        XCTAssertStorageError(
            .integrityViolation,
            try files.write(Data("recording".utf8), to: "recording", protection: .completeUnlessOpen))
        XCTAssertEqual(try files.read("warm-up"), Data("warm-up".utf8), "files wrapped to the real key still open")
    }

    /// The public key is kept AfterFirstUnlock, not Always: someone with the device key alone
    /// cannot forge it, and before the first unlock no completeUnlessOpen file is created.
    func testTheUnlessOpenPublicKeyNeedsTheFirstUnlock() throws {
        try keychain.setPassphrase("device passcode")
        try files.write(Data("x".utf8), to: "x", protection: .completeUnlessOpen)
        let generation = try generationID(of: "x")
        XCTAssertEqual(try keyItems.protection(of: "g\(generation)/unlessOpen.public"), .afterFirstUnlock)
        XCTAssertEqual(try keyItems.protection(of: "current"), .afterFirstUnlock)
        try restart()
        XCTAssertStorageError(.locked, try files.write(Data("y".utf8), to: "y", protection: .completeUnlessOpen))
        try files.write(Data("z".utf8), to: "z", protection: .none)
        XCTAssertEqual(try generationID(of: "z"), 0, "none files need no generation")
    }

    /// Deleting the generation record does not roll the store back to keys an old keychain copy
    /// holds: a new generation is made, never an old one reused.
    func testDeletingTheGenerationRecordMakesANewGeneration() throws {
        try keychain.setPassphrase("leaked")
        try files.write(Data("before".utf8), to: "before", protection: .complete)
        let copy = try copyOfTheKeychain()
        try keychain.changePassphrase(from: "leaked", to: "new")
        try files.write(Data("between".utf8), to: "between", protection: .complete)

        try SecItemEnvironment.lock()
        XCTAssertTrue(try keyItems.removeValue(for: "current"))
        try SecItemEnvironment.unlock(passphrase: "new")
        try files.write(Data("after".utf8), to: "after", protection: .complete)
        XCTAssertNotEqual(try generationID(of: "after"), try generationID(of: "before"))
        XCTAssertNotEqual(try generationID(of: "after"), try generationID(of: "between"))
        XCTAssertEqual(try files.read("between"), Data("between".utf8))

        let stolen = try storeThroughOldCopy(copy, passphrase: "leaked")
        XCTAssertEqual(
            try stolen.read("before"), Data("before".utf8), "readable then, readable with the copy (documented)")
        XCTAssertStorageError(.integrityViolation, try stolen.read("after"))
        XCTAssertStorageError(.integrityViolation, try stolen.read("between"))
    }

    /// A forged generation record (the largest ID, a stale epoch, wrong flags) is no crash.
    func testAForgedGenerationRecordIsNoCrash() throws {
        try files.write(Data("a".utf8), to: "a", protection: .complete)
        try keyItems.set(
            Data([0xFF, 0xFF, 0xFF, 0xFF]) + Data(count: 32) + Data([1]), for: "current",
            sensitivity: .custom(.afterFirstUnlock))
        try files.write(Data("b".utf8), to: "b", protection: .complete)
        XCTAssertEqual(try files.read("b"), Data("b".utf8))
        try keyItems.set(
            Data([0, 0, 0, 1]) + Data(count: 32) + Data([0xF0]), for: "current", sensitivity: .custom(.afterFirstUnlock)
        )
        XCTAssertStorageError(.integrityViolation, try files.write(Data("c".utf8), to: "c", protection: .complete))
        try keyItems.set(
            Data([0, 0, 0, 1]) + Data(count: 32) + Data([1]), for: "current", sensitivity: .custom(.always))
        XCTAssertStorageError(
            .integrityViolation, try files.write(Data("c".utf8), to: "c", protection: .complete),
            "a record kept Always was not written by the store")
        XCTAssertEqual(try files.read("a"), Data("a".utf8))
    }

    /// destroy() deletes the keys first, then only the regular files: a directory planted in
    /// the store is left alone, and every copy of the files is unreadable.
    func testDestroyDeletesTheKeysAndOnlyRegularFiles() throws {
        try files.write(Data("secret".utf8), to: "doc", protection: .complete)
        let backup = try rawBytes("doc")
        XCTAssertEqual(mkdir(path("a-directory"), 0o700), 0)
        XCTAssertEqual(try files.names(), ["doc"], "a directory is no file of the store")
        try files.destroy()
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("a-directory")))
        XCTAssertEqual(try keyItems.allKeys(), [])
        try? setRawBytes(backup, of: "doc")
        XCTAssertStorageError(.integrityViolation, try files.read("doc"))
    }

    /// Opening a store device-bound moves it to device-bound keys at the next write while
    /// unlocked; files written before keep opening.
    func testDeviceBoundTakesEffectForAStoreWithMigratableKeys() throws {
        try files.write(Data("x".utf8), to: "x", protection: .complete)
        let bound = try ProtectedFiles(directory: filesDirectory, deviceBound: true)
        try bound.write(Data("y".utf8), to: "y", protection: .complete)
        let generation = try generationID(of: "y")
        XCTAssertNotEqual(generation, try generationID(of: "x"))
        XCTAssertEqual(try keyItems.protection(of: "g\(generation)/complete"), .whenUnlockedThisDeviceOnly)
        XCTAssertEqual(try keyItems.protection(of: "g\(generation)/untilFirstAuth"), .afterFirstUnlockThisDeviceOnly)
        XCTAssertEqual(try bound.read("x"), Data("x".utf8))
    }
}
#endif
