import Foundation
import GRDB

/// The single `vault_header` row: the keychain's identity, format, passphrase parameters and
/// unlock-session record. ``HeaderAuthenticator`` MACs all of it together with the keybag.
struct VaultHeader: Sendable, Equatable {
    var formatVersion: Int
    var vaultID: UUID
    /// Bumped by every keybag change (passphrase set, changed or removed, which rotate the class
    /// keys), so other open instances notice and reload.
    var keybagGeneration: Int64
    /// The scrypt salt and parameters; `nil` when no passphrase is set.
    var passphrase: (salt: Data, parameters: ScryptParameters)?
    /// The unlock session that later processes may resume; `nil` when there is none.
    var session: UnlockSessionRecord?

    var hasPassphrase: Bool { passphrase != nil }

    /// Equal keybag states: format, vault, generation and passphrase (the unlock session is not
    /// part of it; a passphrase change compares keybag states to detect concurrent changes).
    static func == (lhs: VaultHeader, rhs: VaultHeader) -> Bool {
        lhs.formatVersion == rhs.formatVersion && lhs.vaultID == rhs.vaultID
            && lhs.keybagGeneration == rhs.keybagGeneration
            && lhs.passphrase?.salt == rhs.passphrase?.salt && lhs.passphrase?.parameters == rhs.passphrase?.parameters
    }

    static func fetch(_ db: Database) throws -> VaultHeader? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM vault_header WHERE id = 1")) else {
            return nil
        }
        func column<Value: DatabaseValueConvertible>(_ name: String) throws -> Value {
            try row.checked(name, in: "vault_header")
        }
        guard let vaultID = UUID(bytes: try column("vault_id")) else {
            throw KeychainError.tamperedHeaderVaultID()
        }
        var header = VaultHeader(
            formatVersion: try column("format_version"), vaultID: vaultID,
            keybagGeneration: try column("keybag_generation"), passphrase: nil)
        if let salt: Data = try column("scrypt_salt") {
            header.passphrase = (
                salt,
                ScryptParameters(
                    logN: try column("scrypt_log_n"), blockSize: try column("scrypt_block_size"),
                    parallelism: try column("scrypt_parallelism"))
            )
        }
        // Format 4 columns; a keychain being upgraded does not have them yet.
        if row.hasColumn("session_id"), let id: Data = try column("session_id") {
            header.session = UnlockSessionRecord(id: id, sealedKEK: try column("session_kek"))
        }
        return header
    }

    /// The keybag generation alone: the cheap check every transaction makes.
    static func fetchGeneration(_ db: Database) throws -> Int64? {
        try db.cachedStatement(sql: "SELECT keybag_generation FROM vault_header WHERE id = 1").steppedInteger()
    }

    func insert(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO vault_header (id, format_version, vault_id, keybag_generation, created_at)
                VALUES (1, ?, ?, ?, ?)
                """, arguments: [formatVersion, vaultID.bytes, keybagGeneration, Date().timeIntervalSince1970])
        try updateKeybagState(db)
    }

    /// Writes the passphrase parameters, the generation and the unlock session (the caller
    /// stores the new header MAC in the same transaction).
    func updateKeybagState(_ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE vault_header SET keybag_generation = ?, scrypt_salt = ?, scrypt_log_n = ?,
                  scrypt_block_size = ?, scrypt_parallelism = ?, session_id = ?, session_kek = ? WHERE id = 1
                """,
            arguments: [
                keybagGeneration, passphrase?.salt, passphrase?.parameters.logN,
                passphrase?.parameters.blockSize, passphrase?.parameters.parallelism,
                session?.id, session?.sealedKEK
            ])
    }
}

/// The file's half of an unlock session: a random session id and the user-tier KEK sealed under
/// the random session key that only the session's ticket holds. Locking removes it, which voids
/// every copy of the ticket.
struct UnlockSessionRecord: Sendable, Equatable {
    var id: Data
    var sealedKEK: Data
}
