#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorageFoundation

/// Reads a sealed file chunk by chunk, returning only bytes whose chunk verified. A file cut
/// short, extended or reordered fails with `.integrityViolation` at the chunk where it shows.
final class SealedFileSource: ProtectedFileSource {
    private struct State {
        var descriptor: Int32?
        var key: SealedFileKey
        var buffer = Data()
        var nextIndex = 0
    }

    let count: Int
    private let chunkCount: Int
    private let fileSize: Int
    private let state: Locked<State>

    /// Opens a file whose header was read and checked from `fd` (which this source now owns).
    init(descriptor fd: Int32, fileSize: Int, key: SealedFileKey, cipher: ChunkCipher) throws(SecureStorageError) {
        guard let layout = cipher.layout(bodySize: fileSize - ProtectedFileHeader.size) else {
            StoreDirectory.closeDescriptor(fd)
            throw .integrityViolation
        }
        count = layout.plaintextSize
        chunkCount = layout.chunks
        self.fileSize = fileSize
        state = Locked(State(descriptor: fd, key: key))
    }

    deinit { close() }

    func read(upToCount limit: Int) throws(SecureStorageError) -> Data? {
        try state.withLock { (state: inout State) throws(SecureStorageError) -> Data? in
            guard state.descriptor != nil else { throw .underlying(errSecParam) }
            while state.buffer.isEmpty {
                guard let fd = state.descriptor else { throw .underlying(errSecParam) }
                guard state.nextIndex < chunkCount else { return nil }
                let cipher = try state.key.current()
                let index = state.nextIndex
                let isLast = index == chunkCount - 1
                let offset = ProtectedFileHeader.size + index * cipher.sealedChunkSize
                let length = isLast ? fileSize - offset : cipher.sealedChunkSize
                let sealed = try StoreDirectory.readBytes(fd, count: length, at: offset)
                guard sealed.count == length else { throw .integrityViolation }
                let plaintext = try cipher.open(sealed, index: UInt32(index), isLast: isLast)
                // Only the last chunk may be short; and nothing may have been appended since.
                guard isLast || plaintext.count == cipher.chunkSize else { throw .integrityViolation }
                if isLast, try StoreDirectory.size(of: fd) != fileSize { throw .integrityViolation }
                state.buffer = plaintext
                state.nextIndex += 1
            }
            let taken = state.buffer.prefix(max(limit, 0))
            state.buffer.removeFirst(taken.count)
            return Data(taken)
        }
    }

    func close() {
        state.withLock { state in
            if let fd = state.descriptor { StoreDirectory.closeDescriptor(fd) }
            state.descriptor = nil
            state.buffer = Data()
            state.key.drop()
        }
    }
}
#endif
