import Crypto
import Foundation
import SecureStorageFoundation

/// The keychain backup file format, version 1.
///
/// ```
/// header  "SSBACKUP" ‖ version 1 ‖ archive id (16) ‖ created (i64 s since 1970)
///         ‖ scrypt log2 N (1) ‖ r (u32) ‖ p (u32) ‖ salt (32)
///         ‖ wrapped root key: AES-GCM(K_bk) under HKDF(scrypt(passphrase)), AD = the bytes before it
///         ‖ SHA-256 of everything before it (tells corruption from a wrong passphrase)
/// chunks  repeated: length (u32) ‖ AES-GCM(records) under HKDF(K_bk, "sv1/backup/chunk"),
///         AD = header checksum ‖ chunk index (u64) ‖ is-last (u8)
/// ```
///
/// A record is `1 ‖ class ‖ attributes ‖ data` (length-prefixed; attributes in the keychain's
/// own attribute encoding) or, last in the last chunk, the trailer `2 ‖ item count (u64) ‖
/// skipped this-device-only items (u64) ‖ skipped non-extractable keys (u64)`. Editing, reordering, dropping or appending a chunk,
/// or cutting the file short, fails authentication or the trailer check.
enum BackupFormat {
    static let magic = Data("SSBACKUP".utf8)
    static let version: UInt8 = 1
    static let saltSize = 32
    static let wrappedKeySize = 12 + 32 + 16
    static let headerSize = magic.count + 1 + 16 + 8 + 1 + 4 + 4 + saltSize + wrappedKeySize + 32
    /// Records per chunk; a chunk also closes when it passes ``chunkBytes``.
    static let chunkRecords = 1024
    static let chunkBytes = 1 << 20
    /// The largest chunk a reader accepts (a forged length must not allocate gigabytes).
    static let maximumChunkBytes = 64 << 20
    /// The costliest scrypt a reader accepts from a header (a forged header must not make the
    /// reader allocate or compute without bound): the bounds every stored parameter set obeys
    /// (``ScryptParameters/bounds``).
    static func acceptsKDF(_ parameters: ScryptParameters) -> Bool {
        parameters.isWithinBounds
    }

    enum RecordKind: UInt8 { case item = 1, trailer = 2 }

    static func chunkKey(_ root: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: root, info: Data("sv1/backup/chunk".utf8), outputByteCount: 32)
    }

    static func passphraseKEK(_ passphraseKey: SymmetricKey, archiveID: UUID) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: passphraseKey, salt: archiveID.bytes,
            info: Data("sv1/backup/passphrase-kek".utf8), outputByteCount: 32)
    }

    static func chunkAssociatedData(checksum: Data, index: UInt64, isLast: Bool) -> Data {
        var writer = ByteWriter()
        writer.append(checksum)
        writer.append(bigEndian: index)
        writer.append(isLast ? 1 : 0)
        return writer.data
    }
}

/// One item in a backup.
struct BackupRecord {
    var itemClass: ItemClass
    var attributes: [AttributeKey: AttributeValue]
    var data: Data
}

/// The counts the last chunk carries.
struct BackupTrailer: Equatable {
    /// Items the export left out, by reason (never by name).
    struct Skipped: Equatable {
        var thisDeviceOnly: UInt64 = 0
        var nonExtractableKeys: UInt64 = 0
    }

    var itemCount: UInt64
    var skipped: Skipped
}
