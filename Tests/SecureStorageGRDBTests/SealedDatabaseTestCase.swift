#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import GRDB
@_spi(Testing) import KeychainCore
import KeychainServices
import SecureStorage
import SecureStorageGRDB
import XCTest

/// A note: the body is sealed.
struct Note: Codable, Equatable, SealedRecord {
    static let sealedColumns: [SealedColumn] = [.sealed("body")]
    var id: Int64?
    var title: String
    var body: String

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A contact with a text primary key, a searchable sealed e-mail address and sealed values of
/// every SQLite type.
struct Contact: Codable, Equatable, SealedRecord {
    static let sealedColumns: [SealedColumn] = [
        .sealed("email", blindIndex: "emailIndex", normalization: .caseInsensitive), .sealed("age"), .sealed("score"),
        .sealed("avatar")
    ]
    var id: String
    var email: String
    var age: Int
    var score: Double?
    var avatar: Data?
}

/// A fresh keychain behind the SecItem API and a fresh database with the notes and contacts tables.
class SealedDatabaseTestCase: XCTestCase {
    var directory: URL!
    var keychain: Keychain!
    var storage: SecureStorage!
    var database: DatabaseQueue!
    var databasePath: String { directory.appendingPathComponent("app.sqlite").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        keychain = try Keychain(
            location: KeychainLocation(directory: directory.appendingPathComponent("keychain")),
            options: KeychainOptions(passphraseHardening: .fixed(.insecureForTestingOnly), tpm: nil))
        SecItemEnvironment.useKeychain(keychain)
        SecItemEnvironment.applicationIdentity = ApplicationIdentity(
            applicationIdentifier: "TEAM.com.acme.notes", accessGroups: [])
        storage = SecureStorage(service: "com.acme.notes")
        database = try DatabaseQueue(path: databasePath)
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body BLOB NOT NULL);
                    CREATE TABLE contact (id TEXT PRIMARY KEY NOT NULL, email BLOB NOT NULL, emailIndex BLOB NOT NULL,
                                          age BLOB NOT NULL, score BLOB, avatar BLOB);
                    CREATE INDEX contact_email ON contact(emailIndex);
                    """)
        }
    }

    override func tearDownWithError() throws {
        database = nil
        SecItemEnvironment.reset()
        keychain = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Drops the triggers with which the sealer makes SQLite refuse unsealed values: what an
    /// attacker who writes the file does first, before editing sealed cells (which the sealer
    /// must then still catch when it reads them).
    func dropWriteGuards() throws {
        try database.write { db in
            for name in try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'secure_storage_sealed_%'"
            ) {
                try db.execute(sql: "DROP TRIGGER \(name.quotedDatabaseIdentifier)")
            }
        }
    }

    /// Every byte of the database files (main file, WAL, journal).
    func databaseBytes() throws -> Data {
        var bytes = Data()
        for suffix in ["", "-wal", "-journal", "-shm"]
        where FileManager.default.fileExists(atPath: databasePath + suffix) {
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: databasePath + suffix)))
        }
        return bytes
    }
}

func XCTAssertSealedError<T>(
    _ code: SealedDatabaseError.Code, _ body: @autoclosure () throws -> T, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
        XCTAssertEqual((error as? SealedDatabaseError)?.code, code, "\(message) \(error)", file: file, line: line)
    }
}
#endif
