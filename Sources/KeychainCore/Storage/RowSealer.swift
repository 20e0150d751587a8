import Crypto
import Foundation
import GRDB

/// The row seal: a MAC over an item row's clear columns — row id, item id, class,
/// accessibility, synchronizable flag, every blind index, row version — and its lookup tags,
/// stored in the row's `row_seal` column (format 4).
///
/// It lets a delete check, without any class key, that the row it selected by blind indexes is
/// the row those indexes were written for: an edited, swapped or renumbered lookup column or tag
/// row makes the seal fail, so the delete stops with `.integrityViolation` instead of removing
/// another item. (Reads check the decrypted attributes instead, which proves more: see
/// ``Keychain/matchingItems(_:limit:proof:_:)``.) The key is derived from the device key, so
/// seals work in every lock state; someone holding the device key could forge one, which is why
/// reads never rely on it alone.
struct RowSealer: Sendable {
    private let keyed: HMAC<SHA256>

    init(deviceKey: SymmetricKey, vaultID: UUID) {
        keyed = HMAC(key: KeyHierarchy.integrityKey(deviceKey: deviceKey, vaultID: vaultID, purpose: "sv4/row-seal"))
    }

    static let length = 16

    /// The seal of a row with id `rowID` and lookup tags `tags`.
    func seal(_ row: ItemRow, rowID: Int64, tags: Set<Data>) -> Data {
        var writer: [UInt8] = []
        writer.reserveCapacity(256 + 20 * tags.count)
        writer.append(contentsOf: "SV4R".utf8)
        writer.append(bigEndian: rowID)
        writer.append(row.itemID.bytes)
        writer.appendLengthPrefixed(row.itemClass.rawValue)
        writer.appendLengthPrefixed(row.accessibility.rawValue)
        writer.append(UInt8(row.synchronizable ? 1 : 0))
        writer.appendLengthPrefixed(row.indexes.group)
        for optional in [row.indexes.service, row.indexes.account, row.indexes.server, row.indexes.identityLink] {
            if let value = optional {
                writer.append(UInt8(1))
                writer.appendLengthPrefixed(value)
            } else {
                writer.append(UInt8(0))
            }
        }
        writer.appendLengthPrefixed(row.indexes.primaryKey)
        writer.append(bigEndian: row.rowVersion)
        writer.append(bigEndian: Int64(tags.count))
        for tag in tags.sorted(by: { $0.lexicographicallyPrecedes($1) }) { writer.appendLengthPrefixed(tag) }
        var hmac = keyed
        writer.withUnsafeBytes { hmac.update(data: $0) }
        return hmac.finalize().withUnsafeBytes { Data($0.prefix(Self.length)) }
    }

    /// Whether the stored seal of a row (read with its tags) holds.
    func isValid(_ row: ItemRow, _ db: Database) throws -> Bool {
        guard let rowID = row.rowID,
            let stored = try Data.fetchOne(
                db.cachedStatement(sql: "SELECT row_seal FROM items WHERE id = ?"), arguments: [rowID])
        else { return false }
        return HeaderAuthenticator.constantTimeEqual(
            stored, seal(row, rowID: rowID, tags: try Self.tags(of: rowID, db)))
    }

    /// The lookup tags stored for a row.
    static func tags(of rowID: Int64, _ db: Database) throws -> Set<Data> {
        try ItemTable.tags(in: db, ofItem: rowID)
    }

    /// Seals every row as it is: the one-time step of the upgrade to format 4.
    func sealAllRows(_ db: Database) throws {
        let rows = try ItemTable.allRows(in: db)
        let update = try db.makeStatement(sql: "UPDATE items SET row_seal = ? WHERE id = ?")
        for raw in rows {
            // A row that cannot even be parsed stays unsealed; verify and every lookup report it.
            guard let row = try? ItemRow(row: raw), let rowID = row.rowID else { continue }
            try update.execute(arguments: [seal(row, rowID: rowID, tags: try Self.tags(of: rowID, db)), rowID])
        }
    }
}
