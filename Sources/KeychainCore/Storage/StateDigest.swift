import Crypto
import Foundation
import GRDB
import SecureStorageFoundation

/// Tamper evidence beyond single rows: the sum (mod 2^256) of a keyed
/// fingerprint of every `items` row — a sum, not a XOR, so two identical rows do not cancel —
/// with a change counter, kept in the header under a MAC and updated in the same transaction as
/// every write. Deleting a row, replaying an old version of one, adding one
/// or truncating the table changes what ``Keychain/verify(progress:)`` recomputes, so it reports
/// the mismatch. Restoring a complete older copy of the file (header included) cannot be told
/// apart without an anchor outside the file, nor can an older `items` table restored together
/// with its older state record; `item_tags` is not covered (verify checks tags of the items it
/// can decrypt).
///
/// The record is created with the keychain, or once when an older keychain is upgraded; a
/// missing record is never recreated afterwards (that would certify tampered rows): `verify`
/// reports it. The key is derived from the device key, so the check works in every lock state.
struct StateDigest: Sendable {
    let vaultID: UUID
    /// HMAC state with the key already absorbed; each MAC copies it (no key schedule per MAC).
    private let keyed: HMAC<SHA256>
    /// The last record this instance wrote or found authentic. A stored record byte-equal to it
    /// is authentic without computing its MAC again: its MAC was computed or checked with this
    /// key over exactly these bytes. Anything else is checked in full.
    private let lastAuthentic = Locked<(counter: Int64, digest: [UInt8], mac: Data)?>(nil)

