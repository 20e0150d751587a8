import Crypto
import Foundation
import KeychainCore
import SecureStorageFoundation

/// What one device knows of its circle: who it is, the circle keys it holds, how far it has
/// verified the server, and for every record the version and content it last agreed with.
///
/// It is kept as one item in the device's own keychain (``SyncStateStore``), never synced,
/// and written in the same transaction as the items a sync applies, so after a crash the two
/// always agree.
struct SyncState: Sendable {
    /// What this device last agreed with the circle about one record.
    struct Entry: Sendable, Hashable {
        /// The record's version on the server.
        var version: Int64
        /// The digest of the content at that version (``RecordContent/digest``).
        var digest: Data
        /// The item's accessibility, so a record whose class is locked here is never taken for deleted.
        var accessibility: Accessibility
        /// Whether the record is a deletion.
        var isTombstone: Bool
        /// The manifest counter of the push that wrote that version, as sealed in the record (0
        /// when not known yet): a deletion written at or below the manifest's
        /// ``Manifest/compactedThrough`` was compacted away.
        var writtenAt: Int64 = 0

        /// Whether this is a deletion the circle compacted away (every member had it).
        func isCompacted(through counter: Int64) -> Bool {
            isTombstone && writtenAt > 0 && writtenAt <= counter
        }
    }

    /// The circle.
    var circleID: UUID
    /// This device's id in the circle.
    var deviceID: UUID
    /// This device's name, shown to the other members.
    var deviceName: String
    /// The libpq connection string of the server.
    var server: String
    /// This device's key-agreement key: circle keys are wrapped to its public half.
    var agreementKey: Curve25519.KeyAgreement.PrivateKey
    /// This device's signing key: the membership changes it makes and the keys it wraps carry
    /// its signature.
    var signingKey: Curve25519.Signing.PrivateKey
    /// The circle keys this device holds, by generation. Empty while a join waits for approval.
    var keys: [UInt32: CircleKey]
    /// The highest manifest counter this device verified: the server may never show less.
    var verifiedCounter: Int64
    /// The highest record sequence number pulled (records above it are new).
    var pulledSequence: Int64
    /// The generation ``entries`` are under.
    var entriesGeneration: UInt32
    /// Per record id, what this device agreed with the circle.
    var entries: [Data: Entry]
    /// When this device last completed a sync (seconds since 1970), 0 if never.
    var lastSync: Double
    /// While a join waits for approval: the approval code this device showed (the answer must be
    /// MAC'd under it); empty once joined.
    var approvalCode = ""
    /// The keychain's change marker when this state was saved (-1: unknown): while it is still
    /// the same, nothing else wrote to the keychain since, and a sync with nothing to pull has
    /// nothing to do.
    var localMarker: Int64 = -1
    /// How far this device verified the circle's roster: a roster that does not continue it is refused.
    var rosterPin = Roster.Pin(count: 0, head: Data(count: 32))
    /// The manifest counter up to which this device merged every record (nothing deferred or
    /// given back), under the current generation: what it acknowledges to the circle.
    var mergedCounter: Int64 = 0
    /// The highest compaction point seen under the current generation: it never goes back.
    var compactedThrough: Int64 = 0
    /// While a join waits for approval: the roster position the circle code names (event count,
    /// 4 bytes, and 96 bits of that event's hash), which the roster the answer leads to must hold.
    var circleCodePin = Data()
    /// The values of compacted deletions the circle remembers, as this device last verified them
    /// (generation independent: value digests), and the ``Manifest/deletedValuesHash`` they were
    /// verified against under the current generation.
    var deletedValues = DeletedValues()
    /// See ``deletedValues``.
    var deletedValuesHash = DeletedValues.noHash
    /// ``Manifest/fingerprint`` of the manifest at ``verifiedCounter``, as this device verified or
    /// wrote it; empty when not known. While the server still shows exactly that manifest and
    /// no record after ``pulledSequence``, nothing arrived (``SyncRound``'s idle check).
    var verifiedManifestHash = Data()
    /// What the syncs read of this keychain's synchronizable rows, by row id (see
    /// ``LocalItemCache``): a sync reads again only the rows whose stamp moved.
    var localRows: [Int64: LocalItemCache.Row] = [:]
    /// The key generation ``localRows`` holds record ids under; `nil` when there are none.
    var localRowsGeneration: UInt32?
    /// How the state was stored when it was loaded (``SyncStateStore``), with the hash of every
    /// shard that failed to load zeroed; not part of the state.
    var layout = SyncStateLayout()
    /// The entries and local rows as loaded, to tell which shards a save must rewrite; not part of the state.
    var loadedEntries: [Data: Entry] = [:]
    /// See ``loadedEntries``.
    var loadedRows: [Int64: LocalItemCache.Row] = [:]
    /// Whether only the header was loaded (``SyncStateStore/loadHeader(from:)``, no entries nor
    /// local rows): such a state is never saved.
    var isHeaderOnly = false

    /// The newest circle key held.
    var currentKey: CircleKey? { keys.values.max { $0.generation < $1.generation } }

    /// Whether the device is a member (holds a circle key) rather than waiting for approval.
    var isMember: Bool { !keys.isEmpty }

