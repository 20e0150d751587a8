#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// Typed accessors, subscripts, contains, allKeys, removeAll, and wrong-type reads.
final class TypedValueTests: StorageTestCase {
    struct Address: Codable, Equatable {
        var street: String
        var zip: Int
    }
    struct Profile: Codable, Equatable {
        var name: String
        var addresses: [Address]
        var tags: Set<String>
        var limits: [String: Double]
        var expires: Date
        var nickname: String?
    }

    func testSetReadRemovePair() throws {
        try storage.set(Data("token-1".utf8), for: "auth.token")
        XCTAssertEqual(try storage.data(for: "auth.token"), Data("token-1".utf8))
        try storage.set(Data("token-2".utf8), for: "auth.token")
        XCTAssertEqual(try storage.data(for: "auth.token"), Data("token-2".utf8), "store replaces")
        XCTAssertTrue(try storage.removeValue(for: "auth.token"))
        XCTAssertFalse(try storage.removeValue(for: "auth.token"))
        XCTAssertNil(try storage.data(for: "auth.token"))
    }

    func testTypedRoundTrips() throws {
        try storage.set("alice@example.com", for: "user")
        try storage.set(true, for: "flag")
        try storage.set(42, for: "count")
        try storage.set(2.5, for: "ratio")
        try storage.set(Data([0, 1, 255]), for: "blob")
        XCTAssertEqual(try storage.string(for: "user"), "alice@example.com")
        XCTAssertEqual(try storage.bool(for: "flag"), true)
        XCTAssertEqual(try storage.integer(for: "count"), 42)
        XCTAssertEqual(try storage.double(for: "ratio"), 2.5)
        XCTAssertEqual(try storage.value(Data.self, for: "blob"), Data([0, 1, 255]))
        XCTAssertEqual(try storage[string: "user"], "alice@example.com")
        XCTAssertEqual(try storage["user"], Data("alice@example.com".utf8))
        XCTAssertNil(try storage["missing"])
        XCTAssertNil(try storage.string(for: "missing"))
    }

    func testNestedCodableRoundTrip() throws {
        let profile = Profile(
            name: "Ålice 👩‍💻", addresses: [Address(street: "Main 1", zip: 12345), Address(street: "Side 2", zip: 1)],
            tags: ["a", "b"], limits: ["daily": 1000.5], expires: Date(timeIntervalSince1970: 1_900_000_000),
            nickname: nil)
        try storage.set(profile, for: "profile", sensitivity: .private)
        XCTAssertEqual(try storage.value(Profile.self, for: "profile"), profile)
        XCTAssertEqual(try storage["profile", as: Profile.self], profile)
        XCTAssertStorageError(.decodingFailed(type: "Int"), try storage["profile", as: Int.self])
        XCTAssertEqual(try storage.value([Address].self, for: "missing"), nil)
    }

    func testWrongTypeReadsFailWithDecodingFailed() throws {
        try storage.set("not a number", for: "text")
        try storage.set(42, for: "number")
        try storage.set(Data([0xFF, 0xFE]), for: "bytes")
        XCTAssertStorageError(.decodingFailed(type: "Int"), try storage.integer(for: "text"))
        XCTAssertStorageError(
            .decodingFailed(type: "String"), try storage.string(for: "number"), "a JSON number is not a string")
        XCTAssertStorageError(
            .decodingFailed(type: "String"), try storage.string(for: "bytes"), "bytes that are not UTF-8")
        XCTAssertStorageError(.decodingFailed(type: "Profile"), try storage.value(Profile.self, for: "number"))
        XCTAssertEqual(try storage.data(for: "number"), Data("42".utf8), "raw bytes are always readable")
        try storage.set(Data("utf8 text".utf8), for: "utf8")
        XCTAssertEqual(try storage.string(for: "utf8"), "utf8 text")
    }

    func testContainsAllKeysRemoveAllAndServiceScope() throws {
        let other = SecureStorage(service: "com.acme.other")
        try storage.set("1", for: "b")
        try storage.set("2", for: "a")
        try other.set("3", for: "a")
        XCTAssertTrue(try storage.contains("a"))
        XCTAssertFalse(try storage.contains("zzz"))
        XCTAssertEqual(try storage.allKeys(), ["b", "a"], "insertion order, this service only")
        try storage.removeAll()
        XCTAssertEqual(try storage.allKeys(), [])
        try storage.removeAll()
        XCTAssertEqual(try other.string(for: "a"), "3", "other services are untouched")
    }

