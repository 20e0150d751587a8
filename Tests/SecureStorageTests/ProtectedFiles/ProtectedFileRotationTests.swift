#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
@_spi(Testing) import KeychainCore
import KeychainServices
import SecureStorage
import XCTest

/// Protected files across passphrase changes: nothing is lost, and a file written after a
/// change does not open with an old copy of the keychain and the old passphrase.
final class ProtectedFileRotationTests: ProtectedFilesTestCase {
    private func generation(of name: String) throws -> UInt32 {
        try rawBytes(name)[24..<28].reduce(0) { $0 << 8 | UInt32($1) }
    }

    func testFilesSurviveSettingChangingAndRemovingThePassphrase() throws {
        var written: [String: Data] = [:]
        func writeOneOfEach(_ tag: String) throws {
            for protection in FileProtection.allCases {
                let data = Data("\(tag) \(protection)".utf8)
                try files.write(data, to: "\(tag)-\(protection)", protection: protection)
                written["\(tag)-\(protection)"] = data
            }
        }
        try writeOneOfEach("none")
        try keychain.setPassphrase("first")
        try writeOneOfEach("set")
        try keychain.changePassphrase(from: "first", to: "second")
        try writeOneOfEach("changed")
        try SecItemEnvironment.lock()
        try SecItemEnvironment.unlock(passphrase: "second")
        _ = try keychain.removePassphrase(current: "second")
        try writeOneOfEach("removed")
        try restart()
        for (name, data) in written { XCTAssertEqual(try files.read(name), data, name) }
        let generations = try ["none", "set", "changed", "removed"].map { try generation(of: "\($0)-complete") }
        XCTAssertEqual(Set(generations).count, 4, "a new generation after every passphrase change")
        XCTAssertEqual(try generation(of: "removed-none"), 0, "none files have no generation")
    }

    /// The attack a leaked passphrase enables: an old copy of the keychain files and its old
    /// passphrase. Files written before the change open (they were readable then); files
    /// written after it do not.
    func testAnOldKeychainCopyWithItsPassphraseOpensNothingWrittenAfterTheChange() throws {
        try keychain.setPassphrase("leaked")
        try files.write(Data("before".utf8), to: "before", protection: .complete)
        let copy = try copyOfTheKeychain()

        try keychain.changePassphrase(from: "leaked", to: "new")
        for protection in FileProtection.allCases {
            try files.write(Data("after".utf8), to: "after-\(protection)", protection: protection)
        }

        let stolen = try storeThroughOldCopy(copy, passphrase: "leaked")
        XCTAssertEqual(try stolen.read("before"), Data("before".utf8))
        for protection in FileProtection.allCases where protection != .none {
            XCTAssertStorageError(.integrityViolation, try stolen.read("after-\(protection)"), "\(protection)")
        }
    }

    /// After the change, `rekey()` moves the older files to the new keys and deletes the old
    /// ones: the old copy with the old passphrase then opens nothing.
    func testRekeyLeavesNothingForAnOldCopy() throws {
        try keychain.setPassphrase("leaked")
        for protection in FileProtection.allCases {
            try files.write(Data("\(protection)".utf8), to: "\(protection)", protection: protection)
        }
        let copy = try copyOfTheKeychain()
        try keychain.changePassphrase(from: "leaked", to: "new")
        XCTAssertEqual(try files.rekey(), 3, "every class but none")
        XCTAssertEqual(try files.rekey(), 0, "nothing left to move")
        let generations = Set(try FileProtection.allCases.filter { $0 != .none }.map { try generation(of: "\($0)") })
        XCTAssertEqual(generations.count, 1)
        let keys = try SecureStorage(service: ProtectedFiles.keyService(for: "default")).libraryOwned(
            by: .protectedFiles
        ).allKeys()
        XCTAssertEqual(
            Set(keys.filter { $0.hasPrefix("g") }.map { $0.split(separator: "/")[0] }), ["g\(generations.first!)"])
        for protection in FileProtection.allCases {
            XCTAssertEqual(try files.read("\(protection)"), Data("\(protection)".utf8))
        }

        try SecItemEnvironment.lock()
        XCTAssertStorageError(.locked, try files.rekey())
        let stolen = try storeThroughOldCopy(copy, passphrase: "leaked")
        for protection in FileProtection.allCases where protection != .none {
            XCTAssertStorageError(.integrityViolation, try stolen.read("\(protection)"), "\(protection)")
        }
    }

    /// A keychain locked when the class keys changed elsewhere keeps writing with the current
    /// generation, and renews it at the first write after an unlock.
    func testANewGenerationIsMadeOnlyWhileUnlocked() throws {
        try keychain.setPassphrase("first")
        try files.write(Data("a".utf8), to: "a", protection: .completeUntilFirstUserAuthentication)
        let other = try Keychain(
            location: KeychainLocation(directory: directory),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: nil))
        try other.unlock(passphrase: "first")
        try other.changePassphrase(from: "first", to: "second")
        // This instance sees the rotation: it is before its first unlock again.
        XCTAssertStorageError(
            .locked, try files.write(Data("b".utf8), to: "b", protection: .completeUntilFirstUserAuthentication))
        try SecItemEnvironment.unlock(passphrase: "second")
        try SecItemEnvironment.lock()
        try files.write(Data("b".utf8), to: "b", protection: .completeUntilFirstUserAuthentication)
        XCTAssertEqual(try generation(of: "b"), try generation(of: "a"), "locked: the current generation")
        try SecItemEnvironment.unlock(passphrase: "second")
        try files.write(Data("c".utf8), to: "c", protection: .completeUntilFirstUserAuthentication)
        XCTAssertNotEqual(try generation(of: "c"), try generation(of: "a"), "unlocked: a new one")
        for name in ["a", "b", "c"] { XCTAssertEqual(try files.read(name), Data(name.utf8)) }
    }
}
#endif
