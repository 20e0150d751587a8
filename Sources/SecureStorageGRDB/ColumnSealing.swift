import Crypto
import Foundation
import GRDB
import SecureStorageFoundation

/// What sealing, opening and indexing the values of one column of one table need, worked out
/// once per column: the authenticated data's constant start, and the blind index's HMAC with its
/// key already absorbed (the HMAC key schedule). Key material: it lives in the sealer's
/// ``ColumnSealingCache`` and nowhere else, and swift-crypto zeroes the hash states when the
/// last copy is released.
struct ColumnSealing: Sendable {
    let table: String
    let column: String
    /// `"SSG1"`, the key ID, then the table and column length-prefixed: the authenticated data of
    /// a cell is this followed by its primary key values, length-prefixed.
    let authenticatedDataPrefix: Data
    /// HMAC-SHA256 under the column's blind-index key, with no message yet.
    let indexMAC: HMAC<SHA256>
    let sealingKey: SymmetricKey

    /// The authenticated data of the cell of this column in the row `identity`.
    func authenticatedData(_ identity: [DatabaseValue]) -> Data {
        var data = authenticatedDataPrefix
        for value in identity {
            let encoded = SealedValueCodec.encode(value)
            withUnsafeBytes(of: UInt32(encoded.count).bigEndian) { data.append(contentsOf: $0) }
            data.append(encoded)
        }
        return data
    }

    /// The sealed form of `value` in the row `identity`.
    func seal(_ value: DatabaseValue, identity: [DatabaseValue]) throws -> DatabaseValue {
        let box = try AES.GCM.seal(
            SealedValueCodec.encode(value), using: sealingKey, authenticating: authenticatedData(identity))
        var cell = Data(capacity: 1 + 12 + box.ciphertext.count + 16)
        cell.append(SealedValueCodec.formatByte)
        cell.append(contentsOf: box.nonce)
        cell.append(box.ciphertext)
        cell.append(box.tag)
        return cell.databaseValue
    }

    /// The value sealed in `sealed` in the row `identity`.
    /// - Throws: ``SealedDatabaseError/Code/tamperedValue`` when it was sealed anywhere else or changed.
    func open(_ sealed: DatabaseValue, identity: [DatabaseValue]) throws(SealedDatabaseError) -> DatabaseValue {
        guard let bytes = Data.fromDatabaseValue(sealed), bytes.count >= 1 + 12 + 16,
            bytes.first == SealedValueCodec.formatByte
        else {
            throw SealedDatabaseError.tamperedValue(table: table, column: column)
        }
        let start = bytes.startIndex
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: bytes[(start + 1)..<(start + 13)]),
                ciphertext: bytes[(start + 13)..<(bytes.endIndex - 16)], tag: bytes[(bytes.endIndex - 16)...])
            let opened = try AES.GCM.open(box, using: sealingKey, authenticating: authenticatedData(identity))
            if let value = SealedValueCodec.decode(opened) { return value }
        } catch {}
        throw SealedDatabaseError.tamperedValue(table: table, column: column)
    }

    /// The blind index of `value` after `normalization`: the first 16 bytes of its HMAC.
    func blindIndex(_ value: DatabaseValue, normalization: SealedColumn.Normalization) -> DatabaseValue {
        var normalized = value
        if normalization == .caseInsensitive, let text = String.fromDatabaseValue(value) {
            normalized = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().databaseValue
        }
        var mac = indexMAC
        mac.update(data: SealedValueCodec.encode(normalized))
        return mac.finalize().withUnsafeBytes { Data($0.prefix(16)) }.databaseValue
    }
}

/// The ``ColumnSealing`` of each table and column a sealer has used, kept for the sealer's life
/// and released with it (nothing else holds them).
final class ColumnSealingCache: Sendable {
    private struct Name: Hashable {
        let table: String
        let column: String
    }

    private let entries = Locked<[Name: ColumnSealing]>([:])

    /// The cached sealing of `column` of `table`, made by `make` the first time.
    func sealing(table: String, column: String, make: () -> ColumnSealing) -> ColumnSealing {
        entries.withLock { entries in
            let name = Name(table: table, column: column)
            if let cached = entries[name] { return cached }
            let made = make()
            entries[name] = made
            return made
        }
    }

    /// How many columns are cached.
    var count: Int { entries.withLock { $0.count } }
}
