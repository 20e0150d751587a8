import Crypto
import Foundation
import SecureStorageFoundation

/// How a format 4 sync state is split over the keychain's items (``SyncStateStore``): a header
/// item, and `2^bits` shards of each kind, the agreed entries and the local rows
/// (``LocalItemCache``), each shard holding the records whose id starts with its index. The
/// header holds the SHA-256 of every shard, so a shard is only ever read as the header that
/// wrote it saw it: a save rewrites only the shards that changed, and a shard that is missing,
/// edited, or an older copy does not match.
struct SyncStateLayout: Sendable, Hashable {
    /// log2 of the number of shards of each kind.
    var bits: UInt8 = 0
    /// The SHA-256 of each entries shard, by index; empty for a state kept in one item (formats 2 and 3).
    var entryHashes: [Data] = []
    /// The SHA-256 of each local-rows shard, by index.
    var rowHashes: [Data] = []

    /// The most shards of one kind (1,024: a shard of a 1,000,000-item keychain holds about 1,000 records).
    static let maximumBits: UInt8 = 10
    /// How many records a shard holds before the next save splits the shards in two.
    static let recordsPerShard = 2048

    /// Whether the state is kept in shards (format 4).
    var isSharded: Bool { !entryHashes.isEmpty }

    /// How many shards of each kind.
    var shardCount: Int { 1 << Int(bits) }

    /// The shard of a record id.
    static func shard(of recordID: Data, bits: UInt8) -> Int {
        guard bits > 0 else { return 0 }
        let prefix = recordID.prefix(2).reduce(0) { $0 << 8 | Int($1) } << (8 * max(0, 2 - recordID.count))
        return prefix >> (16 - Int(bits))
    }

    /// The bits a state with `records` records needs, never fewer than `current` (shards only
    /// ever split, so a save never has shards to delete).
    static func bits(for records: Int, atLeast current: UInt8) -> UInt8 {
        var bits = current
        while bits < maximumBits && records > recordsPerShard << Int(bits) { bits += 1 }
        return bits
    }

    /// The SHA-256 of a shard's bytes.
    static func hash(_ shard: Data) -> Data { Data(SHA256.hash(data: shard)) }

    /// Appends the layout to a header's encoding.
    func append(to out: inout ByteWriter) {
        out.append(bits)
        out.append(bigEndian: UInt32(entryHashes.count))
        for hash in entryHashes { out.append(hash) }
        out.append(bigEndian: UInt32(rowHashes.count))
        for hash in rowHashes { out.append(hash) }
    }

    /// A layout with no shards (a state kept in one item).
    init() {}

    /// Reads what ``append(to:)`` wrote; `nil` unless both kinds have exactly `2^bits` hashes.
    init?(from input: inout ByteReader) {
        guard let bits = input.readByte(), bits <= Self.maximumBits else { return nil }
        self.bits = bits
        for index in 0..<2 {
            guard let count = input.readBigEndian(UInt32.self), count == 1 << Int(bits) else { return nil }
            var hashes: [Data] = []
            for _ in 0..<count {
                guard let hash = input.readBytes(32) else { return nil }
                hashes.append(hash)
            }
            if index == 0 { entryHashes = hashes } else { rowHashes = hashes }
        }
    }
}
