import Foundation
import GRDB
import XCTest
@_spi(Testing) @testable import KeychainCore

/// A keychain in a fresh temporary directory, removed when the test ends.
/// Passphrases use cheap scrypt parameters so tests stay fast.
final class TestKeychain {
    let directory: URL
    let location: KeychainLocation
    let options: KeychainOptions
    private(set) var keychain: Keychain

    /// - Parameter tpm: the TPM the keychain is bound to; `nil` (the default) for a key file,
    ///   whatever this machine has.
    init(defaultAccessGroup: String = "TEAM.test.app", tpm: TPMDevice? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-test-\(UUID().uuidString)")
        runtimeBase = try Self.makeMemoryBackedDirectory()
        location = KeychainLocation(
            databaseURL: directory.appendingPathComponent("data/keychain.db"),
            deviceKeyURL: directory.appendingPathComponent("state/device.key"),
            runtimeDirectoryURL: runtimeBase.appendingPathComponent("secure-storage"))
        options = KeychainOptions(
            passphraseHardening: .fixed(.insecureForTestingOnly), defaultAccessGroup: defaultAccessGroup, tpm: tpm)
        keychain = try Keychain(location: location, options: options)
    }

    /// A private directory on tmpfs standing in for `$XDG_RUNTIME_DIR` (unlock sessions are kept
    /// only in memory-backed directories).
    let runtimeBase: URL

    static func makeMemoryBackedDirectory() throws -> URL {
        let url = URL(fileURLWithPath: "/dev/shm/kc-test-run-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return url
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: runtimeBase)
    }

    /// Opens another, independent instance on the same files.
    func openAnother() throws -> Keychain { try Keychain(location: location, options: options) }

    /// Replaces the instance with a freshly opened one (as after a restart).
    func reopen() throws { keychain = try openAnother() }

    /// The format anchor beside the device key.
    var anchorURL: URL { FormatAnchor.url(for: location, vaultID: keychain.vaultID) }

    /// Turns the file back into format 1 exactly as an older library wrote it (every later
    /// column and migration record dropped): what a genuine old keychain looks like, and what an
    /// attacker laundering edited rows would produce.
    func downgradeToFormat1() throws {
        try tamper { db in
            try db.execute(
                sql: """
                    ALTER TABLE items DROP COLUMN row_seal; ALTER TABLE vault_header DROP COLUMN session_kek;
                    ALTER TABLE vault_header DROP COLUMN session_id; ALTER TABLE vault_header DROP COLUMN header_mac;
                    ALTER TABLE vault_header DROP COLUMN state_mac; ALTER TABLE vault_header DROP COLUMN state_digest;
                    ALTER TABLE vault_header DROP COLUMN state_counter; UPDATE vault_header SET format_version = 1;
                    DELETE FROM grdb_migrations WHERE identifier <> 'v1';
                    """)
        }
    }

    /// Runs raw SQL on the database file, as an attacker with the file would.
    func tamper(_ body: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: location.databaseURL.path)
        try queue.writeWithoutTransaction { db in try body(db) }
        try queue.close()
    }
}

/// A keychain location in a fresh temporary directory, for tests that open and close their own
/// instances (so that no instance outlives them); remove it when done.
struct ScratchLocation {
    let directory: URL
    let location: KeychainLocation

    init(_ prefix: String) {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        location = KeychainLocation(
            databaseURL: directory.appendingPathComponent("data/keychain.db"),
            deviceKeyURL: directory.appendingPathComponent("state/device.key"))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

extension KeychainOptions {
    /// The same options, opening read-only.
    var readingOnly: KeychainOptions {
        var options = self
        options.readOnly = true
        return options
    }
}

/// Asserts that `body` throws a ``KeychainError`` with `code`.
func XCTAssertKeychainError<T>(
    _ code: KeychainError.Code, _ body: @autoclosure () throws -> T, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
        XCTAssertEqual((error as? KeychainError)?.code, code, "\(message): \(error)", file: file, line: line)
    }
}

func password(
    _ service: String, _ account: String, _ secret: String = "s3cret",
    _ accessibility: Accessibility? = nil, extra: [AttributeKey: AttributeValue] = [:]
) -> NewItem {
    NewItem(
        .genericPassword, attributes: [.service: .string(service), .account: .string(account)].merging(extra) { $1 },
        data: Data(secret.utf8), accessibility: accessibility)
}

func query(_ service: String, _ account: String? = nil, limit: MatchLimit = .all) -> Query {
    var attributes: [AttributeKey: AttributeValue] = [.service: .string(service)]
    if let account { attributes[.account] = .string(account) }
    return Query(.genericPassword, attributes, limit: limit)
}
