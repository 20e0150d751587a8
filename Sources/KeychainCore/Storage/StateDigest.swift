import Crypto
import Foundation
import GRDB

/// Tamper evidence beyond single rows (design brief §5.12): the XOR of a keyed fingerprint of
/// every `items` row, with a change counter, kept in the header under a MAC and updated in the
/// same transaction as every write. Deleting a row, replaying an old version of one, adding one
/// or truncating the table changes what ``Keychain/verify(progress:)`` recomputes, so it reports
/// the mismatch. Restoring a complete older copy of the file (header included) cannot be told
/// apart without an anchor outside the file.
///
/// The key is derived from the device key, so the check works in every lock state.
struct StateDigest {
    let key: SymmetricKey
    let vaultID: UUID

    init(deviceKey: SymmetricKey, vaultID: UUID) {
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: deviceKey, salt: vaultID.bytes, info: Data("sv1/state-digest".utf8), outputByteCount: 32)
        self.vaultID = vaultID
    }

    /// The fingerprint of a row as stored: an HMAC over every column, its id included.
    func fingerprint(_ row: Row) -> [UInt8] {
        var mac = HMAC<SHA256>(key: key)
        for value in row.databaseValues {
            switch value.storage {
            case .null: mac.update(data: [0])
            case .int64(let number): mac.update(data: [1] + withUnsafeBytes(of: number.bigEndian, Array.init))
            case .double(let number): mac.update(data: [2] + withUnsafeBytes(of: number.bitPattern.bigEndian, Array.init))
            case .string(let text): mac.update(data: [3] + withUnsafeBytes(of: UInt32(text.utf8.count).bigEndian, Array.init) + Array(text.utf8))
            case .blob(let bytes): mac.update(data: [4] + withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init) + Array(bytes))
            }
        }
        return Array(mac.finalize())
    }

    /// The fingerprint of the row with `id` as it is now, or zeros when there is none.
    func fingerprint(rowID id: Int64, _ db: Database) throws -> [UInt8] {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(ItemRow.columns) FROM items WHERE id = ?"), arguments: [id]) else {
            return Self.zero
        }
        return fingerprint(row)
    }

    static let zero = [UInt8](repeating: 0, count: 32)

    static func xor(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] { zip(lhs, rhs).map { $0 ^ $1 } }

    func mac(counter: Int64, digest: [UInt8]) -> Data {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Data("SV1S".utf8) + vaultID.bytes)
        mac.update(data: withUnsafeBytes(of: counter.bigEndian, Array.init))
        mac.update(data: digest)
        return Data(mac.finalize())
    }

    /// The recorded state: counter, digest, and whether its MAC holds (`nil` before the first record).
    func recorded(_ db: Database) throws -> (counter: Int64, digest: [UInt8], authentic: Bool)? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT state_counter, state_digest, state_mac FROM vault_header WHERE id = 1")),
              let digest: Data = try row.checked(1, "state_digest", in: "vault_header"),
              let mac: Data = try row.checked(2, "state_mac", in: "vault_header") else { return nil }
        let counter: Int64 = try row.checked(0, "state_counter", in: "vault_header")
        return (counter, Array(digest), digest.count == 32 && self.mac(counter: counter, digest: Array(digest)) == mac)
    }

    /// Folds a change into the recorded state (the XOR of the fingerprints removed and added).
    /// A state whose MAC does not hold is left as it is, so `verify` keeps reporting the tampering.
    func record(_ change: [UInt8], _ db: Database) throws {
        guard let (counter, digest, authentic) = try recorded(db) else { return try initialize(db) }
        guard authentic else { return }
        let next = Self.xor(digest, change)
        try db.cachedStatement(sql: "UPDATE vault_header SET state_counter = ?, state_digest = ?, state_mac = ? WHERE id = 1")
            .execute(arguments: [counter + 1, Data(next), mac(counter: counter + 1, digest: next)])
    }

    /// Records the state of the rows as they are (a new keychain, or one written before the digest existed).
    func initialize(_ db: Database) throws {
        var digest = Self.zero
        let rows = try Row.fetchCursor(db, sql: "SELECT \(ItemRow.columns) FROM items")
        while let row = try rows.next() { digest = Self.xor(digest, fingerprint(row)) }
        try db.execute(sql: "UPDATE vault_header SET state_counter = 0, state_digest = ?, state_mac = ? WHERE id = 1",
                       arguments: [Data(digest), mac(counter: 0, digest: digest)])
    }
}
