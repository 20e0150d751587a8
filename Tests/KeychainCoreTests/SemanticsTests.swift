import Foundation
import XCTest
@testable import KeychainCore

/// Apple's data model: uniqueness keys, defaults, coercion and filters.
final class SemanticsTests: XCTestCase {
    /// Accessibility, label and data are not part of the primary key.
    func testDuplicateOnPrimaryKeyRegardlessOfAccessibilityAndLabel() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "one", .whenUnlocked, extra: [.label: "first"]))
        XCTAssertKeychainError(
            .duplicateItem,
            try test.keychain.add(
                password("svc", "acct", "two", .always, extra: [.label: "second", .generic: .data(Data([1]))])))
        XCTAssertKeychainError(.duplicateItem, try test.keychain.add(password("svc", "acct", "three")))
        XCTAssertEqual(
            try test.keychain.find(query("svc", "acct"), returning: .data).map(\.data), [Data("one".utf8)],
            "the failed adds changed nothing")
        try test.keychain.add(password("svc", "other"))
        try test.keychain.add(
            NewItem(.genericPassword, attributes: [.service: "svc", .account: "acct", .accessGroup: "TEAM.shared"]))
        XCTAssertEqual(try test.keychain.find(query("svc")).count, 3, "account and access group are part of the key")
    }

    /// A string and the same bytes as data are equal for blob attributes, so they collide.
    func testStringAndDataAccountCollideAndMatch() throws {
        let test = try TestKeychain()
        try test.keychain.add(
            NewItem(.genericPassword, attributes: [.service: "svc", .account: .data(Data("acct".utf8))]))
        XCTAssertKeychainError(.duplicateItem, try test.keychain.add(password("svc", "acct")))
        let found = try test.keychain.find(Query(.genericPassword, [.account: "acct"]), returning: .attributes)
        XCTAssertEqual(found.first?.attributes[.account], .data(Data("acct".utf8)), "results keep the type stored")
    }

    /// An item added without account or service has "" for both, and collides with another such item.
    func testDefaultsAppliedOnAdd() throws {
        let test = try TestKeychain(defaultAccessGroup: "TEAM.default.group")
        let before = Date()
        let added = try test.keychain.add(
            NewItem(
                .genericPassword, attributes: [.creationDate: .date(Date(timeIntervalSince1970: 0))],
                data: Data("x".utf8)), returning: .attributes)
        let attributes = added.attributes
        XCTAssertEqual(attributes[.account], "")
        XCTAssertEqual(attributes[.service], "")
        XCTAssertEqual(attributes[.accessGroup], "TEAM.default.group")
        XCTAssertEqual(attributes[.accessible], "ak", "passwords default to kSecAttrAccessibleWhenUnlocked")
        XCTAssertEqual(attributes[.synchronizable], 0)
        XCTAssertEqual(attributes[.tombstone], 0)
        XCTAssertEqual(attributes[.multiUser], .data(Data()))
        XCTAssertNil(attributes[.sha1], "sha1 is returned only with data")
        let created = try XCTUnwrap(attributes[.creationDate]?.dateValue)
        XCTAssertGreaterThanOrEqual(created, before.addingTimeInterval(-1), "a caller's cdat is overwritten")
        XCTAssertEqual(attributes[.modificationDate], attributes[.creationDate])
        XCTAssertKeychainError(.duplicateItem, try test.keychain.add(NewItem(.genericPassword)))

        let certificate = try test.keychain.add(NewItem(.certificate, data: Data("c".utf8)), returning: .attributes)
        XCTAssertEqual(certificate.attributes[.accessible], "dk", "certificates default to kSecAttrAccessibleAlways")
        XCTAssertEqual(certificate.attributes[.issuer], .data(Data()))
        XCTAssertEqual(certificate.attributes[.certificateType], 0)
        let key = try test.keychain.add(NewItem(.key, data: Data("k".utf8)), returning: [.attributes, .data])
        XCTAssertEqual(key.attributes[.startDate], .date(Date(timeIntervalSinceReferenceDate: 0)))
        XCTAssertEqual(key.attributes[.applicationTag], "")
        XCTAssertEqual(key.attributes[.keyClass], 0)
        XCTAssertEqual(key.attributes[.sha1]?.dataValue?.count, 20)
        let internet = try test.keychain.add(NewItem(.internetPassword), returning: .attributes)
        XCTAssertEqual(internet.attributes[.port], 0)
        XCTAssertEqual(internet.attributes[.server], "")
    }

    /// Sync is part of the primary key; queries see non-sync items unless they ask.
    func testSynchronizableAndLocalItemsWithTheSamePrimaryKeyCoexist() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "acct", "local"))
        try test.keychain.add(password("svc", "acct", "synced", extra: [.synchronizable: true]))
        XCTAssertEqual(try test.keychain.find(query("svc", "acct"), returning: .data).map(\.data), [Data("local".utf8)])
        var synced = query("svc", "acct")
        synced.synchronizable = .yes
        XCTAssertEqual(try test.keychain.find(synced, returning: .data).map(\.data), [Data("synced".utf8)])
        var any = query("svc", "acct")
        any.synchronizable = .any
        XCTAssertEqual(try test.keychain.find(any).count, 2)
        XCTAssertEqual(
            try test.keychain.delete(query("svc", "acct")), 1, "delete without sync leaves the synchronizable item")
        XCTAssertEqual(try test.keychain.delete(any), 1)
    }

    /// An update that would collide fails with -25299 and changes nothing.
    func testUpdateCollisionLeavesEverythingUnchanged() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "secret-a"))
        try test.keychain.add(password("svc", "b", "secret-b"))
        try test.keychain.add(password("svc", "c", "secret-c"))
        let before = try test.keychain.find(query("svc"), returning: [.attributes, .data])
        XCTAssertKeychainError(
            .duplicateItem,
            try test.keychain.update(
                query("svc"), with: ItemChanges(attributes: [.account: "same"], data: Data("x".utf8))))
        XCTAssertKeychainError(
            .duplicateItem, try test.keychain.update(query("svc", "c"), with: ItemChanges(attributes: [.account: "a"])))
        XCTAssertEqual(try test.keychain.find(query("svc"), returning: [.attributes, .data]), before)
    }

    func testUpdateChangesAllMatchesAndAdvancesModificationDate() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a"))
        try test.keychain.add(password("svc", "b"))
        let before = try test.keychain.find(query("svc"), returning: .attributes)
        XCTAssertEqual(
            try test.keychain.update(query("svc"), with: ItemChanges(attributes: [.label: "L", .accessible: "cku"])), 2)
        let after = try test.keychain.find(query("svc"), returning: .attributes)
        for (old, new) in zip(before, after) {
            XCTAssertEqual(new.attributes[.label], "L")
            XCTAssertEqual(new.accessibility, .afterFirstUnlockThisDeviceOnly)
            XCTAssertEqual(new.attributes[.creationDate], old.attributes[.creationDate])
            XCTAssertGreaterThan(
                try XCTUnwrap(new.attributes[.modificationDate]?.dateValue),
                try XCTUnwrap(old.attributes[.modificationDate]?.dateValue))
        }
        XCTAssertKeychainError(
            .invalidParameter,
            try test.keychain.update(query("svc"), with: ItemChanges(attributes: [.sharingGroup: "g"])))
    }

    /// Attributes of another class and values of the wrong type are refused.
    func testUnknownAttributesAndWrongValueTypes() throws {
        let test = try TestKeychain()
        XCTAssertKeychainError(
            .noSuchAttribute, try test.keychain.add(NewItem(.genericPassword, attributes: [.applicationTag: "t"])))
        XCTAssertKeychainError(
            .noSuchAttribute, try test.keychain.find(Query(.certificate, [.service: "S", .account: "A"])))
        XCTAssertKeychainError(
            .invalidParameter,
            try test.keychain.add(NewItem(.genericPassword, attributes: [.creationDate: "yesterday"])))
        XCTAssertKeychainError(
            .invalidParameter, try test.keychain.add(NewItem(.genericPassword, attributes: [.accessible: "sometimes"])))
        XCTAssertKeychainError(
            .invalidParameter, try test.keychain.add(NewItem(.genericPassword, attributes: [.account: .bool(true)])))
        XCTAssertKeychainError(.invalidParameter, try test.keychain.find(Query(.key, [.keyClass: .data(Data([1]))])))
    }

    /// Decimal strings become numbers for numeric attributes; accessibility filters.
    func testNumericCoercionAndAccessibilityFilter() throws {
        let test = try TestKeychain()
        try test.keychain.add(
            NewItem(.key, attributes: [.keyClass: "2", .keySizeInBits: "256", .applicationTag: "t"], data: Data([1])))
        XCTAssertEqual(try test.keychain.find(Query(.key, [.keyClass: 2, .keySizeInBits: 256])).count, 1)
        try test.keychain.add(password("svc", "a", "x", .afterFirstUnlock))
        XCTAssertEqual(try test.keychain.find(Query(.genericPassword, [.accessible: "ck"])).count, 1)
        XCTAssertKeychainError(
            .itemNotFound, try test.keychain.find(Query(.genericPassword, [.accessible: "ak"])),
            "kSecAttrAccessible in a query is a filter")
    }

    func testAccessGroupFilter() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "x", extra: [.accessGroup: "TEAM.one"]))
        try test.keychain.add(password("svc", "b", "x", extra: [.accessGroup: "TEAM.two"]))
        var q = query("svc")
        q.accessGroups = ["TEAM.one"]
        XCTAssertEqual(try test.keychain.find(q, returning: .attributes).map { $0.attributes[.account] }, ["a"])
        q.accessGroups = []
        XCTAssertKeychainError(.itemNotFound, try test.keychain.find(q))
        q.accessGroups = nil
        XCTAssertEqual(try test.keychain.find(q).count, 2)
        XCTAssertEqual(try test.keychain.find(Query(.genericPassword, [.accessGroup: "TEAM.two"])).count, 1)
    }

    func testFiltersOnEncryptedOnlyAttributesRunWithoutMatchingOthers() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("svc", "a", "x", extra: [.label: "L1", .generic: .data(Data([9]))]))
        try test.keychain.add(password("svc", "b", "x", extra: [.label: "L2"]))
        XCTAssertEqual(
            try test.keychain.find(Query(.genericPassword, [.label: "L2"]), returning: .attributes).first?.attributes[
                .account], "b")
        XCTAssertEqual(
            try test.keychain.find(Query(.genericPassword, [.generic: .data(Data([9]))]), returning: .attributes).first?
                .attributes[.account], "a")
        XCTAssertKeychainError(
            .itemNotFound, try test.keychain.find(Query(.genericPassword, [.label: "l2"])),
            "matching is exact, never case-insensitive")
    }
}
