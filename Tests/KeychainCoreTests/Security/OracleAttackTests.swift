import Foundation
import XCTest
import AuthenticationTestSupport
@testable import KeychainCore

/// Finding 2 of issue 16's review: values derived from secret data must not turn a query into
/// an oracle on a protected item's data. The attack: guess the data, compute its SHA-1 (or a
/// secret blob), query by it, and watch whether the item is found — with no authentication.
final class OracleAttackTests: XCTestCase {
    private func attempt(_ keychain: Keychain, _ query: Query) -> KeychainError.Code? {
        do {
            _ = try keychain.find(query)
            return nil
        } catch {
            return error.code
        }
    }

    func testTheDataDigestIsNoOracleOnProtectedData() throws {
        let test = try TestKeychain()
        let authenticator = ScriptedAuthenticator()
        test.keychain.authenticator = authenticator
        try authenticator.enroll(in: test.keychain)
        try test.keychain.add(password("bank", "pin", "123456").protected(by: AccessPolicy(flags: [.userPresence])))
        try test.keychain.add(password("bank", "open", "123456"))
        let stored = try XCTUnwrap(test.keychain.findFirst(query("bank", "pin"))).attributes
        func digestQuery(_ account: String, guess: String) -> Query {
            var attributes = stored.filter { ItemSchema.of(.genericPassword).primaryKey.contains($0.key) }
            attributes[.account] = .string(account)
            let digest = ItemAttributes.digest(
                itemClass: .genericPassword, attributes: attributes, data: Data(guess.utf8))
            return Query(
                .genericPassword, [.service: "bank", .account: .string(account), .sha1: .data(digest)], limit: .all)
        }
        // The digest is computed right: on the unprotected twin it tells a right guess from a wrong one.
        XCTAssertNil(attempt(test.keychain, digestQuery("open", guess: "123456")))
        XCTAssertEqual(attempt(test.keychain, digestQuery("open", guess: "000000")), .itemNotFound)
        // On the protected item a right and a wrong guess give the same error, and nobody was asked.
        XCTAssertEqual(attempt(test.keychain, digestQuery("pin", guess: "123456")), .authFailed)
        XCTAssertEqual(attempt(test.keychain, digestQuery("pin", guess: "000000")), .authFailed)
        XCTAssertKeychainError(
            .authFailed, try test.keychain.delete(digestQuery("pin", guess: "123456")), "a delete is no oracle either")
        XCTAssertEqual(authenticator.prompts, 0)
        XCTAssertNotNil(try test.keychain.findFirst(query("bank", "pin")), "nothing was deleted")
        // Offline, with the class keys (the same user, the keychain unlocked), the metadata holds
        // no digest to test guesses against: only opening the data computes it.
        let row = try test.keychain.read { db in try test.keychain.row(id: 1, db) }
        XCTAssertTrue(row.sealed.isPresenceSealed)
        let metadata = try ItemCipher.openMetadata(
            row.sealed, binding: row.binding(vaultID: test.keychain.vaultID),
            keys: test.keychain.keys.classKeys(for: row.accessibility))
        XCTAssertNil(AttributeCodec.decode(metadata)?[.sha1], "a protected item's metadata holds no data digest")
        let opened = try XCTUnwrap(test.keychain.find(query("bank", "pin"), returning: [.attributes, .data]).first)
        XCTAssertEqual(
            opened.attributes[.sha1], digestQuery("pin", guess: "123456").attributes[.sha1],
            "returned with the data, as Apple does")
    }

    /// The internet-password secret blobs (`bin*`) would sit in the metadata, which opens without
    /// the user: a protected item refuses them, so there is nothing to match or decrypt offline.
    func testSecretBlobsAreRefusedOnProtectedItems() throws {
        let test = try TestKeychain()
        let authenticator = ScriptedAuthenticator()
        test.keychain.authenticator = authenticator
        try authenticator.enroll(in: test.keychain)
        let blob: AttributeKey = "bin0"
        let item = NewItem(
            .internetPassword,
            attributes: [.server: "bank.example.com", .account: "alice", blob: .data(Data("answer-42".utf8))],
            data: Data("s3cret".utf8))
        XCTAssertKeychainError(
            .invalidParameter, try test.keychain.add(item.protected(by: AccessPolicy(flags: [.userPresence]))))
        try test.keychain.add(item)
        XCTAssertKeychainError(
            .invalidParameter,
            try test.keychain.update(
                Query(.internetPassword, [.server: "bank.example.com"]),
                with: ItemChanges(attributes: [.accessControl: AccessPolicy(flags: [.userPresence]).attributeValue])),
            "protecting an item that carries a blob is refused too")
        let byBlob = Query(
            .internetPassword, [.server: "bank.example.com", blob: .data(Data("answer-42".utf8))], limit: .all)
        XCTAssertNil(attempt(test.keychain, byBlob), "unprotected items still match their blobs")
        XCTAssertEqual(authenticator.prompts, 0)
    }
}
