#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// Writes that must never weaken, lose or half-copy a value: found by reviewing the facade
/// against the ways apps actually call it (token refreshes, read-modify-write, races).
final class WriteSafetyTests: StorageTestCase {
    /// A rewrite without a sensitivity keeps the value's protection; a new value gets the default.
    func testWriteWithoutSensitivityKeepsTheExistingProtection() throws {
        try keychain.setPassphrase("device passcode")
        try storage.set("card", for: "payment", sensitivity: .topSecret)
        try storage.set("refresh-1", for: "refresh", sensitivity: .private)
        try storage.set("card-2", for: "payment")
        try storage.set(Data("refresh-2".utf8), for: "refresh")
        XCTAssertEqual(try storage.protection(of: "payment"), .whenPasscodeSetThisDeviceOnly, "never weakened")
        XCTAssertEqual(
            try storage.protection(of: "refresh"), .afterFirstUnlockThisDeviceOnly, "still readable in the background")
        XCTAssertEqual(try storage.string(for: "payment"), "card-2")
        try storage.set("new", for: "fresh")
        XCTAssertEqual(try storage.protection(of: "fresh"), .whenUnlockedThisDeviceOnly, "a new value gets the default")
        try storage.set("moved", for: "refresh", sensitivity: .secret)
        XCTAssertEqual(
            try storage.protection(of: "refresh"), .whenUnlockedThisDeviceOnly, "an explicit sensitivity moves it")
    }

    struct Session {
        @SecureSetting("auth.token", store: SecureStorage(service: "com.acme.app"), sensitivity: .secret)
        var token: String?
    }

    /// `token = token.map(refresh)` while locked reads nil; that must not delete the token.
    func testPropertyReadModifyWriteWhileLockedDoesNotDelete() throws {
        let session = Session()
        session.token = "t1"
        try lockWithPassphrase()
        session.token = session.token.map { $0 + "-refreshed" }
        XCTAssertEqual(session.$token.lastError, .locked)
        try unlock()
        XCTAssertEqual(session.token, "t1", "reading nil while locked and writing it back does not delete the token")

        session.token = nil
        XCTAssertNil(try storage.string(for: "auth.token"), "nil deletes a readable value")
        session.token = "t2"
        try lockWithPassphrase()
        try session.$token.remove()
        try unlock()
        XCTAssertNil(session.token, "remove() deletes even while locked")
    }

    /// The same item (same persistent reference) before and after: no delete-and-add window.
    func testChangeProtectionUpdatesTheSameItemInPlace() throws {
        try storage.set("v", for: "k", sensitivity: .private)
        let before = try persistentReference(of: "k")
        try storage.changeProtection(of: "k", to: .secret)
        XCTAssertEqual(try persistentReference(of: "k"), before)
        XCTAssertEqual(try storage.protection(of: "k"), .whenUnlockedThisDeviceOnly)
    }

    private func persistentReference(of key: String) throws -> Data {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: storage.service,
            kSecAttrAccount as String: key, kSecReturnPersistentRef as String: true
        ]
        var result: AnyObject?
        XCTAssertEqual(SecItemCopyMatching(query as CFDictionary, &result), errSecSuccess)
        return try XCTUnwrap(result as? Data)
    }

    func testProtectionChangesHonourThePasscodeFallback() throws {
        let lenient = SecureStorage(service: "com.acme.app", passcodeFallback: .storeAsSecret)
        try lenient.set("v", for: "k", sensitivity: .private)
        try lenient.changeProtection(of: "k", to: .topSecret)
        XCTAssertEqual(try lenient.protection(of: "k"), .whenUnlockedThisDeviceOnly)
        XCTAssertStorageError(.passcodeRequired, try storage.changeProtection(of: "k", to: .topSecret))
        XCTAssertTrue(try lenient.migrateProtection(from: .whenUnlockedThisDeviceOnly, to: .topSecret))
    }

    /// A locked persist writes what it can, reports the failure, and a retry completes it.
    func testPersistWhileLockedWritesWhatItCanAndARetryCompletes() throws {
        let volatile = VolatileSecureStorage(persistingTo: storage)
        try volatile.set("p1", for: "p1", sensitivity: .private)
        try volatile.set("s1", for: "s1", sensitivity: .secret)
        try volatile.set("p2", for: "p2", sensitivity: .private)
        try lockWithPassphrase()
        XCTAssertStorageError(.locked, try volatile.persist())
        XCTAssertEqual(try storage.string(for: "p1"), "p1")
        XCTAssertEqual(try storage.string(for: "p2"), "p2", "values after the failing one are written too")
        try unlock()
        XCTAssertNil(try storage.string(for: "s1"))
        XCTAssertEqual(try volatile.persist(), ["p1", "s1", "p2"])
        XCTAssertEqual(try storage.string(for: "s1"), "s1")
    }

    func testLoadKeepsNewerValuesInMemory() throws {
        try storage.set("old", for: "token")
        try storage.set("only-stored", for: "other")
        let volatile = VolatileSecureStorage(persistingTo: storage)
        try volatile.set("newer", for: "token")
        try volatile.set("only-in-memory", for: "draft")
        XCTAssertEqual(try volatile.load(), 1)
        XCTAssertEqual(try volatile.string(for: "token"), "newer")
        XCTAssertEqual(try volatile.string(for: "other"), "only-stored")
        XCTAssertEqual(try volatile.string(for: "draft"), "only-in-memory")
        XCTAssertEqual(try volatile.load(replacingValuesInMemory: true), 2)
        XCTAssertEqual(try volatile.string(for: "token"), "old")
    }

    /// A writer racing a deleter never reports `.notFound` for a write.
    func testConcurrentStoreAndDeleteNeverFailsAWrite() throws {
        let storage = self.storage!
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in 0..<150 {
                do {
                    if worker == 0 {
                        try storage.set("v\(index)", for: "contended")
                    } else {
                        try storage.removeValue(for: "contended")
                    }
                } catch {
                    failures.add()
                }
            }
        }
        XCTAssertEqual(failures.value, 0)
    }
}

/// A thread-safe counter for the race test.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
#endif
