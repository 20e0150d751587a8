import Foundation
import GRDB
import XCTest
@_spi(Fuzzing) @_spi(Testing) @testable import KeychainCore

/// A keychain of format 5 (the protected-files fixture, written by the `keychain` tool and the
/// protected-files store of the format-5 release, see Tests/SecureStorageTests/Fixtures) upgrades
/// to format 6 without losing an item, and the library takes the items it wrote under its fixed
/// names into its own namespace — only those present at the upgrade and not rewritten since.
final class LibraryOwnedUpgradeTests: XCTestCase {
    private var scratch: URL!
    private let service = "SecureStorage.files/default"

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kc-owned-upgrade-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: scratch) }

    /// A private copy of the format-5 fixture's keychain, opened (so upgraded to format 6).
    private func format5Keychain() throws -> Keychain {
        try KeychainFixture.open(KeychainFixture.format5, in: scratch)
    }

    private func accounts(_ keychain: Keychain, owner: LibraryOwner?) throws -> Set<String> {
        var query = Query(.genericPassword, [.service: .string(service)])
        query.owner = owner
        return Set(try keychain.findAll(query).compactMap { $0.attributes[.account]?.stringValue })
    }

    func testTheLibraryTakesOnlyItsUnchangedItemsIntoItsNamespaceAfterTheUpgrade() throws {
        let keychain = try format5Keychain()
        XCTAssertEqual(keychain.formatVersion, 6)
        XCTAssertEqual(
            try accounts(keychain, owner: nil), [],
            "apps do not see the library's old items, even before they are taken in")
        XCTAssertTrue(try keychain.verify().isClean)
        let total = try keychain.verify().verifiedItems

        // Someone replaces one of them before the library next looks (an import with replace, as
        // of a "team credentials" backup): it is no longer the library's.
        var writer = try BackupWriter(passphrase: "team pass", parameters: .insecureForTestingOnly)
        var file = writer.header
        let planted = BackupRecord(
            itemClass: .genericPassword, attributes: [.service: .string(service), .account: "names", .accessible: "dk"],
            data: Data(repeating: 0x41, count: 32))
        for chunk in try writer.append(planted) { file.append(chunk) }
        file.append(try writer.finish(skipped: .init()))
        let backup = scratch.appendingPathComponent("team.backup")
        try file.write(to: backup)
        XCTAssertEqual(
            try keychain.importBackup(from: backup, passphrase: "team pass", onDuplicate: .replace).replacedItems, 1)
        // An item planted under the library's names after the upgrade is never taken either.
        try keychain.add(
            NewItem(
                .genericPassword, attributes: [.service: .string(service), .account: "g1/complete"],
                data: Data(repeating: 0x42, count: 32), accessibility: .afterFirstUnlock))

        let owned = try accounts(keychain, owner: LibraryOwner("protected-files"))
        XCTAssertTrue(owned.isSuperset(of: ["none", "current"]), "\(owned)")
        XCTAssertFalse(owned.contains("names"), "the replaced item was taken into the library's namespace")
        XCTAssertFalse(owned.contains("g1/complete"), "the planted item was taken into the library's namespace")
        XCTAssertEqual(try accounts(keychain, owner: nil), ["names", "g1/complete"])
        // Taken once: the items are the library's from now on, in every instance.
        let again = try Keychain(
            location: keychain.location, options: KeychainOptions(resumesUnlockSession: false, tpm: nil))
        XCTAssertEqual(try accounts(again, owner: LibraryOwner("protected-files")), owned)
        let report = try again.verify()
        XCTAssertTrue(report.isClean, "\(report)")
        XCTAssertEqual(report.verifiedItems, total + 1)
    }

    /// Moving protected items under the presence key (the first PIN enrolment) is the library's
    /// own re-seal, not a change of the item: a protected item written before format 6 keeps the
    /// tag that lets the library take it in (a database sealer's key with `requireUserPresence`,
    /// whose database must still open). The format-4 fixture's protected items stand in for one.
    func testTheFirstEnrolmentKeepsAProtectedLegacyItemEligible() throws {
        let keychain = try KeychainFixture.open("KeychainCoreTests/Fixtures/format4-passphrase", in: scratch)
        try keychain.unlock(passphrase: "fixture passphrase 4")
        let location = keychain.location
        let oldPIN = try PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in
            "fixture pin 4"
        }
        keychain.authenticator = oldPIN
        try PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in "" }.setPIN(
            "new pin", current: "fixture pin 4", in: keychain)
        XCTAssertEqual(keychain.enrolledMethods, [.passcode], "the protected items moved under the presence key")
        keychain.authenticator = try PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in
            "new pin"
        }
        var owned = Query(.genericPassword, [.service: "com.example.protected", .account: "ak"], limit: .one)
        owned.owner = LibraryOwner("database-sealer")
        XCTAssertEqual(
            try keychain.find(owned, returning: .data).first?.data, Data("protected-ak".utf8),
            "the re-sealed item lost the tag that lets the library take it in")
        XCTAssertTrue(try keychain.verify().isClean)
    }

    /// A query for one item skips the library's hidden rows and returns the app's first item,
    /// not "not found" (the hidden rows come first in the upgraded fixture).
    func testAQueryForOneItemReadsPastTheLibrarysHiddenItems() throws {
        let keychain = try format5Keychain()
        try keychain.add(
            NewItem(
                .genericPassword, attributes: [.service: "com.acme.app", .account: "alice"], data: Data("app".utf8),
                accessibility: .afterFirstUnlock))
        let first = try keychain.find(Query(.genericPassword, limit: .one), returning: [.attributes, .data])
        XCTAssertEqual(first.first?.attributes[.service]?.stringValue, "com.acme.app")
        XCTAssertEqual(try keychain.find(Query(.genericPassword, limit: .count(2))).count, 1)
    }

    /// The adoption tag proves nothing once copied: a row that gains it by raw SQL fails its seal.
    func testACopiedAdoptionTagIsTampering() throws {
        let keychain = try format5Keychain()
        let location = keychain.location
        try keychain.add(
            NewItem(
                .genericPassword, attributes: [.service: .string(service), .account: "planted"],
                data: Data(repeating: 0x43, count: 32), accessibility: .afterFirstUnlock))
        let tag = keychain.keys.indexer.writtenBeforeOwnershipTag
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(
                sql: "INSERT INTO item_tags (tag, item_rowid) SELECT ?, MAX(id) FROM items", arguments: [tag])
        }
        try queue.close()
        let reopened = try Keychain(location: location, options: KeychainOptions(resumesUnlockSession: false, tpm: nil))
        var query = Query(.genericPassword, [.service: .string(service), .account: "planted"])
        query.owner = LibraryOwner("protected-files")
        XCTAssertKeychainError(.integrityViolation, try reopened.find(query))
        XCTAssertFalse(try reopened.verify().isClean)
    }
}
