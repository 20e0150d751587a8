import Crypto
import Foundation

/// The circle's current state as its last writer left it, MAC'd under the circle key: how many
/// pushes there have been, a ``SetDigest`` of every current record and its version, how far
/// deletions were compacted, and which ``DeletedValues`` the circle remembers.
///
/// Every push replaces it in the same server transaction as the records it changes, after
/// locking it, so pushes are serialised and each one moves the counter by one. A device
/// remembers the highest counter it verified: a server showing it an older manifest (a
/// rollback) or records that do not add up to the manifest's digest is caught.
struct Manifest: Sendable, Hashable {
    /// Pushes so far; 0 for a new circle.
    var counter: Int64
    /// The key generation the records and this manifest are under.
    var generation: UInt32
    /// The digest of all current (record id, version) pairs.
    var digest: SetDigest
    /// How many records (tombstones included).
    var recordCount: Int64
    /// The device that wrote it.
    var author: UUID
    /// Deletions written at or below this manifest counter were compacted away: every member had
    /// acknowledged them (see ``SyncAcknowledgement``), and a device forgets its tombstones up to it.
    var compactedThrough: Int64 = 0
    /// The SHA-256 of the sealed ``DeletedValues`` body on the server: the values of compacted
    /// deletions the circle remembers. ``DeletedValues/noHash`` (zeros) when it remembers none;
    /// such a manifest is written in the format earlier versions wrote (label 2, no hash).
    var deletedValuesHash = DeletedValues.noHash

    private static let label = Data("keychain-sync manifest 2".utf8)
    /// The label of the format with ``deletedValuesHash``.
    private static let labelWithDeletedValues = Data("keychain-sync manifest 3".utf8)
    /// The body's size without and with ``deletedValuesHash``.
    private static let sizes = (
        plain: 8 + 4 + 32 + 8 + 16 + 8 + 32, withDeletedValues: 8 + 4 + 32 + 8 + 16 + 8 + 32 + 32
    )

    /// Counters and record versions at or above this are refused as tampering: far beyond any
    /// real circle, and far enough below `Int64.max` that adding to them never overflows.
    static let counterLimit: Int64 = 1 << 62

    /// The fields followed by their MAC.
    func sealed(key: CircleKey) -> Data {
        var body = fields
        body.append(Self.mac(body, key: key))
        return body
    }

    /// The SHA-256 of the sealed manifest: equal for two manifests exactly when every field is.
    func fingerprint(key: CircleKey) -> Data { Data(SHA256.hash(data: sealed(key: key))) }

    /// Opens a manifest body whose counter column says `counter`.
    /// - Throws: ``SyncError/Code/tampered`` when it fails authentication or its counter
    ///   disagrees with the column.
    static func open(_ body: Data, counter: Int64, key: (UInt32) -> CircleKey?) throws(SyncError) -> Manifest {
        let bytes = Data(body)
        guard bytes.count == sizes.plain || bytes.count == sizes.withDeletedValues else {
            throw SyncError.tampered("a malformed manifest")
        }
        let fields = bytes.prefix(bytes.count - 32)
        func integer<T: FixedWidthInteger>(_ range: Range<Int>, _: T.Type) -> T {
            bytes[range].reduce(0) { $0 << 8 | T($1) }
        }
        guard let generation = claimedGeneration(of: bytes), let key = key(generation) else {
            throw SyncError.manifestKeyNotHeld
        }
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                Data(bytes.suffix(32)), authenticating: macInput(Data(fields), key: key), using: key.manifestKey)
        else {
            throw SyncError.tampered("a manifest that fails authentication")
        }
        var manifest = Manifest(
            counter: Int64(bitPattern: integer(0..<8, UInt64.self)), generation: generation,
            digest: SetDigest(bytes: bytes[12..<44])!, recordCount: Int64(bitPattern: integer(44..<52, UInt64.self)),
            author: UUID(bytes: bytes[52..<68])!)
        manifest.compactedThrough = Int64(bitPattern: integer(68..<76, UInt64.self))
        if bytes.count == sizes.withDeletedValues { manifest.deletedValuesHash = Data(bytes[76..<108]) }
        guard manifest.counter == counter else { throw SyncError.tampered("a manifest whose counter was changed") }
        guard (0..<counterLimit).contains(manifest.counter), (0..<counterLimit).contains(manifest.recordCount),
            (0...manifest.counter).contains(manifest.compactedThrough)
        else {
            throw SyncError.tampered("a manifest whose counter, record count or compaction point is out of range")
        }
        return manifest
    }

    /// The key generation a manifest body names, before anything is verified (it says which key
    /// to verify it with); `nil` for a body too short to hold one.
    static func claimedGeneration(of body: Data) -> UInt32? {
        let bytes = Data(body)
        guard bytes.count >= 12 else { return nil }
        return bytes[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// The ``deletedValuesHash`` a manifest body names, before anything is verified (it says
    /// whether to read the circle's deleted values along with it).
    static func claimedDeletedValuesHash(of body: Data) -> Data {
        let bytes = Data(body)
        return bytes.count == sizes.withDeletedValues ? Data(bytes[76..<108]) : DeletedValues.noHash
    }

    private var fields: Data {
        var data = Data()
        withUnsafeBytes(of: counter.bigEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: generation.bigEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: digest.bytes)
        withUnsafeBytes(of: recordCount.bigEndian) { data.append(contentsOf: $0) }
        data.append(author.bytes)
        withUnsafeBytes(of: compactedThrough.bigEndian) { data.append(contentsOf: $0) }
        if deletedValuesHash != DeletedValues.noHash { data.append(deletedValuesHash) }
        return data
    }

    private static func mac(_ fields: Data, key: CircleKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: macInput(fields, key: key), using: key.manifestKey))
    }

    /// What the MAC covers: a label (which names the format), the circle, the fields.
    private static func macInput(_ fields: Data, key: CircleKey) -> Data {
        var input = fields.count == sizes.withDeletedValues - 32 ? labelWithDeletedValues : label
        input.append(key.circleID.bytes)
        input.append(fields)
        return input
    }
}
