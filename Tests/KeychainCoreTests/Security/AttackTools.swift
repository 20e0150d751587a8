import Crypto
import Foundation
import GRDB
import XCTest
@testable import KeychainCore

/// What an attacker with the files does, in SQL and with copies.
extension TestKeychain {
    /// A copy of the database as it is now (checkpointed first, so one file holds everything).
    func snapshot() throws -> URL {
        keychain.checkpoint()
        let copy = directory.appendingPathComponent("snapshot-\(UUID().uuidString).db")
        try FileManager.default.copyItem(at: location.databaseURL, to: copy)
        return copy
    }

    /// The device key, as someone who can read the state directory has it.
    func stolenDeviceKey() throws -> SymmetricKey {
        try DeviceKeyFile.load(at: location.deviceKeyURL, mayCreate: false, options: KeychainOptions(tpm: nil)).0
    }

    /// Recomputes the header MAC of the file as it now is, as only a holder of the device key can.
    func forgeHeaderMAC(_ db: Database) throws {
        guard let header = try VaultHeader.fetch(db) else { return XCTFail("no header") }
        try HeaderAuthenticator(deviceKey: stolenDeviceKey(), vaultID: header.vaultID).store(
            header, keybag: KeyRing.fetchKeybag(db), db)
    }

    /// Rewrites the format anchor to accept the header MAC the file now carries, as only a holder
    /// of the device key who can also write the state directory can.
    func forgeAnchor() throws {
        var headerMAC: Data?
        try tamper { db in headerMAC = try HeaderAuthenticator.storedCode(db) }
        try FormatAnchor(
            vaultID: keychain.vaultID, formatVersion: KeychainSchema.formatVersion, headerMACs: [XCTUnwrap(headerMAC)]
        )
        .write(for: location, deviceKey: stolenDeviceKey())
    }

    /// Puts back the header row (generation, passphrase, session and header MAC) and the keybag
    /// of `old`, as they were: no key needed.
    func restoreHeaderAndKeybag(from old: URL) throws {
        try tamper { db in
            try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [old.path])
            try db.execute(
                sql: """
                    DELETE FROM main.keybag; INSERT INTO main.keybag SELECT * FROM old.keybag;
                    UPDATE main.vault_header SET (keybag_generation, scrypt_salt, scrypt_log_n, scrypt_block_size, scrypt_parallelism,
                      session_id, session_kek, header_mac) = (SELECT keybag_generation, scrypt_salt, scrypt_log_n, scrypt_block_size,
                      scrypt_parallelism, session_id, session_kek, header_mac FROM old.vault_header);
                    """)
            try db.execute(sql: "DETACH DATABASE old")
        }
    }

    /// Replaces the keybag and the passphrase columns of the live file with those of `old`.
    func spliceKeybagAndPassphrase(from old: URL, forgingMAC: Bool) throws {
        try tamper { db in
            try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [old.path])
            try db.execute(
                sql: """
                    DELETE FROM main.keybag; INSERT INTO main.keybag SELECT * FROM old.keybag;
                    UPDATE main.vault_header SET (scrypt_salt, scrypt_log_n, scrypt_block_size, scrypt_parallelism) =
                      (SELECT scrypt_salt, scrypt_log_n, scrypt_block_size, scrypt_parallelism FROM old.vault_header);
                    """)
            try db.execute(sql: "DETACH DATABASE old")
            if forgingMAC { try forgeHeaderMAC(db) }
        }
    }
}

/// Asserts that `body` throws a ``KeychainError`` with `code` whose text reveals none of `secrets`.
func XCTAssertKeychainError<T>(
    _ code: KeychainError.Code, revealing secrets: [String], _ body: @autoclosure () throws -> T,
    _ message: String = "", file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try body(), message, file: file, line: line) { error in
        XCTAssertEqual((error as? KeychainError)?.code, code, "\(message): \(error)", file: file, line: line)
        for secret in secrets {
            XCTAssertFalse(
                "\(error)".contains(secret), "\(message): the error reveals \(secret)", file: file, line: line)
        }
    }
}
