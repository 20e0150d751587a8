#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// The in-memory store and the property wrapper.
final class VolatileAndSettingTests: StorageTestCase {
    func testVolatileStorageHasTheSameAPI() throws {
        let volatile = VolatileSecureStorage()
        try volatile.set(Data("otp".utf8), for: "otp")
        try volatile.set(["a": 1], for: "map")
        try volatile.set("text", for: "text")
        XCTAssertEqual(try volatile.data(for: "otp"), Data("otp".utf8))
        XCTAssertEqual(try volatile.value([String: Int].self, for: "map"), ["a": 1])
        XCTAssertStorageError(.decodingFailed(type: "Int"), try volatile.integer(for: "text"))
        XCTAssertEqual(try volatile.allKeys(), ["otp", "map", "text"])
        try volatile.set("text2", for: "otp")
        XCTAssertEqual(try volatile.allKeys(), ["otp", "map", "text"], "replacing keeps the order")
        XCTAssertStorageError(
            .duplicate, try volatile.insert(StoredValue(data: Data(), kind: .data), for: "map", sensitivity: nil))
        XCTAssertTrue(try volatile.removeValue(for: "map"))
        XCTAssertFalse(try volatile.contains("map"))
        XCTAssertFalse("\(volatile)".contains("text2"))
        volatile.clear()
        XCTAssertEqual(try volatile.allKeys(), [])
        XCTAssertNil(try volatile.data(for: "otp"))
    }

    /// Volatile storage never touches the disk: no keychain is created, no file appears.
    func testVolatileStorageNeverCreatesAFile() throws {
        try withEmptyDefaultHome { home in
            do {
                let volatile = VolatileSecureStorage()
                for index in 0..<100 { try volatile.set("value \(index)", for: "k\(index)", sensitivity: .topSecret) }
                XCTAssertEqual(try volatile.string(for: "k7"), "value 7")
                try volatile.removeAll()
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.path), [], "nothing was written")
        }
    }

    func testPersistAndLoadBetweenVolatileAndPermanent() throws {
        let volatile = VolatileSecureStorage(persistingTo: storage)
        try volatile.set("session", for: "session", sensitivity: .private)
        try volatile.set(7, for: "count")
        try volatile.persist()
        XCTAssertEqual(try storage.string(for: "session"), "session")
        XCTAssertEqual(
            try storage.protection(of: "session"), .afterFirstUnlockThisDeviceOnly, "persist keeps each sensitivity")
        XCTAssertEqual(try storage.integer(for: "count"), 7)

        let fresh = VolatileSecureStorage(persistingTo: storage)
        XCTAssertEqual(try fresh.load(), 2)
        XCTAssertEqual(try fresh.string(for: "session"), "session")
        XCTAssertEqual(try fresh.integer(for: "count"), 7)
        try fresh.persist()
        XCTAssertEqual(
            try storage.protection(of: "session"), .afterFirstUnlockThisDeviceOnly, "a round trip keeps the protection")

        XCTAssertStorageError(.underlying(errSecNoDefaultKeychain), try VolatileSecureStorage().persist())
    }

    func testPersistWhileLockedFailsWithoutLosingAnything() throws {
        try storage.set("old", for: "token")
        let volatile = VolatileSecureStorage(persistingTo: storage)
        try volatile.set("new", for: "token", sensitivity: .secret)
        try lockWithPassphrase()
        XCTAssertStorageError(.locked, try volatile.persist())
        try unlock()
        XCTAssertEqual(try storage.string(for: "token"), "old")
        XCTAssertEqual(try volatile.string(for: "token"), "new")
    }

    struct Settings {
        @SecureSetting("api.key", store: SecureStorage(service: "com.acme.app"), sensitivity: .secret)
        var apiKey: String?
        @SecureSetting("limits", store: SecureStorage(service: "com.acme.app"), sensitivity: .private)
        var limits: [Int]?
    }

    func testPropertyWrapper() throws {
        let settings = Settings()
        XCTAssertNil(settings.apiKey)
        settings.apiKey = "sk-123"
        settings.limits = [1, 2]
        XCTAssertEqual(settings.apiKey, "sk-123")
        XCTAssertEqual(settings.limits, [1, 2])
        XCTAssertEqual(try storage.string(for: "api.key"), "sk-123")
        XCTAssertEqual(try settings.$apiKey.read(), "sk-123")
        XCTAssertNil(settings.$apiKey.lastError)

        // A write that fails (locked) keeps the old value and reports the error.
        try lockWithPassphrase()
        settings.apiKey = "sk-456"
        XCTAssertEqual(settings.$apiKey.lastError, .locked)
        XCTAssertStorageError(.locked, try settings.$apiKey.write("sk-456"))
        XCTAssertEqual(settings.limits, [1, 2], "private settings stay readable while locked")
        try unlock()
        XCTAssertEqual(settings.apiKey, "sk-123")

        settings.apiKey = nil
        XCTAssertNil(try storage.string(for: "api.key"), "nil deletes")
    }
}
#endif
