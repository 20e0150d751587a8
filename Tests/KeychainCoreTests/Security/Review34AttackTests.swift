import Foundation
import XCTest
@_spi(Testing) @testable import KeychainCore

/// Review of issue 34 §1 (library-owned namespace, format 6): what an upgraded keychain still
/// lets the apps' side do with the items the library wrote under its fixed names before format 6.
///
/// The upgrade to format 6 only tags those items; they move into the library's namespace lazily,
/// the first time the owning component (protected files, a database sealer, sync, a migration
/// journal) queries them. Until then they are ordinary app items: `keychain export` carries them,
/// `keychain list` shows them (the name filters were removed), any app can read or rewrite them.
final class Review34AttackTests: XCTestCase {
    private var scratch: URL!
    private let service = "SecureStorage.files/default"
    private let options = KeychainOptions(
        passphraseHardening: .fixed(.insecureForTestingOnly), resumesUnlockSession: false, tpm: nil)

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kc-review34-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    /// A private copy of the format-5 fixture (the keys of the protected-file store
    /// `SecureStorage.files/default`, written by the format-5 release), opened (upgraded) now.
    private func upgradedFormat5Keychain() throws -> Keychain {
        let keychain = try KeychainFixture.open(KeychainFixture.format5, in: scratch)
        XCTAssertEqual(keychain.formatVersion, 6)
        return keychain
    }

    /// Claim: "exports never carry them". After the upgrade, before the protected-file store is
    /// next opened, `keychain export` writes the store's class and name keys into the backup, and
    /// importing that backup anywhere gives them back as ordinary items.
    /// Reproduction: upgrade a format-5 keychain holding protected-file keys, `exportBackup`,
    /// `importBackup` into a fresh keychain: `SecureStorage.files/default` items are there.
    func testAnExportRightAfterTheUpgradeDoesNotCarryTheLibrarysKeys() throws {
        let keychain = try upgradedFormat5Keychain()
        let backup = scratch.appendingPathComponent("after-upgrade.ssbackup")
        _ = try keychain.exportBackup(to: backup, passphrase: "attacker-chosen passphrase")
        let elsewhere = try Keychain.create(
            at: KeychainLocation(directory: scratch.appendingPathComponent("elsewhere")), options: options)
        _ = try elsewhere.importBackup(from: backup, passphrase: "attacker-chosen passphrase")
        let carried = try elsewhere.findAll(
            Query(.genericPassword, [.service: .string(service)]), returning: [.attributes, .data])
        XCTAssertEqual(
            carried.compactMap { $0.attributes[.account]?.stringValue }.sorted(), [],
            "the backup carried the protected-file store's keys (\(carried.count) items, with their key bytes)")
    }

    /// Claim: no app can read a library-owned item. Until the owning component runs once after
    /// the upgrade, an app (or `keychain find -s SecureStorage.files/default --data`) reads the
    /// store's keys with an ordinary query.
    func testAnAppCannotReadTheLibrarysKeysRightAfterTheUpgrade() throws {
        let keychain = try upgradedFormat5Keychain()
        let read = try keychain.findAll(
            Query(.genericPassword, [.service: .string(service)], limit: .all), returning: [.attributes, .data])
        XCTAssertEqual(
            read.count, 0, "an app's query read \(read.count) of the protected-file store's keys, data included")
    }

    /// Claim §4: terminal control sequences from a crafted backup never reach the terminal. An
    /// import refuses a record with an unknown attribute or a bad `pdmn`, and the refusal quotes the
    /// backup's own attribute name / value verbatim; `keychain import` prints `\(error)` unescaped
    /// (ErrorReporting.reportingErrors / ArgumentParser's exit), so the file's escape sequences
    /// (a changed window title, a cleared screen, a rewritten line) reach the victim's terminal.
    /// Reproduction: a backup (attacker's passphrase) holding a genp record with attribute
    /// `"\u{1B}]0;pwned\u{07}"` → `keychain import crafted.backup` prints the raw OSC sequence.
    func testACraftedBackupsRefusalCarriesNoTerminalEscapes() throws {
        let escape = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[1A"
        let crafted: [[AttributeKey: AttributeValue]] = [
            [
                .service: "team", .account: "db", .accessible: .string("ck"),
                AttributeKey(rawValue: escape): .string("x")
            ],
            [.service: "team", .account: "db", .accessible: .string("ck" + escape)]
        ]
        for (index, attributes) in crafted.enumerated() {
            var writer = try BackupWriter(passphrase: "attacker pass", parameters: .insecureForTestingOnly)
            var file = writer.header
            for chunk in try writer.append(
                BackupRecord(itemClass: .genericPassword, attributes: attributes, data: Data("pw".utf8)))
            { file.append(chunk) }
            file.append(try writer.finish(skipped: .init()))
            let url = scratch.appendingPathComponent("crafted-\(index).backup")
            try file.write(to: url)
            let victim = try Keychain.create(
                at: KeychainLocation(directory: scratch.appendingPathComponent("victim-\(index)")), options: options)
            do {
                _ = try victim.importBackup(from: url, passphrase: "attacker pass")
                XCTFail("the crafted backup was imported")
            } catch {
                let shown = "keychain: \(error)"
                XCTAssertFalse(
                    shown.unicodeScalars.contains { $0 != "\n" && PrintableText.isUnsafe($0) },
                    "the import's error, as the tool prints it, carries the backup's terminal escapes: \(shown.debugDescription)"
                )
            }
        }
    }
}
