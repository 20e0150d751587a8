import Foundation
import KeychainCore
import SecureStorageFoundation

/// The encoding of one shard of a format 4 sync state (``SyncStateLayout``): a kind byte, the
/// layout's bits and the shard's index (so a shard answers only for its own slot), the count,
/// then the records, each of which must belong to that slot.
enum SyncStateShard {
    /// A shard's kind.
    enum Kind: UInt8 {
        /// Agreed entries (``SyncState/entries``).
        case entries = 0x45
        /// Local rows (``SyncState/localRows``).
        case rows = 0x52

        /// The account of the item holding shard `index`.
        func account(_ index: Int) -> String { self == .entries ? "state.entries.\(index)" : "state.rows.\(index)" }
    }

    /// Encodes the entries whose ids fall in `shards`, one shard per index (shards not asked for are skipped).
    static func encodeEntries(_ entries: [Data: SyncState.Entry], bits: UInt8, shards: Set<Int>) -> [Int: Data] {
        var bodies = [ByteWriter?](repeating: nil, count: 1 << Int(bits))
        var counts = [UInt32](repeating: 0, count: 1 << Int(bits))
        for index in shards { bodies[index] = ByteWriter() }
        for (recordID, entry) in entries {
            let index = SyncStateLayout.shard(of: recordID, bits: bits)
            guard bodies[index] != nil else { continue }
            counts[index] += 1
            SyncState.append(entry, recordID: recordID, to: &bodies[index]!)
        }
        return finish(bodies, counts, .entries, bits: bits)
    }

    /// Encodes the local rows whose record ids fall in `shards`, one shard per index.
    static func encodeRows(_ rows: [Int64: LocalItemCache.Row], bits: UInt8, shards: Set<Int>) -> [Int: Data] {
        var bodies = [ByteWriter?](repeating: nil, count: 1 << Int(bits))
        var counts = [UInt32](repeating: 0, count: 1 << Int(bits))
        for index in shards { bodies[index] = ByteWriter() }
        for (rowID, row) in rows {
            let index = SyncStateLayout.shard(of: row.recordID, bits: bits)
            guard bodies[index] != nil else { continue }
            counts[index] += 1
            bodies[index]!.append(bigEndian: UInt64(bitPattern: rowID))
            bodies[index]!.append(row.stamp.itemID.bytes)
            bodies[index]!.append(bigEndian: UInt64(bitPattern: row.stamp.rowVersion))
            bodies[index]!.appendLengthPrefixed(row.stamp.sealTags)
            bodies[index]!.appendLengthPrefixed(row.recordID)
            bodies[index]!.appendLengthPrefixed(row.digest)
            bodies[index]!.append(bigEndian: row.modificationDate.timeIntervalSince1970.bitPattern)
        }
        return finish(bodies, counts, .rows, bits: bits)
    }

    /// Each body asked for, behind its shard header.
    private static func finish(_ bodies: [ByteWriter?], _ counts: [UInt32], _ kind: Kind, bits: UInt8) -> [Int: Data] {
        var shards: [Int: Data] = [:]
        for (index, body) in bodies.enumerated() {
            guard let body else { continue }
            var out = ByteWriter(capacity: body.data.count + 10)
            out.append(kind.rawValue)
            out.append(bits)
            out.append(bigEndian: UInt32(index))
            out.append(bigEndian: counts[index])
            out.append(body.data)
            shards[index] = out.data
        }
        return shards
    }

    /// Decodes entries shard `index`; `nil` for anything else (another slot, a record of another shard).
    static func decodeEntries(_ data: Data, bits: UInt8, index: Int) -> [(Data, SyncState.Entry)]? {
        var input = ByteReader(data)
        guard let count = readHeader(&input, .entries, bits: bits, index: index) else { return nil }
        var entries: [(Data, SyncState.Entry)] = []
        entries.reserveCapacity(Int(min(count, 1_000_000)))
        for _ in 0..<count {
            guard let (recordID, entry) = SyncState.readEntry(from: &input),
                SyncStateLayout.shard(of: recordID, bits: bits) == index
            else { return nil }
            entries.append((recordID, entry))
        }
        return input.isAtEnd ? entries : nil
    }

    /// Decodes local-rows shard `index`; `nil` for anything else.
    static func decodeRows(_ data: Data, bits: UInt8, index: Int) -> [(Int64, LocalItemCache.Row)]? {
        var input = ByteReader(data)
        guard let count = readHeader(&input, .rows, bits: bits, index: index) else { return nil }
        var rows: [(Int64, LocalItemCache.Row)] = []
        rows.reserveCapacity(Int(min(count, 1_000_000)))
        for _ in 0..<count {
            guard let rowID = input.readBigEndian(UInt64.self),
                let itemID = input.readBytes(16).flatMap(UUID.init(bytes:)),
                let rowVersion = input.readBigEndian(UInt64.self), let tags = input.readLengthPrefixed(),
                let recordID = input.readLengthPrefixed(), let digest = input.readLengthPrefixed(),
                let date = input.readBigEndian(UInt64.self),
                SyncStateLayout.shard(of: recordID, bits: bits) == index
            else { return nil }
            let stamp = Keychain.SynchronizedRowStamp(
                itemID: itemID, rowVersion: Int64(bitPattern: rowVersion), sealTags: tags)
            rows.append(
                (
                    Int64(bitPattern: rowID),
                    LocalItemCache.Row(
                        stamp: stamp, recordID: recordID, digest: digest,
                        modificationDate: Date(timeIntervalSince1970: Double(bitPattern: date)))
                ))
        }
        return input.isAtEnd ? rows : nil
    }

    /// Reads a shard's header; its count, or `nil` when it is not shard `index` of `kind` under `bits`.
    private static func readHeader(_ input: inout ByteReader, _ kind: Kind, bits: UInt8, index: Int) -> UInt32? {
        guard input.readByte() == kind.rawValue, input.readByte() == bits,
            input.readBigEndian(UInt32.self) == UInt32(index), let count = input.readBigEndian(UInt32.self)
        else { return nil }
        return count
    }
}
