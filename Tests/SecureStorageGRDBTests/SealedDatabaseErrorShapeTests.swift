#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import XCTest
@testable import SecureStorageGRDB

/// SealedDatabaseError's codes are extensible (issue 36): a `catch` on a code matches, and a code
/// a later version adds still describes itself.
final class SealedDatabaseErrorShapeTests: XCTestCase {
    func testCatchOnACode() {
        var caught: String?
        do {
            _ = try DatabaseSealer(key: SymmetricKey(size: .bits128))
        } catch SealedDatabaseError.Code.wrongKey {
            caught = "wrong key"
        } catch SealedDatabaseError.Code.invalidKey {
            caught = "invalid key"
        } catch {
            caught = "other: \(error)"
        }
        XCTAssertEqual(caught, "invalid key")
    }

    func testFactoriesKeepTheWordingAndAnUnknownCodeDescribesItself() {
        XCTAssertEqual(
            SealedDatabaseError.tamperedValue(table: "notes", column: "body").description,
            "A sealed value in notes.body does not open in its row: it was modified, or copied from another row, column or database. It was not returned; restore the row from a backup or write it again."
        )
        XCTAssertEqual(SealedDatabaseError.unsupportedTable("notes").code, .unsupportedTable)
        let future = SealedDatabaseError(.init(rawValue: "keyRevoked"), table: "notes", column: "body")
        XCTAssertEqual(future.code.description, "keyRevoked")
        XCTAssertTrue(future.description.contains("notes.body"), future.description)
        XCTAssertTrue(future.description.contains("keyRevoked"), future.description)
        XCTAssertTrue(SealedDatabaseError.Code(rawValue: "keyRevoked") ~= future)
        XCTAssertFalse(SealedDatabaseError.Code.wrongKey ~= future)
    }
}
#endif
