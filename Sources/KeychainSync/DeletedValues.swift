import Crypto
import Foundation
import SecureStorageFoundation

/// The values the circle deleted whose deletion records were compacted away, so that a copy of
/// one restored from a backup never brings it back: the 16-byte ``SynchronizedItem/valueDigest``
/// of each (it covers the item's class, every attribute, the creation and modification dates
/// included, and its data), oldest first, at most ``capacity``.
///
/// A deletion record names the value it deleted (``RecordContent/deletedDigest``), so while it
/// is on the server a restored copy of that value loses to it. Compaction removes the record and
/// adds the digest here: a member that restores a backup later, or a device set up from one that
/// joins later, still takes such a copy for the deletion. Only an exact copy matches; a value
/// written anew (added again, or edited: any update moves the modification date) does not.
///
/// The server stores it sealed (AES-256-GCM under the circle's record key, bound to the circle
/// and the key generation) in `keychain_sync_deleted_values`, and the manifest carries the
/// SHA-256 of that body (``Manifest/deletedValuesHash``): a body the server drops, replays or
/// swaps does not match the verified manifest and is refused as tampering. It learns how many
/// deletions are remembered (the body's size), which it saw being compacted anyway.
struct DeletedValues: Sendable, Hashable {
    /// How many deleted values a circle remembers; beyond it the oldest compacted deletion is
    /// forgotten first (16 bytes each: 256 KiB at most).
    static let capacity = 16_384

    /// The length of one digest.
    static let digestLength = 16

    /// One digest as two integers: no allocation per digest, cheap to hash (a full list is loaded
    /// with every sync state).
    private struct Key: Hashable, Sendable {
        var high: UInt64
        var low: UInt64

        init(high: UInt64, low: UInt64) {
            self.high = high
            self.low = low
        }

        init?(_ digest: Data) {
            guard digest.count == DeletedValues.digestLength else { return nil }
            let bytes = Data(digest)
            high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
            low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
        }

        var data: Data {
            var out = ByteWriter()
            out.append(bigEndian: high)
            out.append(bigEndian: low)
            return out.data
        }
    }

    /// Oldest first.
    private var order: [Key] = []
    private var members: Set<Key> = []

    /// None remembered.
    init() {}

    /// Whether nothing is remembered.
    var isEmpty: Bool { order.isEmpty }

    /// The remembered digests, oldest first.
    var digests: [Data] { order.map(\.data) }

    /// Whether `digest` is the value digest of a value the circle deleted.
    func contains(_ digest: Data) -> Bool {
        guard !members.isEmpty, let key = Key(digest) else { return false }
        return members.contains(key)
    }

    /// Remembers the values compacted deletions removed (digests of the wrong length, the zeros
    /// of a deletion written before deletions named their value, and ones already known are
    /// skipped), forgetting the oldest beyond ``capacity``.
    mutating func remember(_ deleted: [Data]) {
        for digest in deleted {
            guard let key = Key(digest), key.high != 0 || key.low != 0 else { continue }
            if members.insert(key).inserted { order.append(key) }
        }
        if order.count > Self.capacity {
            let dropped = order.count - Self.capacity
            for key in order.prefix(dropped) { members.remove(key) }
            order.removeFirst(dropped)
        }
    }

    // MARK: - Local encoding

    /// `count (4) ‖ digests`, as kept in the ``SyncState``.
    var encoded: Data {
        var out = Data(capacity: 4 + Self.digestLength * order.count)
        withUnsafeBytes(of: UInt32(order.count).bigEndian) { out.append(contentsOf: $0) }
        for key in order {
            withUnsafeBytes(of: (key.high.bigEndian, key.low.bigEndian)) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// Decodes ``encoded``; `nil` for anything else.
    init?(encoded: Data) {
        var input = ByteReader(encoded)
        guard let count = input.readBigEndian(UInt32.self).map(Int.init), count <= Self.capacity,
            let block = input.readBytes(Self.digestLength * count), input.isAtEnd
        else { return nil }
        var keys: [Key] = []
        keys.reserveCapacity(count)
        Data(block).withUnsafeBytes { raw in
            for index in 0..<count {
                keys.append(
                    Key(
                        high: UInt64(
                            bigEndian: raw.loadUnaligned(fromByteOffset: index * Self.digestLength, as: UInt64.self)),
                        low: UInt64(
                            bigEndian: raw.loadUnaligned(fromByteOffset: index * Self.digestLength + 8, as: UInt64.self)
                        )))
            }
        }
        members = Set(keys)
        guard members.count == count, !members.contains(Key(high: 0, low: 0)) else { return nil }
        order = keys
    }

    // MARK: - On the server

    /// The hash a manifest names when the circle remembers no deleted value (it then has no body).
    static let noHash = Data(count: 32)

    private static let label = Data("keychain-sync deleted values 1".utf8)

    /// The body to store, sealed under `key`.
    func sealed(key: CircleKey) throws(SyncError) -> Data {
        let box: AES.GCM.SealedBox
        do {
            box = try AES.GCM.seal(
                encoded, using: key.recordKey, nonce: AES.GCM.Nonce(), authenticating: Self.associatedData(key))
        } catch {
            throw SyncError.deletedValuesSealingFailed
        }
        var body = ByteWriter()
        body.append(bigEndian: key.generation)
        body.append(Data(box.nonce))
        body.append(box.ciphertext)
        body.append(box.tag)
        return body.data
    }

    /// What a manifest names for `body`: its SHA-256.
    static func hash(of body: Data) -> Data { Data(SHA256.hash(data: body)) }

    /// The deleted values a verified manifest names by `hash`, from the `body` the server
    /// returned (none for ``noHash``).
    /// - Throws: ``SyncError/Code/tampered`` when the body is missing, is not the one the
    ///   manifest names (dropped, replayed or swapped), or does not open under `key`.
    static func open(_ body: Data?, hash: Data, key: CircleKey) throws(SyncError) -> DeletedValues {
        if hash == noHash { return DeletedValues() }
        guard let body, Self.hash(of: body) == hash else {
            throw SyncError.tampered(
                "a list of the circle's deleted values that is missing or not the one its manifest names (dropped, replayed or swapped)"
            )
        }
        var input = ByteReader(body)
        guard let generation = input.readBigEndian(UInt32.self), generation == key.generation,
            let nonce = input.readBytes(12), body.count >= 4 + 12 + 16,
            let ciphertext = input.readBytes(body.count - 4 - 12 - 16), let tag = input.readBytes(16),
            let box = try? AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag),
            let plaintext = try? AES.GCM.open(box, using: key.recordKey, authenticating: associatedData(key)),
            let values = DeletedValues(encoded: plaintext)
        else {
            throw SyncError.tampered("a list of the circle's deleted values that fails authentication")
        }
        return values
    }

    /// Binds a body to its purpose, the circle and the key generation.
    private static func associatedData(_ key: CircleKey) -> Data {
        var data = ByteWriter()
        data.append(label)
        data.append(key.circleID.bytes)
        data.append(bigEndian: key.generation)
        return data.data
    }
}
