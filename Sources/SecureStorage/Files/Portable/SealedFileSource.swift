#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorageFoundation

/// Reads a sealed file in runs of chunks opened on every core (``ChunkWork``), returning only
/// bytes whose chunk verified. A file cut short, extended or reordered fails with
/// `.integrityViolation` at the chunk where it shows: the chunks before it are returned first.
final class SealedFileSource: ProtectedFileSource {
    private struct State {
        var descriptor: Int32?
        var key: SealedFileKey
        /// Verified plaintext not yet returned, from `consumed` on.
        var buffer = Data()
        var consumed = 0
        /// The next chunk to open.
        var nextIndex = 0
        /// The error of the chunk after those in `buffer`, told once they are returned (the
        /// chunk is tried again at the next read: a `.locked` one opens after an unlock).
        var failure: SecureStorageError?
    }

    let count: Int
    private let chunkCount: Int
    private let fileSize: Int
    private let chunkSize: Int
    private let state: Locked<State>

    /// Opens a file whose header was read and checked from `fd` (which this source now owns).
    init(descriptor fd: Int32, fileSize: Int, key: SealedFileKey, cipher: ChunkCipher) throws(SecureStorageError) {
        guard let layout = cipher.layout(bodySize: fileSize - ProtectedFileHeader.size) else {
            StoreDirectory.closeDescriptor(fd)
            throw .integrityViolation
        }
        count = layout.plaintextSize
        chunkCount = layout.chunks
        chunkSize = cipher.chunkSize
        self.fileSize = fileSize
        state = Locked(State(descriptor: fd, key: key))
    }

    deinit { close() }

    func read(upToCount limit: Int) throws(SecureStorageError) -> Data? {
        try state.withLock { (state: inout State) throws(SecureStorageError) -> Data? in
            guard state.descriptor != nil else { throw .underlying(errSecParam) }
            // An empty last chunk (an empty file) gives no bytes: on to the end.
            while state.consumed == state.buffer.count {
                if let failure = state.failure {
                    state.failure = nil
                    throw failure
                }
                guard state.nextIndex < chunkCount else { return nil }
                // As many chunks as the count asks for, so that what stays in memory after the
                // call is at most the rest of one chunk.
                let wanted = min(
                    ChunkWork.batchChunks, chunkCount - state.nextIndex,
                    max(1, (min(limit, ChunkWork.batchChunks * chunkSize) + chunkSize - 1) / chunkSize))
                var plaintext = Data(count: plaintextSize(of: state.nextIndex..<(state.nextIndex + wanted)))
                let opened = try plaintext.withUnsafeMutableBytes { output in
                    Result { () throws(SecureStorageError) in try open(wanted, into: output, &state) }
                }.get()
                state.buffer = opened == wanted ? plaintext : plaintext.prefix(opened * chunkSize)
                state.consumed = 0
            }
            let taken = min(max(limit, 0), state.buffer.count - state.consumed)
            if state.consumed == 0 && taken == state.buffer.count {
                defer { state.buffer = Data() }
                state.consumed = 0
                return state.buffer
            }
            let start = state.buffer.startIndex + state.consumed
            state.consumed += taken
            return Data(state.buffer[start..<(start + taken)])
        }
    }

    /// The rest of the file, opened straight into the returned buffer. The buffer grows with
    /// what verified (``GrowingBuffer``), never by the file's length alone: a file extended on
    /// disk to a terabyte fails at its first forged chunk having reserved little more than the
    /// chunks before it.
    func readToEnd() throws(SecureStorageError) -> Data {
        try state.withLock { (state: inout State) throws(SecureStorageError) -> Data in
            guard state.descriptor != nil else { throw .underlying(errSecParam) }
            var result = GrowingBuffer(
                limit: state.buffer.count - state.consumed + plaintextSize(of: state.nextIndex..<chunkCount))
            let start = state.buffer.startIndex + state.consumed
            let buffered = state.buffer[start...]
            try result.append(buffered.count) { $0.copyBytes(from: buffered) }
            state.buffer = Data()
            state.consumed = 0
            if let failure = state.failure {
                state.failure = nil
                throw failure
            }
            while state.nextIndex < chunkCount {
                let wanted = min(ChunkWork.batchChunks, chunkCount - state.nextIndex)
                let size = plaintextSize(of: state.nextIndex..<(state.nextIndex + wanted))
                var opened = 0
                try result.append(size) { (output: UnsafeMutableRawBufferPointer) throws(SecureStorageError) in
                    opened = try open(wanted, into: output, &state)
                }
                if opened < wanted, let failure = state.failure {
                    state.failure = nil
                    throw failure
                }
            }
            return result.finish()
        }
    }

    /// The plaintext bytes of the chunks `indices`.
    private func plaintextSize(of indices: Range<Int>) -> Int {
        guard let last = indices.last else { return 0 }
        let lastSize = last == chunkCount - 1 ? count - last * chunkSize : chunkSize
        return (indices.count - 1) * chunkSize + lastSize
    }

    /// Reads and opens the next `chunks` chunks into `output` (their plaintext, in order), on
    /// every core, and moves past those that verified.
    /// - Returns: how many chunks from the first verified; when fewer than asked, the next
    ///   one's error is in `state.failure`.
    /// - Throws: the first chunk's error, when not even it verified (nothing moves).
    private func open(_ chunks: Int, into output: UnsafeMutableRawBufferPointer, _ state: inout State)
        throws(SecureStorageError) -> Int
    {
        guard let fd = state.descriptor else { throw .underlying(errSecParam) }
        let cipher = try state.key.current()
        let first = state.nextIndex
        let (chunkCount, fileSize, chunkSize) = (self.chunkCount, self.fileSize, self.chunkSize)
        let shared = SharedChunkBuffer(bytes: output)
        let failure = ChunkWork.run(chunks) { (position: Int) throws(SecureStorageError) in
            let output = shared.bytes
            let index = first + position
            let isLast = index == chunkCount - 1
            let offset = ProtectedFileHeader.size + index * cipher.sealedChunkSize
            let length = isLast ? fileSize - offset : cipher.sealedChunkSize
            let sealed = try StoreDirectory.readBytes(fd, count: length, at: offset)
            guard sealed.count == length else { throw .integrityViolation }
            let place = (position * chunkSize)..<(position * chunkSize + length - ChunkCipher.tagSize)
            try sealed.withUnsafeBytes { bytes in
                Result { () throws(SecureStorageError) in
                    try cipher.open(
                        bytes, index: UInt32(index), isLast: isLast,
                        into: UnsafeMutableRawBufferPointer(rebasing: output[place]))
                }
            }.get()
            // Nothing may have been appended since the file was opened.
            if isLast, try StoreDirectory.size(of: fd) != fileSize { throw .integrityViolation }
        }
        guard let failure else {
            state.nextIndex += chunks
            return chunks
        }
        if failure.index == 0 { throw failure.error }
        state.nextIndex += failure.index
        state.failure = failure.error
        return failure.index
    }

    func close() {
        state.withLock { state in
            if let fd = state.descriptor { StoreDirectory.closeDescriptor(fd) }
            state.descriptor = nil
            state.buffer = Data()
            state.consumed = 0
            state.failure = nil
            state.key.drop()
        }
    }
}
#endif
