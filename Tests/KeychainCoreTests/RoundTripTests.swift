import Foundation
import XCTest
@testable import KeychainCore

/// Add, find, update and delete for every class.
final class RoundTripTests: XCTestCase {
    func testGenericPasswordRoundTrip() throws {
        let test = try TestKeychain()
        let kc = test.keychain
        try kc.add(password("api.example.com", "alice", "hunter2"))
        let found = try kc.find(query("api.example.com", "alice"), returning: [.data, .attributes])
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found[0].data, Data("hunter2".utf8))
        XCTAssertEqual(found[0].attributes[.service], "api.example.com")
        XCTAssertEqual(found[0].attributes[.account], "alice")

        XCTAssertEqual(try kc.update(query("api.example.com", "alice"), with: ItemChanges(data: Data("new".utf8))), 1)
        XCTAssertEqual(try kc.find(query("api.example.com", "alice"), returning: .data).first?.data, Data("new".utf8))
        XCTAssertEqual(try kc.delete(query("api.example.com", "alice")), 1)
        XCTAssertKeychainError(.itemNotFound, try kc.find(query("api.example.com", "alice")))
        XCTAssertKeychainError(.itemNotFound, try kc.delete(query("api.example.com", "alice")))
        XCTAssertKeychainError(
            .itemNotFound, try kc.update(query("api.example.com", "alice"), with: ItemChanges(data: Data())))
    }

    func testInternetPasswordRoundTrip() throws {
        let test = try TestKeychain()
        let attributes: [AttributeKey: AttributeValue] = [
            .server: "example.com", .account: "bob", .protocol: "htps", .port: 443, .path: "/login",
            .authenticationType: "form"
        ]
        try test.keychain.add(NewItem(.internetPassword, attributes: attributes, data: Data("pw".utf8)))
        let found = try test.keychain.find(
            Query(.internetPassword, [.server: "example.com", .port: 443]), returning: [.data, .attributes])
        XCTAssertEqual(found.first?.data, Data("pw".utf8))
        XCTAssertEqual(found.first?.attributes[.protocol], "htps", "four-character protocol strings stay strings")
        XCTAssertEqual(found.first?.attributes[.port], 443)
        XCTAssertKeychainError(
            .itemNotFound, try test.keychain.find(Query(.internetPassword, [.server: "example.com", .port: 80])))
    }

    func testCertificateKeyAndIdentityRoundTrip() throws {
        let test = try TestKeychain()
        let publicKeyHash = Data((0..<20).map { UInt8($0) })
        let certificate = NewItem(
            .certificate,
            attributes: [
                .certificateType: 3, .issuer: .data(Data("issuer".utf8)), .serialNumber: .data(Data([1, 2, 3])),
                .publicKeyHash: .data(publicKeyHash), .label: "Alice's certificate"
            ], data: Data("DER certificate".utf8))
        let key = NewItem(
            .key,
            attributes: [
                .keyClass: "1", .applicationLabel: .data(publicKeyHash),
                .applicationTag: .data(Data("com.acme.key".utf8)),
                .type: "73", .keySizeInBits: 256
            ], data: Data("private key bytes".utf8))

        let identity = try test.keychain.addIdentity(
            certificate: certificate, privateKey: key, returning: [.attributes, .data])
        XCTAssertEqual(identity.itemClass, .identity)
        XCTAssertEqual(identity.data, Data("DER certificate".utf8))
        XCTAssertEqual(identity.attributes[.label], "Alice's certificate")
        XCTAssertEqual(identity.attributes[.keyClass], 1, "kcls is stored and returned as a number")
        XCTAssertEqual(identity.attributes[.type], 73)

        let certificates = try test.keychain.find(
            Query(.certificate, [.serialNumber: .data(Data([1, 2, 3]))]), returning: .data)
        XCTAssertEqual(certificates.first?.data, Data("DER certificate".utf8))
        let keys = try test.keychain.find(
            Query(.key, [.applicationTag: "com.acme.key", .keyClass: 1]), returning: .data)
        XCTAssertEqual(
            keys.first?.data, Data("private key bytes".utf8), "a string tag matches the same bytes stored as data")

        let identities = try test.keychain.find(
            Query(.identity, [.label: "Alice's certificate"]), returning: [.attributes])
        XCTAssertEqual(identities.count, 1)
        XCTAssertEqual(identities[0].identityComponents?.privateKey, keys[0].persistentReference)
        let byReference = try test.keychain.find(
            Query(persistentReference: identities[0].persistentReference), returning: [.data])
        XCTAssertEqual(byReference.first?.data, Data("DER certificate".utf8))

        XCTAssertEqual(
            try test.keychain.delete(Query(.identity)), 2, "deleting an identity deletes its certificate and key")
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(Query(.certificate)))
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(Query(.key)))
    }

    func testIdentityIsNotAddedOnItsOwn() throws {
        let test = try TestKeychain()
        XCTAssertKeychainError(.invalidParameter, try test.keychain.add(NewItem(.identity, data: Data())))
    }

    func testFindReturnsInsertionOrderAndHonoursLimits() throws {
        let test = try TestKeychain()
        for account in ["c", "a", "b", "d"] { try test.keychain.add(password("svc", account)) }
        let all = try test.keychain.find(query("svc"), returning: .attributes)
        XCTAssertEqual(all.map { $0.attributes[.account] }, ["c", "a", "b", "d"])
        XCTAssertEqual(try test.keychain.find(query("svc", limit: .one)).map { $0.attributes[.account] }, ["c"])
        XCTAssertEqual(try test.keychain.find(query("svc", limit: .count(3))).count, 3)
        try test.keychain.update(query("svc", "c"), with: ItemChanges(attributes: [.label: "changed"]))
        XCTAssertEqual(
            try test.keychain.find(query("svc", limit: .one)).first?.attributes[.account], "c",
            "an update keeps the item's place")
        XCTAssertKeychainError(.invalidParameter, try test.keychain.find(query("svc", limit: .count(0))))
    }

    func testPersistentReferenceIsStableAcrossUpdatesAndFindsWithoutClass() throws {
        let test = try TestKeychain()
        let added = try test.keychain.add(password("svc", "acct"), returning: .persistentReference)
        XCTAssertEqual(added.persistentReference.data.count, 20)
        XCTAssertEqual(added.persistentReference.data.prefix(4), Data("genp".utf8))
        try test.keychain.update(
            query("svc", "acct"), with: ItemChanges(attributes: [.account: "renamed"], data: Data("v2".utf8)))
        let reference = try XCTUnwrap(PersistentReference(data: added.persistentReference.data))
        let found = try test.keychain.find(Query(persistentReference: reference), returning: [.data, .attributes])
        XCTAssertEqual(found.first?.data, Data("v2".utf8))
        XCTAssertEqual(found.first?.attributes[.account], "renamed")
        XCTAssertEqual(try test.keychain.delete(Query(persistentReference: reference)), 1)
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(Query(persistentReference: reference)))
    }

    func testReopenedKeychainSeesCommittedData() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "persisted"))
        try test.reopen()
        XCTAssertEqual(
            try test.keychain.find(query("svc", "acct"), returning: .data).first?.data, Data("persisted".utf8))
    }

    func testItemWithoutDataReturnsEmptyData() throws {
        let test = try TestKeychain()
        try test.keychain.add(NewItem(.genericPassword, attributes: [.service: "s"]))
        XCTAssertEqual(try test.keychain.find(Query(.genericPassword), returning: .data).first?.data, Data())
    }

    func testDescriptionNeverShowsData() throws {
        let test = try TestKeychain()
        let found = try test.keychain.add(password("svc", "acct", "TOPSECRETVALUE"), returning: [.data, .attributes])
        XCTAssertFalse("\(found)".contains("TOPSECRETVALUE"))
        XCTAssertTrue("\(found)".contains("redacted"))
    }
}
