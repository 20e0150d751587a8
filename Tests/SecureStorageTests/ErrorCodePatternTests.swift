import KeychainServices
import SecureStorage
import XCTest

/// Every error type of the package matches by code in a `catch`, whatever the message or the
/// other values it carries (`catch SecureStorageError.Code.notFound`), and a code of a later
/// version still matches by name: the one error shape (KeychainCore's ErrorShapeTests, KeychainSync's
/// SyncErrorShapeTests and SecureStorageGRDB's SealedDatabaseErrorShapeTests check the others).
final class ErrorCodePatternTests: XCTestCase {
    private struct OtherError: Error {}

    /// Throws `error` from a call whose error type is erased, as a `do` block mixing calls would.
    private func rethrow(_ error: any Error) throws { throw error }

    func testSecureStorageErrorMatchesByCode() {
        do {
            try rethrow(SecureStorageError.notFound)
            XCTFail("nothing was thrown")
        } catch SecureStorageError.Code.locked {
            XCTFail("another code matched")
        } catch SecureStorageError.Code.notFound {
        } catch {
            XCTFail("not matched by its code: \(error)")
        }
        XCTAssertFalse(SecureStorageError.Code.notFound ~= OtherError())
    }

    func testMigrationErrorMatchesByCodeWhateverItsMessage() {
        for error in [MigrationError.fileError(file: "a.env", reason: "one"), .fileError(file: "b.env", reason: "two")]
        {
            do {
                try rethrow(error)
            } catch MigrationError.Code.conflict {
                XCTFail("another code matched")
            } catch MigrationError.Code.fileError {
            } catch {
                XCTFail("not matched by its code: \(error)")
            }
        }
        XCTAssertFalse(MigrationError.Code.fileError ~= SecureStorageError.notFound)
    }

    func testACodeOfALaterVersionMatchesOnlyItself() {
        let later = SecureStorageError.Code(rawValue: "quotaExceeded")
        XCTAssertEqual(later, SecureStorageError.Code(rawValue: "quotaExceeded"))
        XCTAssertFalse(later ~= SecureStorageError.notFound)
        XCTAssertTrue(SecureStorageError.Code(rawValue: "notFound") ~= SecureStorageError.notFound)
    }
}
