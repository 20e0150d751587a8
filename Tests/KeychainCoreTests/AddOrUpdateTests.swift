import Foundation
import XCTest
@testable import KeychainCore

/// `addOrUpdate` adds, or updates exactly the item `add` would collide with, in one transaction.
final class AddOrUpdateTests: XCTestCase {
    func testAddsThenUpdatesOnlyTheCollidingItem() throws {
        let test = try TestKeychain()
        XCTAssertEqual(try test.keychain.addOrUpdate(password("svc", "acct", "v1", extra: [.label: "first"])), .added)
        // Same service and account but another token id: a different primary key, not to be touched.
        try test.keychain.add(password("svc", "acct", "token-bound", extra: [.tokenID: "com.example.token"]))
        XCTAssertEqual(
            try test.keychain.addOrUpdate(password("svc", "acct", "v2", .afterFirstUnlock, extra: [.comment: "note"])),
            .updated)

        let items = try test.keychain.findAll(query("svc", "acct"), returning: [.attributes, .data])
        XCTAssertEqual(items.count, 2)
        let updated = try XCTUnwrap(items.first { $0.attributes[.tokenID] == nil })
        XCTAssertEqual(updated.data, Data("v2".utf8))
        XCTAssertEqual(updated.attributes[.label], "first", "attributes not given keep their values")
        XCTAssertEqual(updated.attributes[.comment], "note")
        XCTAssertEqual(updated.accessibility, .afterFirstUnlock)
        XCTAssertEqual(items.first { $0.attributes[.tokenID] != nil }?.data, Data("token-bound".utf8))
    }

    func testLockedExistingItemIsNotChanged() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pw")
        try test.keychain.add(password("svc", "acct", "kept", .whenUnlocked))
        try test.keychain.lock()
        XCTAssertKeychainError(
            .interactionNotAllowed, try test.keychain.addOrUpdate(password("svc", "acct", "new", .afterFirstUnlock)))
        try test.keychain.unlock(passphrase: "pw")
        XCTAssertEqual(try test.keychain.find(query("svc", "acct"), returning: .data).first?.data, Data("kept".utf8))
    }
}

/// `add(contentsOf:)`: one transaction, all or nothing, the state digest exact.
final class BatchAddTests: XCTestCase {
    func testBatchAddsEveryItemAndVerifiesClean() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("existing", "one"))
        let items = (0..<250).map { password("batch", "account-\($0)", "secret-\($0)") }
        XCTAssertEqual(try test.keychain.add(contentsOf: items), 250)
        let found = try test.keychain.findAll(
            Query(.genericPassword, [.service: "batch"]), returning: [.attributes, .data])
        XCTAssertEqual(found.count, 250)
        XCTAssertEqual(found.first { $0.attributes[.account]?.stringValue == "account-7" }?.data, Data("secret-7".utf8))
        let report = try test.keychain.verify()
        XCTAssertTrue(report.isClean, "\(report.stateProblem ?? "") \(report.damagedItems)")
        XCTAssertEqual(try test.keychain.add(contentsOf: []), 0)
    }

    func testADuplicateAnywhereAddsNothing() throws {
        let test = try TestKeychain()
        try test.keychain.add(password("batch", "taken"))
        XCTAssertKeychainError(
            .duplicateItem, try test.keychain.add(contentsOf: [password("batch", "new-1"), password("batch", "taken")]))
        XCTAssertKeychainError(
            .duplicateItem, try test.keychain.add(contentsOf: [password("batch", "twice"), password("batch", "twice")]))
        XCTAssertEqual(
            try test.keychain.findAll(Query(.genericPassword, [.service: "batch"])).count, 1,
            "nothing of a failed batch remains")
        XCTAssertTrue(try test.keychain.verify().isClean)
    }

    /// Large batches are sealed on several cores, then inserted in order: the items get the row
    /// ids of their position, every one opens with its own data, and a failure in any part
    /// (a locked class late in the batch, a duplicate within it) adds nothing.
    func testABatchSealedOnSeveralCoresKeepsOrderAndAllOrNothing() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pass")
        let items = (0..<1000).map {
            password("big", String(format: "account-%04d", $0), "secret-\($0)", $0 % 3 == 0 ? .always : nil)
        }
        XCTAssertEqual(try test.keychain.add(contentsOf: items), 1000)
        let found = try test.keychain.find(Query(.genericPassword, [.service: "big"]), returning: [.attributes, .data])
        XCTAssertEqual(
            found.map { $0.attributes[.account]?.stringValue }, items.map { $0.attributes[.account]?.stringValue },
            "insertion order is the batch's")
        for (index, item) in found.enumerated() { XCTAssertEqual(item.data, Data("secret-\(index)".utf8)) }
        XCTAssertTrue(try test.keychain.verify().isClean)

        try test.keychain.lock()
        var late = (0..<600).map { password("late", "a\($0)", "x", .always) }
        late.append(password("late", "locked", "y", .whenUnlocked))
        XCTAssertKeychainError(.interactionNotAllowed, try test.keychain.add(contentsOf: late))
        try test.keychain.unlock(passphrase: "pass")
        var twice = (0..<600).map { password("late", "b\($0)", "x") }
        twice.append(password("late", "b7", "again"))
        XCTAssertKeychainError(.duplicateItem, try test.keychain.add(contentsOf: twice))
        XCTAssertEqual(try test.keychain.findAll(Query(.genericPassword, [.service: "late"])).count, 0)
        XCTAssertTrue(try test.keychain.verify().isClean)
    }

    func testALockedClassAddsNothing() throws {
        let test = try TestKeychain()
        try test.keychain.setPassphrase("pass")
        try test.keychain.lock()
        XCTAssertKeychainError(
            .interactionNotAllowed,
            try test.keychain.add(contentsOf: [
                password("batch", "always", "x", .always), password("batch", "locked", "y", .whenUnlocked)
            ]))
        XCTAssertEqual(try test.keychain.findAll(Query(.genericPassword, [.service: "batch"])).count, 0)
    }
}
