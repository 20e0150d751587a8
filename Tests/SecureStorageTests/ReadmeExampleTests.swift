#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
// Tests of the Linux implementation (SecItemEnvironment, KeychainCore); on Apple platforms the
// SecItem calls go to the real Keychain, which a test bundle cannot use without entitlements.
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// The snippets of the README's five-minute tour and of the Getting Started article, run as
/// written, so the documentation cannot drift from the API.
final class ReadmeExampleTests: StorageTestCase {
    struct Profile: Codable, Equatable {
        var id: Int
        var scopes: [String]
    }

    func testFiveMinuteTour() throws {
        let apiKey = "key-123"
        let refreshToken = "refresh-456"

        try storage.set(Data(apiKey.utf8), for: "api.key")
        try storage.set(refreshToken, for: "auth.refresh", sensitivity: .private)
        try storage.set(Profile(id: 7, scopes: ["read"]), for: "profile")
        try storage.set(true, for: "onboarded", sensitivity: .public)

        let key = try storage.data(for: "api.key")
        let refresh = try storage.string(for: "auth.refresh")
        let profile = try storage.value(Profile.self, for: "profile")
        let onboarded = try storage["onboarded", as: Bool.self]
        let keys = try storage.allKeys()
        XCTAssertEqual(key, Data(apiKey.utf8))
        XCTAssertEqual(refresh, refreshToken)
        XCTAssertEqual(profile, Profile(id: 7, scopes: ["read"]))
        XCTAssertEqual(onboarded, true)
        XCTAssertEqual(keys, ["api.key", "auth.refresh", "profile", "onboarded"])
        XCTAssertEqual(try storage.protection(of: "api.key"), .whenUnlockedThisDeviceOnly)
        XCTAssertEqual(try storage.protection(of: "auth.refresh"), .afterFirstUnlockThisDeviceOnly)
        XCTAssertEqual(try storage.protection(of: "onboarded"), .afterFirstUnlock)

        XCTAssertTrue(try storage.removeValue(for: "api.key"))
        try storage.removeAll()
        XCTAssertEqual(try storage.allKeys(), [])
    }

    /// Getting Started's `passcodeFallback` and `insert` calls, as the article writes them.
    func testGettingStartedsFallbackAndInsert() throws {
        let storage = SecureStorage(service: "com.acme.app", passcodeFallback: .storeAsSecret)
        XCTAssertEqual(storage.passcodeFallback, .storeAsSecret)
        let deviceID = UUID().uuidString
        try self.storage.insert(deviceID, for: "device.id")
        XCTAssertThrowsError(try self.storage.insert("another", for: "device.id")) { error in
            XCTAssertEqual((error as? SecureStorageError)?.code, .duplicate)
        }
        XCTAssertEqual(try self.storage.string(for: "device.id"), deviceID, "the stored value is left as it was")
    }

    func testVolatileTour() throws {
        let otpSeed = Data([1, 2, 3])
        let session = VolatileSecureStorage(persistingTo: storage)
        try session.set(otpSeed, for: "otp.seed")
        try session.persist()
        XCTAssertEqual(try storage.data(for: "otp.seed"), otpSeed)
        session.clear()
        XCTAssertEqual(try session.load(), 1)
        XCTAssertEqual(try session.value(Data.self, for: "otp.seed"), otpSeed)
    }
}
#endif
