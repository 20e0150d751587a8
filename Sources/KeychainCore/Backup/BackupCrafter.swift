import Crypto
import Foundation

/// Backup files with chosen chunk contents, sealed exactly as ``Keychain/exportBackup(to:passphrase:replacingExisting:progress:)``
/// seals them, and the reverse. With it a fuzzer reaches the record parser that authentication
/// otherwise keeps out of its reach: the threat is a crafted backup whose passphrase the
/// attacker tells the victim. For tests and fuzzing only (`@_spi(Fuzzing)`), not a stable API.
///
/// ```swift
/// @_spi(Fuzzing) import KeychainCore
/// let crafter = try BackupCrafter(passphrase: "fuzz")
/// let file = try crafter.backup(chunkPlaintexts: [records])
/// ```
@_spi(Fuzzing)
public struct BackupCrafter: Sendable {
    private let writer: BackupWriter

    /// Derives the passphrase key once, with the cheapest scrypt parameters a reader accepts.
    public init(passphrase: String) throws(KeychainError) {
        writer = try BackupWriter(
            passphrase: passphrase, parameters: ScryptParameters(logN: 10, blockSize: 8, parallelism: 1))
    }

    /// A complete backup file whose chunks hold `chunkPlaintexts` in order, the last marked last.
    public func backup(chunkPlaintexts: [Data]) throws(KeychainError) -> Data {
        var file = writer.header
        for (index, plaintext) in chunkPlaintexts.enumerated() {
            file.append(
                try writer.sealChunk(plaintext, index: UInt64(index), isLast: index == chunkPlaintexts.count - 1))
        }
        return file
    }

    /// `file` with its header checksum recomputed over its (possibly edited) header, so the
    /// reader gets past the checksum to the fields behind it. Files shorter than a header are
    /// returned as they are.
    public static func fixingHeaderChecksum(of file: Data) -> Data {
        guard file.count >= BackupFormat.headerSize else { return file }
        var fixed = file
        let checksumStart = fixed.startIndex + BackupFormat.headerSize - 32
        fixed.replaceSubrange(
            checksumStart..<checksumStart + 32, with: Data(SHA256.hash(data: fixed[fixed.startIndex..<checksumStart])))
        return fixed
    }

    /// The decrypted chunk contents of the backup at `url`, in order.
    public static func chunkPlaintexts(ofBackupAt url: URL, passphrase: String) throws(KeychainError) -> [Data] {
        let input = try BackupInput(path: url.path)
        var reader = try BackupReader(
            header: input.read(BackupFormat.headerSize), passphrase: passphrase, source: url.path)
        var plaintexts: [Data] = []
        while true {
            let (sealed, isLast) = try input.nextChunk(source: url.path)
            plaintexts.append(try reader.openPlaintext(sealed, isLast: isLast, source: url.path))
            if isLast { return plaintexts }
        }
    }
}
