#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorage
import XCTest

/// The error types are structs with extensible codes: `catch .locked` and `switch error.code`
/// work as they did with enums, and every error keeps its status and a message.
final class ErrorMatchingTests: StorageTestCase {
    func testCatchByStaticMemberAndSwitchOnCode() throws {
        try storage.set("v1", for: "k", sensitivity: .secret)
        try lockWithPassphrase()
        var caught: String?
        do {
            try storage.set("v2", for: "k")
        } catch .locked {
            caught = "locked"
        } catch {
            caught = "other: \(error)"
        }
        XCTAssertEqual(caught, "locked")
        // In a block whose calls throw other errors too, the type names the member.
        caught = nil
        do {
            _ = try JSONSerialization.data(withJSONObject: ["ok": true])
            try storage.set("v2", for: "k")
        } catch SecureStorageError.locked {
            caught = "locked"
        } catch {
            caught = "other: \(error)"
        }
        XCTAssertEqual(caught, "locked")
        do {
            _ = try storage.string(for: "k")
            XCTFail("a locked read succeeded")
        } catch {
            switch error.code {
            case .locked: XCTAssertEqual(error.status, errSecInteractionNotAllowed)
            default: XCTFail("\(error)")
            }
        }
        try unlock()
        XCTAssertEqual(try storage.string(for: "k"), "v1", "the failed write kept the old value")
    }

    func testCodesStatusesAndMessages() {
        XCTAssertEqual(SecureStorageError(status: errSecItemNotFound), .notFound)
        XCTAssertNil(SecureStorageError(status: errSecSuccess))
        let other = SecureStorageError(status: errSecNotAvailable)
        XCTAssertEqual(other?.code, .underlying)
        XCTAssertEqual(other?.status, errSecNotAvailable)
        XCTAssertTrue(other?.description.contains("\(errSecNotAvailable)") == true, other?.description ?? "")
        XCTAssertEqual(SecureStorageError.passcodeRequired.status, errSecAuthFailed)
        XCTAssertNotEqual(SecureStorageError.passcodeRequired, .authenticationFailed, "same status, different codes")
        let decoding = SecureStorageError.decodingFailed(type: "Profile")
        XCTAssertEqual(decoding.code, .decodingFailed)
        XCTAssertEqual(decoding.typeName, "Profile")
        XCTAssertNil(decoding.status)
        XCTAssertTrue(decoding.description.contains("Profile"))
        XCTAssertEqual(SecureStorageError.Code.locked.rawValue, "locked", "codes keep their names across versions")
    }

    func testMigrationErrorCarriesWhereItHappened() {
        let conflict = MigrationError.conflict(file: ".env", key: "API_TOKEN", account: "API_TOKEN")
        XCTAssertEqual(conflict.code, .conflict)
        XCTAssertEqual(conflict.key, "API_TOKEN")
        XCTAssertEqual(conflict.file, ".env")
        XCTAssertTrue(
            conflict.description.hasPrefix(".env: API_TOKEN would go to the keychain account API_TOKEN"),
            conflict.description)
        let refused = MigrationError.keychain(.locked)
        XCTAssertEqual(refused.keychainError, .locked)
        XCTAssertTrue(MigrationError.keychain(.locked) ~= refused as any Error)
        XCTAssertFalse(MigrationError.keychain(.duplicate) ~= refused as any Error)
        XCTAssertEqual(refused.localizedDescription, refused.description, "LocalizedError gives the message")
        XCTAssertTrue(refused.description.contains("device is locked"), refused.description)
    }
}
#endif
