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

    /// Seals chunk `index` (`isLast` for the final one): its ciphertext and tag, as the file
    /// holds them (a slice of the sealed box's own storage, not a copy).
    func seal<Plaintext: DataProtocol>(_ plaintext: Plaintext, index: UInt32, isLast: Bool)
        throws(SecureStorageError) -> Data
    {
        let combined: Data?
        do {
            combined = try AES.GCM.seal(
                plaintext, using: key, nonce: nonce(index, isLast), authenticating: headerDigest
            )
            .combined
        } catch {
            throw .underlying(errSecInternalComponent)
        }
        // nonce, ciphertext, tag: the nonce is not stored (it follows from the chunk's place)
        guard let combined else { throw .underlying(errSecInternalComponent) }
        return combined.dropFirst(Self.nonceSize)
    }

    /// Bytes of the nonce in a sealed box's combined form.
    private static let nonceSize = 12

    /// Opens chunk `index` from `sealed` into `output`, which holds exactly its plaintext
    /// (`sealed.count - tagSize` bytes); `integrityViolation` when it is not exactly what was
    /// sealed there (nothing of it is then in `output`'s place worth reading).
    func open(
        _ sealed: UnsafeRawBufferPointer, index: UInt32, isLast: Bool, into output: UnsafeMutableRawBufferPointer
    ) throws(SecureStorageError) {
        guard sealed.count >= Self.tagSize, sealed.count <= sealedChunkSize,
            output.count == sealed.count - Self.tagSize
        else { throw .integrityViolation }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: nonce(index, isLast), ciphertext: UnsafeRawBufferPointer(rebasing: sealed[..<output.count]),
                tag: UnsafeRawBufferPointer(rebasing: sealed[output.count...]))
            let plaintext = try AES.GCM.open(box, using: key, authenticating: headerDigest)
            plaintext.withUnsafeBytes { output.copyMemory(from: $0) }
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