    /// The encoding: 2 as earlier versions wrote it (still written while no deleted value is
    /// remembered, so a state stays readable by them until the circle first compacts); 3 adds
    /// ``deletedValuesHash`` and ``deletedValues`` at the end.
    private static let formatVersion: UInt8 = 2
    private static let formatVersionWithDeletedValues: UInt8 = 3
    /// The header of a state kept in several items (``SyncStateStore``): the fields of format 3
    /// without the entries, then ``verifiedManifestHash``, ``localRowsGeneration`` and the
    /// ``SyncStateLayout`` naming the shard items holding the entries and the local rows.
    static let formatVersionSharded: UInt8 = 4

    /// The single-item encoding earlier versions stored in the keychain (format 2 or 3, entries
    /// included); read still, so a keychain from before format 4 keeps its state.
    var encoded: Data { encoded(format: nil) }

    /// The format 4 header for `layout` (entries and local rows go to the shards it names).
    func encodedHeader(layout: SyncStateLayout) -> Data { encoded(format: Self.formatVersionSharded, layout: layout) }

    private func encoded(format sharded: UInt8?, layout: SyncStateLayout = SyncStateLayout()) -> Data {
        let remembersDeletions =
            sharded != nil || !deletedValues.isEmpty || deletedValuesHash != DeletedValues.noHash
        var out = ByteWriter()
        out.append(
            bigEndian: sharded ?? (remembersDeletions ? Self.formatVersionWithDeletedValues : Self.formatVersion))
        out.append(circleID.bytes)
        out.append(deviceID.bytes)
        out.appendLengthPrefixed(Data(deviceName.utf8))
        out.appendLengthPrefixed(Data(server.utf8))
        out.append(agreementKey.rawRepresentation)
        out.append(signingKey.rawRepresentation)
        out.append(bigEndian: UInt64(bitPattern: rosterPin.count))
        out.append(rosterPin.head)
        out.append(bigEndian: UInt32(keys.count))
        for key in keys.values.sorted(by: { $0.generation < $1.generation }) {
            out.append(bigEndian: key.generation)
            out.append(key.secretBytes)
        }
        out.append(bigEndian: UInt64(bitPattern: verifiedCounter))
        out.append(bigEndian: UInt64(bitPattern: pulledSequence))
        out.append(bigEndian: entriesGeneration)
        out.append(bigEndian: lastSync.bitPattern)
        out.appendLengthPrefixed(Data(approvalCode.utf8))
        out.append(bigEndian: UInt64(bitPattern: localMarker))
        out.append(bigEndian: UInt64(bitPattern: mergedCounter))
        out.append(bigEndian: UInt64(bitPattern: compactedThrough))
        out.appendLengthPrefixed(circleCodePin)
        if sharded != nil {
            out.append(bigEndian: UInt32(0))
        } else {
            out.append(bigEndian: UInt32(entries.count))
            // In the dictionary's order: decoding builds a dictionary again, and sorting 100,000
            // keys took most of a save.
            for (recordID, entry) in entries { Self.append(entry, recordID: recordID, to: &out) }
        }
        if remembersDeletions {
            out.appendLengthPrefixed(deletedValuesHash)
            out.appendLengthPrefixed(deletedValues.encoded)
        }
        if sharded != nil {
            out.appendLengthPrefixed(verifiedManifestHash)
            out.append(bigEndian: UInt8(localRowsGeneration == nil ? 0 : 1))
            out.append(bigEndian: localRowsGeneration ?? 0)
            layout.append(to: &out)
        }
        return out.data
    }

    /// Appends one entry's encoding.
    static func append(_ entry: Entry, recordID: Data, to out: inout ByteWriter) {
        out.appendLengthPrefixed(recordID)
        out.append(bigEndian: UInt64(bitPattern: entry.version))
        out.appendLengthPrefixed(entry.digest)
        out.appendLengthPrefixed(Data(entry.accessibility.rawValue.utf8))
        out.append(bigEndian: UInt8(entry.isTombstone ? 1 : 0))
        out.append(bigEndian: UInt64(bitPattern: entry.writtenAt))
    }

    /// Reads one entry's encoding; `nil` for anything else.
    static func readEntry(from input: inout ByteReader) -> (recordID: Data, entry: Entry)? {
        guard let recordID = input.readLengthPrefixed(), let version = input.readBigEndian(UInt64.self),
            let digest = input.readLengthPrefixed(),
            let accessibility = input.readLengthPrefixed().flatMap({ String(data: $0, encoding: .utf8) }).flatMap(
                Accessibility.init(rawValue:)),
            let tombstone = input.readByte(), tombstone <= 1, let writtenAt = input.readBigEndian(UInt64.self)
        else { return nil }
        return (
            recordID,
            Entry(
                version: Int64(bitPattern: version), digest: digest, accessibility: accessibility,
                isTombstone: tombstone == 1, writtenAt: Int64(bitPattern: writtenAt))
        )
    }