    init(deviceKey: SymmetricKey, vaultID: UUID) {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: deviceKey, salt: vaultID.bytes, info: Data("sv1/state-digest".utf8), outputByteCount: 32)
        keyed = HMAC(key: key)
        self.vaultID = vaultID
    }

    /// The fingerprint of a row as stored: an HMAC over every column, its id included.
    func fingerprint(_ row: Row) -> [UInt8] {
        fingerprint(values: row.databaseValues)
    }

    /// The fingerprint of a row from its column values in ``ItemRow/columns`` order, as a writer
    /// knows them without reading the row back (``ItemRow/storedValues(rowID:)``).
    func fingerprint(values: some Sequence<DatabaseValue>) -> [UInt8] {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(1024)
        func append<T: FixedWidthInteger>(_ number: T) {
            withUnsafeBytes(of: number.bigEndian) { encoded.append(contentsOf: $0) }
        }
        for value in values {
            switch value.storage {
            case .null: encoded.append(0)
            case .int64(let number):
                encoded.append(1)
                append(number)
            case .double(let number):
                encoded.append(2)
                append(number.bitPattern)
            case .string(let text):
                encoded.append(3)
                append(UInt32(text.utf8.count))
                encoded.append(contentsOf: text.utf8)
            case .blob(let bytes):
                encoded.append(4)
                append(UInt32(bytes.count))
                encoded.append(contentsOf: bytes)
            }
        }
        var hmac = keyed
        encoded.withUnsafeBytes { hmac.update(data: $0) }
        return Array(hmac.finalize())
    }

    /// The fingerprint of the row with `id` as it is now, or zeros when there is none.
    func fingerprint(rowID id: Int64, _ db: Database) throws -> [UInt8] {
        guard let row = try ItemTable.row(in: db, id: id) else {
            return Self.zero
        }
        return fingerprint(row)
    }

    static let zero = [UInt8](repeating: 0, count: 32)

    /// `lhs + rhs` mod 2^256, both big-endian.
    static func adding(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        var result = zero
        var carry = 0
        for index in stride(from: 31, through: 0, by: -1) {
            let sum = Int(lhs[index]) + Int(rhs[index]) + carry
            result[index] = UInt8(sum & 0xFF)
            carry = sum >> 8
        }
        return result
    }

    /// `lhs - rhs` mod 2^256, both big-endian.
    static func subtracting(_ lhs: [UInt8], _ rhs: [UInt8]) -> [UInt8] {
        var result = zero
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(lhs[index]) - Int(rhs[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return result
    }

    /// The MAC of a state record: HMAC-SHA256 of `"SV1S" ‖ vault id ‖ counter (64-bit
    /// big-endian) ‖ digest`.
    func mac(counter: Int64, digest: [UInt8]) -> Data {
        var input: [UInt8] = []
        input.reserveCapacity(4 + 16 + 8 + digest.count)
        input.append(contentsOf: "SV1S".utf8)
        withUnsafeBytes(of: vaultID.uuid) { input.append(contentsOf: $0) }
        input.append(bigEndian: counter)
        input.append(contentsOf: digest)
        var hmac = keyed
        input.withUnsafeBytes { hmac.update(data: $0) }
        return Data(hmac.finalize())
    }

    /// The recorded state: counter, digest, and whether its MAC holds; `nil` when there is no
    /// record or it has values of the wrong type (both are tampering once the record exists).
    func recorded(_ db: Database) throws -> (counter: Int64, digest: [UInt8], authentic: Bool)? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT state_counter, state_digest, state_mac FROM vault_header WHERE id = 1")),
            let counter = row[0] as Int64?, let digest = row[1] as Data?, let mac = row[2] as Data?
        else { return nil }
        let digestBytes = Array(digest)
        if let last = lastAuthentic.withLock({ $0 }), last.counter == counter, last.digest == digestBytes,
            HeaderAuthenticator.constantTimeEqual(last.mac, mac)
        {
            return (counter, digestBytes, true)
        }
        let authentic =
            digest.count == 32
            && HeaderAuthenticator.constantTimeEqual(mac, self.mac(counter: counter, digest: digestBytes))
        if authentic { lastAuthentic.withLock { $0 = (counter, digestBytes, mac) } }
        return (counter, digestBytes, authentic)
    }

    /// Folds a change into the recorded state: the fingerprints of the rows removed are
    /// subtracted, those of the rows added are added. A missing record, or one whose MAC does not
    /// hold, is left as it is, so `verify` keeps reporting the tampering.
    func record(removing removed: [[UInt8]] = [], adding added: [[UInt8]] = [], _ db: Database) throws {
        guard let (counter, digest, authentic) = try recorded(db), authentic else { return }
        var next = digest
        for fingerprint in removed { next = Self.subtracting(next, fingerprint) }
        for fingerprint in added { next = Self.adding(next, fingerprint) }
        let nextMAC = mac(counter: counter + 1, digest: next)
        try db.cachedStatement(
            sql: "UPDATE vault_header SET state_counter = ?, state_digest = ?, state_mac = ? WHERE id = 1"
        )
        .execute(arguments: [counter + 1, Data(next), nextMAC])
        lastAuthentic.withLock { $0 = (counter + 1, next, nextMAC) }
    }

    /// Replaces the record with `counter` and `digest` under this digest's key (a rotation of
    /// the device secret carries the record over to the new key).
    func store(counter: Int64, digest: [UInt8], _ db: Database) throws {
        let nextMAC = mac(counter: counter, digest: digest)
        try db.cachedStatement(
            sql: "UPDATE vault_header SET state_counter = ?, state_digest = ?, state_mac = ? WHERE id = 1"
        )
        .execute(arguments: [counter, Data(digest), nextMAC])
        lastAuthentic.withLock { $0 = (counter, digest, nextMAC) }
    }

    /// Records the state of the rows as they are (a new keychain, or one written before the digest existed).
    func initialize(_ db: Database) throws {
        var digest = Self.zero
        let rows = try Row.fetchCursor(db, sql: "SELECT \(ItemRow.columns) FROM items")
        while let row = try rows.next() { digest = Self.adding(digest, fingerprint(row)) }
        try db.execute(
            sql: "UPDATE vault_header SET state_counter = 0, state_digest = ?, state_mac = ? WHERE id = 1",
            arguments: [Data(digest), mac(counter: 0, digest: digest)])
    }
}
