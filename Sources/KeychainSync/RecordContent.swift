import Crypto
import Foundation
import KeychainCore

/// What one record of the circle says about one item: its current value, or that it was deleted.
struct RecordContent: Sendable, Hashable {
    /// Whether the record holds a value or a deletion.
    enum Kind: UInt8, Sendable {
        /// The item with these attributes and data.
        case value = 1
        /// The item was deleted at ``RecordContent/modificationDate``; the attributes name it.
        case tombstone = 2
    }

    /// Value or deletion.
    var kind: Kind
    /// The device that wrote it.
    var author: UUID
    /// The item (for a tombstone: its attributes as last known, no data, the deletion time as `mdat`).
    var item: SynchronizedItem
    /// For a tombstone: the digest and modification date of the value it deleted, so that a
    /// value a device holds without ever having agreed on it loses to the deletion only when it
    /// is that value or older (zeros when not known).
    var deletedDigest = Data(count: 16)
    /// See ``deletedDigest``.
    var deletedModificationDate = Date(timeIntervalSinceReferenceDate: 0)

    /// When the value was written or the item deleted: what decides a conflict.
    var modificationDate: Date { item.modificationDate }

    /// A 16-byte digest of what the record says (not who wrote it): equal on every device for
    /// the same value.
    var digest: Data {
        if kind == .value { return item.valueDigest }  // the same bytes: marker 1, then the encoding
        var hasher = SHA256()
        hasher.update(data: [kind.rawValue])
        hasher.update(data: deletedFields)
        hasher.update(data: item.encoded)
        return Data(hasher.finalize().prefix(16))
    }

    /// A tombstone's record of the value it deleted.
    private var deletedFields: Data {
        var fields = deletedDigest.count == 16 ? deletedDigest : Data(count: 16)
        withUnsafeBytes(of: deletedModificationDate.timeIntervalSinceReferenceDate.bitPattern.bigEndian) {
            fields.append(contentsOf: $0)
        }
        return fields
    }

    /// Whether this deletion removes `digest`, dated `modificationDate`, as a device holds it
    /// without ever having agreed on it with the circle: when it is the deleted value or older.
    func deletes(digest: Data, modificationDate: Date) -> Bool {
        kind == .tombstone && (digest == deletedDigest || modificationDate <= deletedModificationDate)
    }

    /// Whether this content wins over `other` by the rule every device applies: a value wins over
    /// a deletion (the keychain does not record when an item was deleted, so a deletion cannot be
    /// placed in time against a change it did not see, and the secret is kept); otherwise the
    /// later modification date wins; on equal dates the larger digest, so the choice never
    /// depends on who decides.
    func wins(over other: RecordContent) -> Bool {
        Self.wins(kind: kind, modificationDate: modificationDate, digest: digest, over: other)
    }

    /// ``wins(over:)`` for content known by its kind, date and digest only.
    static func wins(kind: Kind, modificationDate: Date, digest: Data, over other: RecordContent) -> Bool {
        if kind != other.kind { return kind == .value }
        if modificationDate != other.modificationDate { return modificationDate > other.modificationDate }
        return other.digest.lexicographicallyPrecedes(digest)
    }

    /// The plaintext: kind, author, for a tombstone the deleted value's digest and date, the encoded item.
    var encoded: Data {
        var out = Data([kind.rawValue])
        out.append(author.bytes)
        if kind == .tombstone { out.append(deletedFields) }
        out.append(item.encoded)
        return out
    }

    /// Decodes ``encoded``; `nil` for anything else.
    init?(encoded: Data) {
        let bytes = Data(encoded)
        guard bytes.count > 17, let kind = Kind(rawValue: bytes[0]), let author = UUID(bytes: bytes[1..<17]) else {
            return nil
        }
        let itemStart = kind == .tombstone ? 17 + 24 : 17
        guard bytes.count > itemStart, let item = SynchronizedItem(encoded: Data(bytes[itemStart...])) else {
            return nil
        }
        self.init(kind: kind, author: author, item: item)
        if kind == .tombstone {
            deletedDigest = Data(bytes[17..<33])
            deletedModificationDate = Date(
                timeIntervalSinceReferenceDate: Double(
                    bitPattern: bytes[33..<41].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
        }
    }

    /// Content with these parts.
    init(kind: Kind, author: UUID, item: SynchronizedItem) {
        self.kind = kind
        self.author = author
        self.item = item
    }
}
