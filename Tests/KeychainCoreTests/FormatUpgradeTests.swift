import Foundation
import XCTest
@testable import KeychainCore

/// Keychains written by the previous release (format 3, committed under Fixtures/, see its
/// README) open with this library, upgrade to format 4 once, and lose nothing.
final class FormatUpgradeTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kc-upgrade-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    /// A private copy of a fixture (git keeps no file modes: 0600 files, 0700 directories).
    private func fixture(_ name: String) throws -> KeychainLocation {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        let copy = scratch.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: copy)
        for directory in ["data", "state"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: copy.appendingPathComponent(directory).path)
        }
        for file in ["data/keychain.db", "state/device.key"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.appendingPathComponent(file).path)
        }
        return KeychainLocation(databaseURL: copy.appendingPathComponent("data/keychain.db"), deviceKeyURL: copy.appendingPathComponent("state/device.key"),
                                runtimeDirectoryURL: scratch.appendingPathComponent("run"))
    }

    private let options = KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false)

    /// `secretPrefix`: the plain fixture's generic-password secrets start with a newline (see Fixtures/README.md).
    private func assertItems(_ keychain: Keychain, classes: [String], secretPrefix: String = "",
                             file: StaticString = #filePath, line: UInt = #line) throws {
        for accessibility in classes {
            let found = try keychain.find(query("com.example.\(accessibility)", "alice", limit: .one), returning: [.attributes, .data])
            let expected = secretPrefix + (accessibility == "ck" ? "updated-ck" : "secret-\(accessibility)")
            XCTAssertEqual(found.first?.data, Data(expected.utf8), accessibility, file: file, line: line)
            XCTAssertEqual(found.first?.attributes[.label]?.stringValue, "label \(accessibility)", file: file, line: line)
        }
        let bank = try keychain.find(Query(.internetPassword, [.server: "bank.example.com", .account: "alice"], limit: .one), returning: .data)
        XCTAssertEqual(bank.first?.data, Data("bank-secret".utf8), file: file, line: line)
        XCTAssertKeychainError(.itemNotFound, try keychain.find(query("com.example.gone")), "the deleted item stays deleted")
    }

    func testAFormat3KeychainWithAPassphraseUpgradesWithoutLosingAnItem() throws {
        let location = try fixture("format3-passphrase")
        let keychain = try Keychain(location: location, options: options)
        XCTAssertEqual(keychain.formatVersion, 4)
        XCTAssertEqual(try FormatAnchor.read(for: location, vaultID: keychain.vaultID, deviceKey: keychain.keys.deviceKey)?.formatVersion, 4)
        XCTAssertEqual(keychain.lockState, .beforeFirstUnlock)
        try keychain.unlock(passphrase: "fixture passphrase 3")
        try assertItems(keychain, classes: ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"])
        let report = try keychain.verify()
        XCTAssertTrue(report.isClean, "\(report)")
        XCTAssertEqual(report.verifiedItems, 8)
        // The upgraded keychain rotates like any other, and a second open upgrades nothing.
        try keychain.changePassphrase(from: "fixture passphrase 3", to: "new passphrase")
        let reopened = try Keychain(location: location, options: options)
        try reopened.unlock(passphrase: "new passphrase")
        try assertItems(reopened, classes: ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"])
        XCTAssertTrue(try reopened.verify().isClean)
    }

    func testAFormat3KeychainWithoutAPassphraseUpgradesWithoutLosingAnItem() throws {
        let location = try fixture("format3-plain")
        let keychain = try Keychain(location: location, options: options)
        XCTAssertEqual(keychain.formatVersion, 4)
        try assertItems(keychain, classes: ["ak", "ck", "dk", "aku", "cku", "dku"], secretPrefix: "\n")
        let report = try keychain.verify()
        XCTAssertTrue(report.isClean, "\(report)")
        XCTAssertEqual(report.verifiedItems, 7)
    }

    /// Once upgraded, the format-3 copy of the same keychain (a backup, a snapshot) is an old
    /// copy: it is refused rather than upgraded again with whatever it holds.
    func testTheFormat3CopyOfAnUpgradedKeychainIsRefused() throws {
        let location = try fixture("format3-plain")
        let original = try Data(contentsOf: location.databaseURL)
        _ = try Keychain(location: location, options: options)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: location.databaseURL.path + suffix) }
        try original.write(to: location.databaseURL)
        XCTAssertKeychainError(.integrityViolation, try Keychain(location: location, options: options))
    }
}
