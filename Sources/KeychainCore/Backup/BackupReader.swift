import Crypto
import Foundation
import SecureStorageFoundation

/// Reads a backup in ``BackupFormat``: checks the header, unwraps the root key with the
/// passphrase, and opens chunks in order. Every failure is a ``KeychainError`` that says whether
/// the passphrase is wrong or the file was damaged.
struct BackupReader {
    let archiveID: UUID
    let created: Date
    let parameters: ScryptParameters
    private let checksum: Data
    private let chunkKey: SymmetricKey
    private(set) var nextChunkIndex: UInt64 = 0

    /// Parses the first ``BackupFormat/headerSize`` bytes and unwraps the root key.
    /// - Throws: `.invalidParameter` for a file that is not a backup, `.unsupportedVersion`,
    ///   `.integrityViolation` for a damaged header, `.authFailed` for a wrong passphrase.
    init(header: Data, passphrase: String, source: String) throws(KeychainError) {
        var reader = ByteReader(header)
        guard header.count == BackupFormat.headerSize, reader.readBytes(BackupFormat.magic.count) == BackupFormat.magic
        else {
            throw KeychainError.notABackup(source: source)
        }
        guard reader.readByte() == BackupFormat.version else {
            throw KeychainError.backupFormatTooNew(source: source)
        }
        let prefix = header.prefix(BackupFormat.headerSize - 32)
        guard Data(SHA256.hash(data: prefix)) == header.suffix(32) else {
            throw KeychainError.backupHeaderChecksum(source: source)
        }
        guard let id = reader.readBytes(16), let archiveID = UUID(bytes: id),
            let created = reader.readBigEndian(Int64.self), let logN = reader.readByte(),
            let blockSize = reader.readBigEndian(UInt32.self), let parallelism = reader.readBigEndian(UInt32.self),
            let salt = reader.readBytes(BackupFormat.saltSize),
            let wrapped = reader.readBytes(BackupFormat.wrappedKeySize)
        else {
            throw KeychainError.backupHeaderMalformed(source: source)
        }
        let parameters = ScryptParameters(logN: Int(logN), blockSize: Int(blockSize), parallelism: Int(parallelism))
        guard BackupFormat.acceptsKDF(parameters) else {
            throw KeychainError.backupHeaderParameters(source: source, parameters: parameters)
        }
        let kek = BackupFormat.passphraseKEK(
            try parameters.deriveKey(passphrase: passphrase, salt: salt), archiveID: archiveID)
        var root: Data
        do {
            root = try AES.GCM.open(
                AES.GCM.SealedBox(combined: wrapped), using: kek,
                authenticating: header.prefix(BackupFormat.headerSize - 32 - BackupFormat.wrappedKeySize))
        } catch {
            throw KeychainError.wrongBackupPassphrase(source: source)
        }
        self.archiveID = archiveID
        self.created = Date(timeIntervalSince1970: TimeInterval(created))
        self.parameters = parameters
        self.checksum = Data(header.suffix(32))
        self.chunkKey = BackupFormat.chunkKey(SymmetricKey(data: root))
        SecretWiping.wipe(&root)
    }

    /// Opens the next chunk; `isLast` says whether the file ends right after it.
    /// - Returns: its item records, and the trailer when it is the last chunk.
    mutating func openChunk(_ sealed: Data, isLast: Bool, source: String) throws(KeychainError) -> (
        records: [BackupRecord], trailer: BackupTrailer?
    ) {
        var plaintext = try openPlaintext(sealed, isLast: isLast, source: source)
        defer { SecretWiping.wipe(&plaintext) }  // best effort: the records keep their own copies
        var reader = ByteReader(plaintext)
        defer { reader.wipe() }
        var records: [BackupRecord] = []
        while !reader.isAtEnd {
            switch reader.readByte().flatMap(BackupFormat.RecordKind.init(rawValue:)) {
            case .item:
                guard let classBytes = reader.readLengthPrefixed(),
                    let itemClass = ItemClass(rawValue: String(decoding: classBytes, as: UTF8.self)),
                    itemClass.isStored,
                    let encoded = reader.readLengthPrefixed(), let attributes = AttributeCodec.decode(encoded),
                    let data = reader.readLengthPrefixed()
                else {
                    throw KeychainError.backupRecordMalformed(source: source, chunk: nextChunkIndex - 1)
                }
                records.append(BackupRecord(itemClass: itemClass, attributes: attributes, data: data))
            case .trailer:
                guard isLast, let count = reader.readBigEndian(UInt64.self),
                    let thisDeviceOnly = reader.readBigEndian(UInt64.self),
                    let nonExtractable = reader.readBigEndian(UInt64.self), reader.isAtEnd
                else {
                    throw KeychainError.backupTrailerMalformed(source: source)
                }
                return (
                    records,
                    BackupTrailer(
                        itemCount: count,
                        skipped: .init(thisDeviceOnly: thisDeviceOnly, nonExtractableKeys: nonExtractable))
                )
            case nil:
                throw KeychainError.backupRecordKind(source: source, chunk: nextChunkIndex - 1)
            }
        }
        if isLast { throw KeychainError.backupWithoutTrailer(source: source) }
        return (records, nil)
    }

    /// Authenticates and decrypts the next chunk, without parsing its records.
    mutating func openPlaintext(_ sealed: Data, isLast: Bool, source: String) throws(KeychainError) -> Data {
        let ad = BackupFormat.chunkAssociatedData(checksum: checksum, index: nextChunkIndex, isLast: isLast)
        do {
            let plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: chunkKey, authenticating: ad)
            nextChunkIndex += 1
            return plaintext
        } catch {
            throw KeychainError.backupChunkAuthentication(source: source, chunk: nextChunkIndex)
        }
    }
}