    /// Decodes ``encoded``; `nil` for anything else.
    init?(encoded: Data) {
        var input = ByteReader(encoded)
        defer { input.wipe() }  // its copy held the device's private keys and the circle keys
        let format = input.readByte()
        guard
            format == Self.formatVersion || format == Self.formatVersionWithDeletedValues
                || format == Self.formatVersionSharded,
            let circleID = input.readBytes(16).flatMap(UUID.init(bytes:)),
            let deviceID = input.readBytes(16).flatMap(UUID.init(bytes:)),
            let name = input.readLengthPrefixed().flatMap({ String(data: $0, encoding: .utf8) }),
            let server = input.readLengthPrefixed().flatMap({ String(data: $0, encoding: .utf8) }),
            let agreement = input.readBytes(32).flatMap({
                try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: $0)
            }),
            let signing = input.readBytes(32).flatMap({ try? Curve25519.Signing.PrivateKey(rawRepresentation: $0) }),
            let rosterCount = input.readBigEndian(UInt64.self), let rosterHead = input.readBytes(32),
            let keyCount = input.readBigEndian(UInt32.self), keyCount <= 1024
        else { return nil }
        var keys: [UInt32: CircleKey] = [:]
        for _ in 0..<keyCount {
            guard let generation = input.readBigEndian(UInt32.self), let secret = input.readBytes(32) else {
                return nil
            }
            keys[generation] = CircleKey(circleID: circleID, generation: generation, secret: SymmetricKey(data: secret))
        }
        guard let counter = input.readBigEndian(UInt64.self), let sequence = input.readBigEndian(UInt64.self),
            let entriesGeneration = input.readBigEndian(UInt32.self), let lastSync = input.readBigEndian(UInt64.self),
            let approvalCode = input.readLengthPrefixed().flatMap({ String(data: $0, encoding: .utf8) }),
            let marker = input.readBigEndian(UInt64.self),
            let mergedCounter = input.readBigEndian(UInt64.self),
            let compactedThrough = input.readBigEndian(UInt64.self), let circleCodePin = input.readLengthPrefixed(),
            let entryCount = input.readBigEndian(UInt32.self), format != Self.formatVersionSharded || entryCount == 0
        else { return nil }
        var entries: [Data: Entry] = [:]
        entries.reserveCapacity(Int(min(entryCount, 1_000_000)))
        for _ in 0..<entryCount {
            guard let (recordID, entry) = Self.readEntry(from: &input) else { return nil }
            entries[recordID] = entry
        }
        var deletedValues = DeletedValues()
        var deletedValuesHash = DeletedValues.noHash
        if format != Self.formatVersion {
            guard let hash = input.readLengthPrefixed(), hash.count == 32,
                let values = input.readLengthPrefixed().flatMap(DeletedValues.init(encoded:))
            else { return nil }
            (deletedValues, deletedValuesHash) = (values, Data(hash))
        }
        var verifiedManifestHash = Data()
        var localRowsGeneration: UInt32?
        var layout = SyncStateLayout()
        if format == Self.formatVersionSharded {
            guard let hash = input.readLengthPrefixed(), hash.isEmpty || hash.count == 32,
                let hasRows = input.readByte(), hasRows <= 1, let rowsGeneration = input.readBigEndian(UInt32.self),
                let stored = SyncStateLayout(from: &input)
            else { return nil }
            (verifiedManifestHash, layout) = (hash, stored)
            localRowsGeneration = hasRows == 1 ? rowsGeneration : nil
        }
        guard input.isAtEnd else { return nil }
        self.init(
            circleID: circleID, deviceID: deviceID, deviceName: name, server: server, agreementKey: agreement,
            signingKey: signing, keys: keys,
            verifiedCounter: Int64(bitPattern: counter), pulledSequence: Int64(bitPattern: sequence),
            entriesGeneration: entriesGeneration, entries: entries, lastSync: Double(bitPattern: lastSync))
        self.approvalCode = approvalCode
        self.mergedCounter = Int64(bitPattern: mergedCounter)
        self.compactedThrough = Int64(bitPattern: compactedThrough)
        self.circleCodePin = circleCodePin
        self.deletedValues = deletedValues
        self.deletedValuesHash = deletedValuesHash
        self.verifiedManifestHash = verifiedManifestHash
        self.localRowsGeneration = localRowsGeneration
        self.layout = layout
        localMarker = Int64(bitPattern: marker)
        rosterPin = Roster.Pin(count: Int64(bitPattern: rosterCount), head: rosterHead)
    }

    /// A state with these parts.
    init(
        circleID: UUID, deviceID: UUID, deviceName: String, server: String,
        agreementKey: Curve25519.KeyAgreement.PrivateKey,
        signingKey: Curve25519.Signing.PrivateKey, keys: [UInt32: CircleKey], verifiedCounter: Int64,
        pulledSequence: Int64, entriesGeneration: UInt32,
        entries: [Data: Entry], lastSync: Double
    ) {
        self.circleID = circleID
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.server = server
        self.agreementKey = agreementKey
        self.signingKey = signingKey
        self.keys = keys
        self.verifiedCounter = verifiedCounter
        self.pulledSequence = pulledSequence
        self.entriesGeneration = entriesGeneration
        self.entries = entries
        self.lastSync = lastSync
    }
}
