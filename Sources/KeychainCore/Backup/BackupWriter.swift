import Crypto
import Foundation

/// Builds a backup in ``BackupFormat``: the header first, then sealed chunks as records come in.
/// Holds at most one chunk of plaintext.
struct BackupWriter {
    let header: Data
    let archiveID: UUID
    private let checksum: Data
    private let chunkKey: SymmetricKey
    private var pending = ByteWriter()
    private var pendingRecords = 0
    private var chunkIndex: UInt64 = 0
    private(set) var itemCount: UInt64 = 0

    /// Derives the passphrase key (scrypt with `parameters`) and wraps a fresh random root key.
    init(passphrase: String, parameters: ScryptParameters, archiveID: UUID = UUID(), created: Date = Date()) throws(KeychainError) {
        guard !passphrase.isEmpty else { throw KeychainError(.invalidParameter, "A backup passphrase cannot be empty.") }
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
        let kek = BackupFormat.passphraseKEK(try parameters.deriveKey(passphrase: passphrase, salt: salt), archiveID: archiveID)
        do {
            let wrapped = try AES.GCM.seal(root.withUnsafeBytes { Data($0) }, using: kek, authenticating: writer.data)
            writer.append(wrapped.combined!)
        } catch {
            throw KeychainError(.outOfMemory, "Sealing the backup key failed: \(error).")
        }
        let checksum = Data(SHA256.hash(data: writer.data))
        writer.append(checksum)
        self.header = writer.data
        self.archiveID = archiveID
        self.checksum = checksum
        self.chunkKey = BackupFormat.chunkKey(root)
    }

    /// Adds an item; returns a framed chunk to write when one is full.
    mutating func append(_ record: BackupRecord) throws(KeychainError) -> Data? {
        pending.append(BackupFormat.RecordKind.item.rawValue)
        pending.appendLengthPrefixed(record.itemClass.rawValue)
        pending.appendLengthPrefixed(AttributeCodec.encode(record.attributes))
        pending.appendLengthPrefixed(record.data)
        pendingRecords += 1
        itemCount += 1
        guard pendingRecords >= BackupFormat.chunkRecords || pending.data.count >= BackupFormat.chunkBytes else { return nil }
        return try sealPending(isLast: false)
    }

    /// Seals the last chunk, ending with the trailer.
    mutating func finish(skippedThisDeviceOnly: UInt64) throws(KeychainError) -> Data {
        pending.append(BackupFormat.RecordKind.trailer.rawValue)
        pending.append(bigEndian: itemCount)
        pending.append(bigEndian: skippedThisDeviceOnly)
        return try sealPending(isLast: true)
    }

    private mutating func sealPending(isLast: Bool) throws(KeychainError) -> Data {
        var plaintext = pending.data
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        let ad = BackupFormat.chunkAssociatedData(checksum: checksum, index: chunkIndex, isLast: isLast)
        let sealed: Data
        do { sealed = try AES.GCM.seal(plaintext, using: chunkKey, authenticating: ad).combined! } catch {
            throw KeychainError(.outOfMemory, "Sealing a backup chunk failed: \(error).")
        }
        pending = ByteWriter()
        pendingRecords = 0
        chunkIndex += 1
        var framed = ByteWriter()
        framed.appendLengthPrefixed(sealed)
        return framed.data
    }
}
