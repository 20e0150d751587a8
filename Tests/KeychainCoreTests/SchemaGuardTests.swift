import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// The exact-schema check's shortcut for keychains in the current format.
final class SchemaGuardTests: XCTestCase {
    /// The fingerprint written into the source is the one the migrations produce: a migration
    /// added or changed without updating it fails here (and only the slow path would then accept
    /// current keychains).
    func testTheCurrentSchemaFingerprintIsTheMigrationsOwn() throws {
        let current = try XCTUnwrap(SchemaGuard.expectedSchemas.last)
        XCTAssertEqual(SchemaGuard.fingerprint(of: current), SchemaGuard.currentSchemaFingerprint)
    }

    /// Any difference changes the fingerprint: an extra trigger, a changed SQL text, a renamed
    /// table, a NULL where SQL text was.
    func testTheFingerprintTellsEveryChange() throws {
        let current = try XCTUnwrap(SchemaGuard.expectedSchemas.last)
        let table = try XCTUnwrap(current.first { $0.type == "table" && $0.sql != nil })
        var changes: [Set<SchemaObject>] = []
        changes.append(
            current.union([SchemaObject(type: "trigger", name: "t", table: table.table, sql: "CREATE TRIGGER t …")]))
        var altered = table
        altered.sql = table.sql.map { $0 + " " }
        changes.append(current.subtracting([table]).union([altered]))
        altered = table
        altered.name += "x"
        changes.append(current.subtracting([table]).union([altered]))
        altered = table
        altered.sql = nil
        changes.append(current.subtracting([table]).union([altered]))
        changes.append(current.subtracting([table]))
        for changed in changes {
            XCTAssertNotEqual(SchemaGuard.fingerprint(of: changed), SchemaGuard.currentSchemaFingerprint)
        }
    }

    /// A current-format file whose records disagree with its schema still takes the full check.
    func testACurrentSchemaWithOtherRecordsIsRefused() throws {
        let test = try TestKeychain()
        try test.tamper { db in
            try db.execute(
                sql: "DELETE FROM grdb_migrations WHERE identifier = (SELECT MAX(identifier) FROM grdb_migrations)")
        }
        XCTAssertKeychainError(.integrityViolation, try test.openAnother())
    }
}

private typealias SchemaObject = SchemaGuard.SchemaObject
