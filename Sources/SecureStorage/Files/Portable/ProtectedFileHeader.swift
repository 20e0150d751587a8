#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// The fixed 152-byte header at the start of every protected file (all integers big-endian):
///
/// | Offset | Size | Field |
/// |---|---|---|
/// | 0 | 4 | magic `SSPF` |
/// | 4 | 1 | format version (1) |
/// | 5 | 1 | protection class (1 complete … 4 none) |
/// | 6 | 1 | chunk size as a power of two (16: 64 KiB) |
/// | 7 | 1 | reserved, 0 |
/// | 8 | 16 | file ID, random |
/// | 24 | 4 | key generation of the store |
/// | 28 | 32 | ephemeral X25519 public key (`completeUnlessOpen`; zero otherwise) |
/// | 60 | 12 | nonce of the wrapped file key |
/// | 72 | 48 | file key, AES-GCM sealed (32 bytes and the tag) |
/// | 120 | 32 | name MAC: HMAC-SHA256 binding the header to the file's name and store |
///
/// The wrapped file key authenticates bytes 0..<60 (class, chunk size, generation, ephemeral
/// key) and every chunk authenticates bytes 0..<120, so no field can be changed without the
/// file failing to open. The name MAC makes a file renamed or copied under another name,
/// or into another store, fail too.
struct ProtectedFileHeader: Equatable {
    static let size = 152
    static let magic = Data("SSPF".utf8)
    static let version: UInt8 = 1
    /// 64 KiB chunks.
    static let defaultChunkShift: UInt8 = 16
    /// The bytes the wrapped file key authenticates.
    static let wrappedRange = 0..<60
    /// The bytes every chunk authenticates (everything but the name MAC).
    static let sealedRange = 0..<120

    var protection: FileProtection
    var chunkShift: UInt8
    var fileID: Data
    var generation: UInt32
    var ephemeralPublicKey: Data
    var wrapNonce: Data
    var wrappedFileKey: Data
    var nameMAC: Data

    /// Plaintext bytes per full chunk.
    var chunkSize: Int { 1 << Int(chunkShift) }

    /// The header's 152 bytes.
    var encoded: Data {
        var data = Self.magic
        data.append(contentsOf: [Self.version, protection.code, chunkShift, 0])
        data.append(fileID)
        withUnsafeBytes(of: generation.bigEndian) { data.append(contentsOf: $0) }
        data.append(ephemeralPublicKey)
        data.append(wrapNonce)
        data.append(wrappedFileKey)
        data.append(nameMAC)
        precondition(data.count == Self.size, "a protected-file header field has the wrong size")
        return data
    }

    /// Reads a header; `integrityViolation` for anything that is not one this version wrote.
    init(decoding bytes: Data) throws(SecureStorageError) {
        let bytes = Data(bytes)  // indices from 0
        guard bytes.count == Self.size, bytes.prefix(4) == Self.magic, bytes[4] == Self.version, bytes[7] == 0,
            let protection = FileProtection(code: bytes[5]), (12...24).contains(bytes[6])
        else {
            throw .integrityViolation
        }
        self.protection = protection
        chunkShift = bytes[6]
        fileID = bytes[8..<24]
        generation = bytes[24..<28].reduce(0) { $0 << 8 | UInt32($1) }
        ephemeralPublicKey = bytes[28..<60]
        wrapNonce = bytes[60..<72]
        wrappedFileKey = bytes[72..<120]
        nameMAC = bytes[120..<152]
    }

    init(
        protection: FileProtection, chunkShift: UInt8 = Self.defaultChunkShift, fileID: Data, generation: UInt32,
        ephemeralPublicKey: Data, wrapNonce: Data, wrappedFileKey: Data, nameMAC: Data = Data(count: 32)
    ) {
        self.protection = protection
        self.chunkShift = chunkShift
        self.fileID = fileID
        self.generation = generation
        self.ephemeralPublicKey = ephemeralPublicKey
        self.wrapNonce = wrapNonce
        self.wrappedFileKey = wrappedFileKey
        self.nameMAC = nameMAC
    }
}
#endif