    func testInsertOnlyReportsDuplicate() throws {
        try storage.insert(StoredValue(data: Data("v".utf8), kind: .data), for: "k", sensitivity: nil)
        XCTAssertStorageError(
            .duplicate, try storage.insert(StoredValue(data: Data("w".utf8), kind: .data), for: "k", sensitivity: nil))
        XCTAssertEqual(try storage.data(for: "k"), Data("v".utf8))
    }

    func testValuesWrittenByOtherCodeAreReadable() throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.acme.app",
            kSecAttrAccount as String: "legacy", kSecValueData as String: Data("plain".utf8)
        ]
        XCTAssertEqual(SecItemAdd(query as CFDictionary, nil), errSecSuccess)
        XCTAssertEqual(try storage.string(for: "legacy"), "plain")
        XCTAssertEqual(try storage.data(for: "legacy"), Data("plain".utf8))
    }

    func testDescriptionsNeverShowValues() throws {
        try storage.set("SUPERSECRETVALUE", for: "k")
        XCTAssertFalse("\(storage!)".contains("SUPERSECRETVALUE"))
        let stored = try XCTUnwrap(storage.storedValue(for: "k"))
        XCTAssertFalse("\(stored)".contains("SUPERSECRETVALUE"))
        XCTAssertFalse(String(reflecting: stored).contains("SUPERSECRETVALUE"))
        var dumped = ""
        dump(stored, to: &dumped)
        XCTAssertFalse(dumped.contains("83"), "dump shows no bytes: \(dumped)")  // 0x53 'S' as a byte
        XCTAssertTrue(dumped.contains("byteCount"))
        let actions = ["Retry", "Store", "Read", "Ask", "Use", "Add", "Delete", "Look up"]
        for error in [
            SecureStorageError.notFound, .locked, .authenticationFailed, .passcodeRequired, .duplicate,
            .missingEntitlement, .integrityViolation, .decodingFailed(type: "Int"), .encodingFailed(type: "Double"),
            .underlying(-50)
        ] {
            XCTAssertTrue(actions.contains { error.description.contains($0) }, "says what to do: \(error.description)")
            XCTAssertNotNil(error.errorDescription)
        }
        XCTAssertFalse(SecureStorageError.underlying(-50).description.contains(".."))
        XCTAssertStorageError(.encodingFailed(type: "Double"), try storage.set(Double.nan, for: "nan"))
        XCTAssertFalse(try storage.contains("nan"), "nothing stored")
    }

    func testMissingEntitlementForAnAccessGroup() throws {
        let shared = SecureStorage(service: "s", accessGroup: "OTHER.group")
        XCTAssertStorageError(.missingEntitlement, try shared.set("v", for: "k"))
        let entitled = SecureStorage(service: "s", accessGroup: "TEAM.com.acme.shared")
        try entitled.set("v", for: "k")
        XCTAssertEqual(try entitled.string(for: "k"), "v")
    }

    func testErrorMapping() {
        XCTAssertEqual(SecureStorageError(status: errSecItemNotFound), .notFound)
        XCTAssertEqual(SecureStorageError(status: errSecInteractionNotAllowed), .locked)
        XCTAssertEqual(SecureStorageError(status: errSecAuthFailed), .authenticationFailed)
        XCTAssertEqual(SecureStorageError(status: errSecDuplicateItem), .duplicate)
        XCTAssertEqual(SecureStorageError(status: errSecMissingEntitlement), .missingEntitlement)
        XCTAssertEqual(SecureStorageError(status: errSecDecode), .integrityViolation)
        XCTAssertEqual(SecureStorageError(status: errSecParam), .underlying(errSecParam))
        XCTAssertNil(SecureStorageError(status: errSecSuccess))
        XCTAssertEqual(SecureStorageError.locked.status, errSecInteractionNotAllowed)
    }
}
#endif
