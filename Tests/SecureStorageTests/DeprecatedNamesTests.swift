#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// The names that 0.9.0 had and later versions deprecate keep working as before: the seeds'
/// `storeSecret`/`readSecret`/`deleteSecret` forward to `set`/`data`/`removeValue`, and `store`
/// (before 1.0 the name of the `StoredValue` primitive) to `set`.
final class DeprecatedNamesTests: StorageTestCase {
    @available(*, deprecated, message: "Exercises the deprecated names on purpose.")
    func testDeprecatedNamesForwardToTheirReplacements() throws {
        try storage.storeSecret(Data("token-1".utf8), for: "auth.token")
        XCTAssertEqual(try storage.data(for: "auth.token"), Data("token-1".utf8))
        XCTAssertEqual(try storage.readSecret(for: "auth.token"), Data("token-1".utf8))
        XCTAssertTrue(try storage.deleteSecret(for: "auth.token"))
        XCTAssertFalse(try storage.deleteSecret(for: "auth.token"))
        XCTAssertStorageError(
            .notFound, try storage.readSecret(for: "auth.token"),
            "readSecret still throws .notFound for a missing value")
    }

    /// `store(_:for:sensitivity:)`, the former name of the `StoredValue` primitive, forwards to
    /// `set(_:for:sensitivity:)` on both stores.
    @available(*, deprecated, message: "Exercises the deprecated names on purpose.")
    func testStoreForwardsToSet() throws {
        let value = StoredValue(data: Data("token-2".utf8), kind: .string)
        try storage.store(value, for: "auth.token", sensitivity: .private)
        XCTAssertEqual(try storage.storedValue(for: "auth.token"), value)
        XCTAssertEqual(try storage.protection(of: "auth.token"), Sensitivity.private.protection)
        let volatile = VolatileSecureStorage()
        try volatile.store(value, for: "auth.token", sensitivity: nil)
        XCTAssertEqual(try volatile.storedValue(for: "auth.token"), value)
    }
}
#endif
