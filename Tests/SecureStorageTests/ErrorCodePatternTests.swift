import KeychainServices
import SecureStorage
import XCTest

/// Every error type of the package matches in a `catch` by its code (`catch MigrationError.Code.fileError`,
/// whatever the message) or, for SecureStorageError, by its ready-made values
/// (`catch SecureStorageError.notFound`; a second pattern on its code would make `catch .notFound`
/// ambiguous in typed-throws code), and a code of a later version still matches by name
/// (KeychainCore's ErrorShapeTests, KeychainSync's SyncErrorShapeTests and SecureStorageGRDB's
/// SealedDatabaseErrorShapeTests check the others).
final class ErrorCodePatternTests: XCTestCase {
    private struct OtherError: Error {}

    /// Throws `error` from a call whose error type is erased, as a `do` block mixing calls would.
    private func rethrow(_ error: any Error) throws { throw error }

    func testSecureStorageErrorMatchesByValue() {
        do {
            try rethrow(SecureStorageError.notFound)
            XCTFail("nothing was thrown")
        } catch SecureStorageError.locked {
            XCTFail("another error matched")
        } catch SecureStorageError.notFound {
        } catch {
            XCTFail("not matched: \(error)")
        }
        XCTAssertFalse(SecureStorageError.notFound ~= OtherError())
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
        let later = MigrationError.Code(rawValue: "quotaExceeded")
        XCTAssertEqual(later, MigrationError.Code(rawValue: "quotaExceeded"))
        XCTAssertFalse(later ~= MigrationError.fileError(file: "a.env", reason: "one"))
        XCTAssertTrue(
            MigrationError.Code(rawValue: "fileError") ~= MigrationError.fileError(file: "a.env", reason: "one"))
    }
}
