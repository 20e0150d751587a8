import Foundation
import GRDB
import XCTest
@_spi(Fuzzing) @_spi(Testing) @testable import KeychainCore

/// Review 34b of the fix in 575a3b4 ("legacy library items hidden from apps' finds and exports
/// until taken in"): the hiding happens in `prove` after SQLite selected the rows, and only on
/// the decrypting path (`MatchProof.attributes`).
final class Review34bLegacyItemAttackTests: XCTestCase {
    private var scratch: URL!
    private let service = "SecureStorage.files/default"

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kc-review34b-\(UUID().uuidString)")
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

    /// `limit: .one` without residual filters puts `LIMIT 1` in the SQL: the first row is a hidden
    /// legacy item, `prove` drops it, and the cursor has nothing more, so the app's own visible
    /// item is never found. Reproduction: after the upgrade, `add` service
    /// `SecureStorage.files/default` account `app-own`, then `find(service:, limit: .one)` →
    /// itemNotFound, while `findAll` returns `app-own`.
    func testReview34bLimitOneMissesAVisibleItemBehindAHiddenLegacyRow() throws {
        let keychain = try format5Keychain()
        try keychain.add(
            NewItem(
                .genericPassword, attributes: [.service: .string(service), .account: "app-own"],
                data: Data("the app's own".utf8), accessibility: .afterFirstUnlock))
        XCTAssertEqual(
            try accounts(keychain, owner: nil), ["app-own"], "findAll sees only the app's item (legacy rows hidden)")
        let one = try? keychain.find(Query(.genericPassword, [.service: .string(service)], limit: .one))
        XCTAssertEqual(
            one?.first?.attributes[.account]?.stringValue, "app-own",
            "a limit-one find missed the one visible item: SQL LIMIT 1 selected a hidden legacy row first")
    }

    /// A delete proves rows by their seal (`MatchProof.seal`), which returns before the hiding
    /// check: an app's (or `keychain delete-generic-password`'s) delete removes the library's
    /// legacy items that no find shows it — here the protected files' keys, so the files never
    /// open again. Reproduction: after the upgrade,
    /// `delete(Query(.genericPassword, [.service: "SecureStorage.files/default"]))` succeeds
    /// (finds said nothing is there) and the library's owned query then finds no key.
    func testReview34bAnAppsDeleteRemovesHiddenLegacyLibraryItems() throws {
        let keychain = try format5Keychain()
        XCTAssertEqual(try accounts(keychain, owner: nil), [], "apps do not see the legacy items")
        let deleted = try? keychain.delete(Query(.genericPassword, [.service: .string(service)]))
        XCTAssertNil(deleted, "an app's delete removed \(deleted ?? 0) legacy library items its finds do not show")
        let owned = try accounts(keychain, owner: LibraryOwner("protected-files"))
        XCTAssertTrue(owned.isSuperset(of: ["none", "current"]), "the library's protected-file keys are gone: \(owned)")
    }

    /// `keepingAdoptionTag` reads the tag from `item_tags` (plain rows in the file) without
    /// checking the row's seal, then seals the row again *with* it: the first PIN enrolment
    /// launders a tag someone added by raw SQL into a valid seal, and the library then takes a
    /// value written after the upgrade (here an attacker's replacement of a protected item) into
    /// its namespace as its own (a database sealer's key the attacker knows).
    /// Reproduction: format-4 fixture, `update` `com.example.protected`/`ak` with new data (drops
    /// the tag), `INSERT INTO item_tags` the adoption tag for its row, `setPIN`, then an owned
    /// find of `ak` returns the replaced value and `verify()` is clean.
    func testReview34bFirstEnrolmentLaundersARawSQLAdoptionTag() throws {
        let keychain = try KeychainFixture.open("KeychainCoreTests/Fixtures/format4-passphrase", in: scratch)
        try keychain.unlock(passphrase: "fixture passphrase 4")
        let location = keychain.location
        keychain.authenticator = try PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in
            "fixture pin 4"
        }
        let ak = Query(.genericPassword, [.service: "com.example.protected", .account: "ak"])
        try keychain.update(ak, with: ItemChanges(data: Data("attacker-known key".utf8)))
        let tag = keychain.keys.indexer.writtenBeforeOwnershipTag
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(
                sql:
                    "INSERT INTO item_tags (tag, item_rowid) SELECT ?, id FROM items WHERE id NOT IN (SELECT item_rowid FROM item_tags WHERE tag = ?)",
                arguments: [tag, tag])
        }
        try queue.close()
        let reopened = try Keychain(location: location, options: KeychainOptions(resumesUnlockSession: false, tpm: nil))
        try reopened.unlock(passphrase: "fixture passphrase 4")
        reopened.authenticator = try PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in
            "fixture pin 4"
        }
        try? PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in "" }.setPIN(
            "new pin", current: "fixture pin 4", in: reopened)
        reopened.authenticator = try PINAuthenticator(keychain: location, parameters: .insecureForTestingOnly) { _ in
            "new pin"
        }
        var owned = Query(.genericPassword, [.service: "com.example.protected", .account: "ak"], limit: .one)
        owned.owner = LibraryOwner("database-sealer")
        let taken = try? reopened.find(owned, returning: .data).first?.data
        XCTAssertNotEqual(
            taken, Data("attacker-known key".utf8),
            "the library took a value written after the upgrade as its own: the enrolment re-sealed a raw-SQL adoption tag"
        )
    }
}
