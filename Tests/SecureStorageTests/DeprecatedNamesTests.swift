#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// The names that 0.9.0 had and later versions deprecate keep working as before: the seeds'
/// `storeSecret`/`readSecret`/`deleteSecret` forward to `set`/`data`/`removeValue`.
final class DeprecatedNamesTests: StorageTestCase {
    @available(*, deprecated, message: "Exercises the deprecated names on purpose.")
    func testDeprecatedNamesForwardToTheirReplacements() throws {
        try storage.storeSecret(Data("token-1".utf8), for: "auth.token")
        XCTAssertEqual(try storage.data(for: "auth.token"), Data("token-1".utf8))
        XCTAssertEqual(try storage.readSecret(for: "auth.token"), Data("token-1".utf8))
        XCTAssertTrue(try storage.deleteSecret(for: "auth.token"))
        XCTAssertFalse(try storage.deleteSecret(for: "auth.token"))
        XCTAssertStorageError(.notFound, try storage.readSecret(for: "auth.token"), "readSecret still throws .notFound for a missing value")
    }
}
#endif
