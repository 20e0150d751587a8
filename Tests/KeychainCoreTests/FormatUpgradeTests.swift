import Foundation
import GRDB
import XCTest
import AuthenticationTestSupport
@_spi(Testing) @testable import KeychainCore

/// Keychains written by earlier releases (formats 3 and 4, committed under Fixtures/, see its
/// README) open with this library, upgrade to the current format once, and lose nothing; their
/// protected items move under the presence key when the PIN is enrolled.
final class FormatUpgradeTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kc-upgrade-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    /// A private copy of a fixture (git keeps no file modes: 0600 files, 0700 directories).
    private func fixture(_ name: String) throws -> KeychainLocation {
        let copy = scratch.appendingPathComponent(name)
        try KeychainFixture.copy("KeychainCoreTests/Fixtures/\(name)", to: copy)
        return KeychainLocation(
            databaseURL: copy.appendingPathComponent("data/keychain.db"),
            deviceKeyURL: copy.appendingPathComponent("state/device.key"),
            runtimeDirectoryURL: scratch.appendingPathComponent("run"))
    }

    private let options = KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false)

    /// `secretPrefix`: the plain fixture's generic-password secrets start with a newline (see Fixtures/README.md).
    private func assertItems(
        _ keychain: Keychain, classes: [String], secretPrefix: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for accessibility in classes {
            let found = try keychain.find(
                query("com.example.\(accessibility)", "alice", limit: .one), returning: [.attributes, .data])
            let expected = secretPrefix + (accessibility == "ck" ? "updated-ck" : "secret-\(accessibility)")
            XCTAssertEqual(found.first?.data, Data(expected.utf8), accessibility, file: file, line: line)
            XCTAssertEqual(
                found.first?.attributes[.label]?.stringValue, "label \(accessibility)", file: file, line: line)
        }
        let bank = try keychain.find(
            Query(.internetPassword, [.server: "bank.example.com", .account: "alice"], limit: .one), returning: .data)
        XCTAssertEqual(bank.first?.data, Data("bank-secret".utf8), file: file, line: line)
        XCTAssertKeychainError(
            .itemNotFound, try keychain.find(query("com.example.gone")), "the deleted item stays deleted")
    }

    func testAFormat3KeychainWithAPassphraseUpgradesWithoutLosingAnItem() throws {
        let location = try fixture("format3-passphrase")
        let keychain = try Keychain(location: location, options: options)
        XCTAssertEqual(keychain.formatVersion, 6)
        XCTAssertEqual(
            try FormatAnchor.read(for: location, vaultID: keychain.vaultID, deviceKey: keychain.keys.deviceKey)?
                .formatVersion, 6)
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
        XCTAssertEqual(keychain.formatVersion, 6)
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
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: location.databaseURL.path + suffix)
        }
        try original.write(to: location.databaseURL)
        XCTAssertKeychainError(.integrityViolation, try Keychain(location: location, options: options))
    }

    // MARK: - Format 4

    private func pin(_ location: KeychainLocation, answering answer: String) throws -> PINAuthenticator {
        try PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in answer }
    }

    private func protectedData(_ keychain: Keychain, _ account: String) throws -> Data? {
        try keychain.find(query("com.example.protected", account, limit: .one), returning: .data).first?.data
    }

    func testAFormat4KeychainUpgradesAndItsProtectedItemsMoveUnderThePresenceKeyWhenThePINIsEnrolled() throws {
        let location = try fixture("format4-passphrase")
        let keychain = try Keychain(location: location, options: options)
        XCTAssertEqual(keychain.formatVersion, 6)
        XCTAssertEqual(
            try FormatAnchor.read(for: location, vaultID: keychain.vaultID, deviceKey: keychain.keys.deviceKey)?
                .formatVersion, 6)
        try keychain.unlock(passphrase: "fixture passphrase 4")
        try assertItems(keychain, classes: ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"])
        XCTAssertEqual(keychain.enrolledMethods, [])

        // Until a PIN is enrolled, the old items are read as before, with the old PIN file.
        keychain.authenticator = try pin(location, answering: "fixture pin 4")
        XCTAssertEqual(try protectedData(keychain, "ak"), Data("protected-ak".utf8))
        try keychain.update(query("com.example.protected", "ak"), with: ItemChanges(data: Data("updated-ak".utf8)))
        XCTAssertEqual(try protectedData(keychain, "ak"), Data("updated-ak".utf8), "and updated as before")
        XCTAssertKeychainError(
            .authFailed,
            try keychain.add(password("com.example.new", "a").protected(by: AccessPolicy(flags: [.userPresence]))),
            "a new protected item needs an enrolled authenticator")

        // Enrolling needs every protected item's class unlocked: they move in the same transaction.
        try keychain.lock()
        XCTAssertKeychainError(
            .interactionNotAllowed,
            try self.pin(location, answering: "").setPIN("new pin", current: "fixture pin 4", in: keychain))
        XCTAssertEqual(keychain.enrolledMethods, [])
        try keychain.unlock(passphrase: "fixture passphrase 4")
        let legacyRows = try keychain.read { db in
            try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id").map(ItemRow.init(row:))
        }
        .filter { try keychain.open($0, includingData: false).requiresPresenceSeal }
        XCTAssertEqual(legacyRows.count, 2)
        try pin(location, answering: "").setPIN("new pin", current: "fixture pin 4", in: keychain)
        XCTAssertEqual(keychain.enrolledMethods, [.passcode])
        // Their class-key-only ciphertexts are gone from the files at once (checkpointed, and
        // secure_delete overwrote them), not left for the class keys to open.
        for file in [location.databaseURL.path, location.databaseURL.path + "-wal"]
        where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            for row in legacyRows {
                XCTAssertNil(bytes.range(of: row.sealed.secret), "an old ciphertext left in \(file)")
            }
        }
        let sealed = try keychain.read { db in
            try Row.fetchAll(db, sql: "SELECT \(ItemRow.columns) FROM items ORDER BY id").map(ItemRow.init(row:))
                .filter(\.sealed.isPresenceSealed).count
        }
        XCTAssertEqual(sealed, 2, "both protected items are sealed to the presence key")

        keychain.authenticator = try pin(location, answering: "new pin")
        XCTAssertEqual(try protectedData(keychain, "ak"), Data("updated-ak".utf8))
        XCTAssertEqual(try protectedData(keychain, "dku"), Data("protected-dku".utf8))
        keychain.authenticator = ScriptedAuthenticator.alwaysYes(claimingEnrolmentsOf: keychain)
        XCTAssertKeychainError(
            .authFailed, try self.protectedData(keychain, "ak"),
            "an authenticator without the PIN's secret opens nothing")
        try assertItems(keychain, classes: ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"])
        XCTAssertTrue(try keychain.verify().isClean)
    }

    func testAFormat4KeychainWithoutAPassphraseUpgradesWithoutLosingAnItem() throws {
        let location = try fixture("format4-plain")
        let keychain = try Keychain(location: location, options: options)
        XCTAssertEqual(keychain.formatVersion, 6)
        try assertItems(keychain, classes: ["ak", "ck", "dk", "aku", "cku", "dku"])
        keychain.authenticator = try pin(location, answering: "fixture pin 4")
        XCTAssertEqual(try protectedData(keychain, "ck"), Data("protected-ck".utf8))
        let report = try keychain.verify()
        XCTAssertTrue(report.isClean, "\(report)")
        XCTAssertEqual(report.verifiedItems, 8)
    }

    /// A read-only opening of an older keychain upgrades it once (the one write it cannot do
    /// without), then reads; the instance stays read-only.
    func testAReadOnlyOpeningOfAnOlderKeychainUpgradesItOnce() throws {
        let location = try fixture("format4-plain")
        var readOnly = options
        readOnly.readOnly = true
        let keychain = try Keychain(location: location, options: readOnly)
        XCTAssertEqual(keychain.formatVersion, KeychainSchema.formatVersion)
        try assertItems(keychain, classes: ["ak", "ck", "dk", "aku", "cku", "dku"])
        XCTAssertKeychainError(
            .readOnly, try keychain.add(NewItem(.genericPassword, attributes: [.service: "new"], data: Data())))
        XCTAssertEqual(try Keychain(location: location, options: readOnly).formatVersion, KeychainSchema.formatVersion)
    }

    /// An edited format-4 header is not laundered by the upgrade into a valid format-5 one, and
    /// once upgraded, the format-4 copy is an old copy.
    func testAnEditedOrOldFormat4KeychainIsRefused() throws {
        let edited = try fixture("format4-plain")
        let queue = try DatabaseQueue(path: edited.databaseURL.path)
        try queue.write { db in try db.execute(sql: "UPDATE vault_header SET keybag_generation = keybag_generation + 7")
        }
        try queue.close()
        XCTAssertKeychainError(.integrityViolation, try Keychain(location: edited, options: options))

        let location = try fixture("format4-passphrase")
        let original = try Data(contentsOf: location.databaseURL)
        _ = try Keychain(location: location, options: options)
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: location.databaseURL.path + suffix)
        }
        try original.write(to: location.databaseURL)
        XCTAssertKeychainError(.integrityViolation, try Keychain(location: location, options: options))
    }
}
