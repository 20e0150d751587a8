#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainServices

/// Seals and opens a protected file's content in chunks (the STREAM construction of age and
/// Tink): each chunk is sealed with AES-256-GCM under the file's content key, with a nonce made
/// of a per-file prefix, the chunk's number and a flag set only on the last chunk, and the
/// header as authenticated data.
///
/// So chunks cannot be reordered (the number is wrong), dropped from the end (the new last chunk
/// lacks the flag), followed by more (nothing may follow the flagged chunk), or moved into
/// another file (another key and header). Every chunk but the last holds exactly
/// ``ProtectedFileHeader/chunkSize`` bytes; an empty file is one empty last chunk.
struct ChunkCipher: Sendable {
    static let tagSize = 16

    private let key: SymmetricKey
    private let noncePrefix: Data
    private let headerDigest: Data
    let chunkSize: Int

    /// The cipher for a file's key and header.
    init(fileKey: SymmetricKey, header: ProtectedFileHeader) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: fileKey, salt: header.fileID, info: Data("ssf1/content".utf8), outputByteCount: 32)
        noncePrefix = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: fileKey, salt: header.fileID, info: Data("ssf1/nonce".utf8), outputByteCount: 7
        )
        .withUnsafeBytes { Data($0) }
        headerDigest = Data(SHA256.hash(data: header.encoded[ProtectedFileHeader.sealedRange]))
        chunkSize = header.chunkSize
    }

    /// Bytes a sealed full chunk takes in the file.
    var sealedChunkSize: Int { chunkSize + Self.tagSize }

    /// Seals chunk `index` (`isLast` for the final one).
    func seal(_ plaintext: Data, index: UInt32, isLast: Bool) throws(SecureStorageError) -> Data {
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce(index, isLast), authenticating: headerDigest)
            return box.ciphertext + box.tag
        } catch {
            throw .underlying(errSecInternalComponent)
        }
    }

    /// Opens chunk `index`; `integrityViolation` when it is not exactly what was sealed there.
    func open(_ sealed: Data, index: UInt32, isLast: Bool) throws(SecureStorageError) -> Data {
        guard sealed.count >= Self.tagSize, sealed.count <= sealedChunkSize else { throw .integrityViolation }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: nonce(index, isLast), ciphertext: sealed.dropLast(Self.tagSize), tag: sealed.suffix(Self.tagSize)
            )
            return try AES.GCM.open(box, using: key, authenticating: headerDigest)
        } catch {
            throw .integrityViolation
        }
    }

    /// How many chunks a file body of `bodySize` bytes holds, and the plaintext size; `nil` when
    /// no sequence of chunks this format writes has that size.
    func layout(bodySize: Int) -> (chunks: Int, plaintextSize: Int)? {
        guard bodySize >= Self.tagSize else { return nil }
        let chunks = (bodySize + sealedChunkSize - 1) / sealedChunkSize
        let last = bodySize - (chunks - 1) * sealedChunkSize
        guard last >= Self.tagSize, chunks <= Int(UInt32.max) else { return nil }
        return (chunks, bodySize - chunks * Self.tagSize)
    }

    private func nonce(_ index: UInt32, _ isLast: Bool) throws -> AES.GCM.Nonce {
        var bytes = noncePrefix
        withUnsafeBytes(of: index.bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(isLast ? 1 : 0)
        return try AES.GCM.Nonce(data: bytes)
    }
}
#endif
