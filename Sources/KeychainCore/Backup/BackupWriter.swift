import Crypto
import Foundation
import SecureStorageFoundation

/// Builds a backup in ``BackupFormat``: the header first, then sealed chunks as records come in.
/// Holds at most one chunk of plaintext.
struct BackupWriter {
    let header: Data
    let archiveID: UUID
    private let checksum: Data
    private let chunkKey: SymmetricKey
    private var pending = ByteWriter(capacity: BackupWriter.pendingCapacity)
    private var pendingRecords = 0
    private var chunkIndex: UInt64 = 0
    private(set) var itemCount: UInt64 = 0

    /// Derives the passphrase key (scrypt with `parameters`) and wraps a fresh random root key.
    /// Parallelism above what readers accept is capped (it only adds time); other parameters a
    /// reader would refuse are an error, so no backup is written that cannot be imported.
    init(passphrase: String, parameters: ScryptParameters, archiveID: UUID = UUID(), created: Date = Date())
        throws(KeychainError)
    {
        guard !passphrase.isEmpty else { throw KeychainError.emptyBackupPassphrase() }
        var parameters = parameters
        parameters.parallelism = min(parameters.parallelism, 16)
        // r ≤ 8 and p ≤ 16 as well, so that readers of earlier versions accept the backup too.
        guard BackupFormat.acceptsKDF(parameters), parameters.blockSize <= 8, parameters.parallelism <= 16 else {
            throw KeychainError.backupScryptParametersOutOfRange(parameters: parameters)
        }
        let salt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        let root = SymmetricKey(size: .bits256)
        var writer = ByteWriter()
        writer.append(BackupFormat.magic)
        writer.append(BackupFormat.version)
        writer.append(archiveID.bytes)
        writer.append(bigEndian: Int64(created.timeIntervalSince1970))
        writer.append(UInt8(parameters.logN))
        writer.append(bigEndian: UInt32(parameters.blockSize))
        writer.append(bigEndian: UInt32(parameters.parallelism))
        writer.append(salt)
        let kek = BackupFormat.passphraseKEK(
            try parameters.deriveKey(passphrase: passphrase, salt: salt), archiveID: archiveID)
        var rootBytes = root.withUnsafeBytes { Data($0) }
        defer { SecretWiping.wipe(&rootBytes) }
        do {
            let wrapped = try AES.GCM.seal(rootBytes, using: kek, authenticating: writer.data)
            writer.append(wrapped.combined!)
        } catch {
            throw KeychainError.sealingBackupKeyFailed(error: error)
        }
        let checksum = Data(SHA256.hash(data: writer.data))
        writer.append(checksum)
        self.header = writer.data
        self.archiveID = archiveID
        self.checksum = checksum
        self.chunkKey = BackupFormat.chunkKey(root)
    }

    /// Adds an item; returns the framed chunks (usually none) that became full.
    /// - Throws: `.invalidParameter` for an item too large for any chunk a reader accepts.
    mutating func append(_ record: BackupRecord) throws(KeychainError) -> [Data] {
        var encoded = ByteWriter()
        encoded.append(BackupFormat.RecordKind.item.rawValue)
        encoded.appendLengthPrefixed(record.itemClass.rawValue)
        encoded.appendLengthPrefixed(AttributeCodec.encode(record.attributes))
        encoded.appendLengthPrefixed(record.data)
        guard encoded.data.count <= BackupFormat.maximumChunkBytes - 1024 else {
            throw KeychainError.itemTooLargeForBackup(
                itemClass: record.itemClass.rawValue, byteCount: record.data.count)
        }
        var sealed: [Data] = []
        if pendingRecords > 0 && pending.data.count + encoded.data.count > BackupFormat.chunkBytes {
            sealed.append(try sealPending(isLast: false))
        }
        pending.append(encoded.data)
        pendingRecords += 1
        itemCount += 1
        if pendingRecords >= BackupFormat.chunkRecords || pending.data.count >= BackupFormat.chunkBytes {
            sealed.append(try sealPending(isLast: false))
        }
        return sealed
    }

    /// Seals the last chunk, ending with the trailer.
    mutating func finish(skipped: BackupTrailer.Skipped) throws(KeychainError) -> Data {
        pending.append(BackupFormat.RecordKind.trailer.rawValue)
        pending.append(bigEndian: itemCount)
        pending.append(bigEndian: skipped.thisDeviceOnly)
        pending.append(bigEndian: skipped.nonExtractableKeys)
        return try sealPending(isLast: true)
    }

    /// Room for a full chunk and one more record of ordinary size, reserved up front so the
    /// plaintext buffer is rarely reallocated (which would leave an unwiped copy).
    private static let pendingCapacity = BackupFormat.chunkBytes + 64 * 1024

    private mutating func sealPending(isLast: Bool) throws(KeychainError) -> Data {
        let framed = try sealChunk(pending.data, index: chunkIndex, isLast: isLast)
        pending.wipe()
        pending = ByteWriter(capacity: Self.pendingCapacity)
        pendingRecords = 0
        chunkIndex += 1
        return framed
    }

    /// Seals one chunk's records under this backup's chunk key, framed with its length.
    func sealChunk(_ plaintext: Data, index: UInt64, isLast: Bool) throws(KeychainError) -> Data {
        let ad = BackupFormat.chunkAssociatedData(checksum: checksum, index: index, isLast: isLast)
        let sealed: Data
        do { sealed = try AES.GCM.seal(plaintext, using: chunkKey, authenticating: ad).combined! } catch {
            throw KeychainError.sealingBackupChunkFailed(error: error)
        }
        var framed = ByteWriter()
        framed.appendLengthPrefixed(sealed)
        return framed.data
    }
}
