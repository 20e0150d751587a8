#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorageFoundation

/// Writes a sealed file into a private temporary file, each chunk at its place as soon as more
/// data follows it (runs of full chunks sealed on every core, ``ChunkWork``), and renames it over
/// the file's name on commit. Plaintext is held only for the chunk being filled.
final class SealedFileSink: ProtectedFileSink {
    private struct State {
        var descriptor: Int32?
        var key: SealedFileKey
        var pending = Data()
        var nextIndex: UInt32 = 0
    }

    private let directory: StoreDirectory
    private let name: String
    private let temporary: String
    private let state: Locked<State>

    /// Creates the temporary file and writes the header.
    init(directory: StoreDirectory, name: String, header: ProtectedFileHeader, key: SealedFileKey)
        throws(SecureStorageError)
    {
        self.directory = directory
        self.name = name
        let (fd, temporary) = try directory.createTemporary(for: name)
        self.temporary = temporary
        state = Locked(State(descriptor: fd, key: key))
        do {
            try StoreDirectory.writeAll(header.encoded, to: fd)
        } catch {
            discard()
            throw error
        }
    }

    deinit { discard() }

    func write(_ data: Data) throws(SecureStorageError) {
        try state.withLock { (state: inout State) throws(SecureStorageError) in
            guard let fd = state.descriptor else { throw .underlying(errSecParam) }
            // Checked before taking the data: a write refused while locked can be repeated.
            let cipher = try state.key.current()
            let chunkSize = cipher.chunkSize
            var input = data[...]
            // A chunk is sealed once more data follows it: only the last one carries the flag.
            if !state.pending.isEmpty {
                let room = chunkSize - state.pending.count
                guard input.count > room else {
                    state.pending.append(input)
                    return
                }
                state.pending.append(input.prefix(room))
                input = input.dropFirst(room)
                try seal(state.pending, chunks: 1, into: &state, fd: fd, cipher: cipher)
                state.pending = Data()
            }
            guard !input.isEmpty else { return }
            let full = (input.count - 1) / chunkSize
            var start = input.startIndex
            while start < input.startIndex + full * chunkSize {
                let chunks = min(ChunkWork.batchChunks, (input.startIndex + full * chunkSize - start) / chunkSize)
                try seal(
                    input[start..<(start + chunks * chunkSize)], chunks: chunks, into: &state, fd: fd, cipher: cipher)
                start += chunks * chunkSize
            }
            // A copy of the rest (at most one chunk), so the caller's buffer is not kept.
            state.pending = Data(input[start...])
        }
    }

    /// Seals `chunks` full chunks of `plaintext` on every core, each written at its place
    /// in the file by its own worker.
    private func seal(
        _ plaintext: Data, chunks: Int, into state: inout State, fd: Int32, cipher: ChunkCipher
    ) throws(SecureStorageError) {
        let first = state.nextIndex
        let failure = plaintext.withUnsafeBytes { buffer in
            let shared = SharedChunkBuffer(bytes: buffer)
            return ChunkWork.run(chunks) { (offset: Int) throws(SecureStorageError) in
                let bytes = shared.bytes
                let index = first + UInt32(offset)
                let range = (offset * cipher.chunkSize)..<((offset + 1) * cipher.chunkSize)
                let sealed = try cipher.seal(
                    UnsafeRawBufferPointer(rebasing: bytes[range]), index: index, isLast: false)
                try StoreDirectory.writeAll(sealed, to: fd, at: Self.offset(of: index, cipher))
            }
        }
        if let failure {
            try Self.failing(into: &state, directory, temporary) { () throws(SecureStorageError) in throw failure.error
            }
        }
        state.nextIndex += UInt32(chunks)
    }

    /// Where chunk `index` starts in the file.
    private static func offset(of index: UInt32, _ cipher: ChunkCipher) -> Int {
        ProtectedFileHeader.size + Int(index) * cipher.sealedChunkSize
    }

    func commit() throws(SecureStorageError) {
        try state.withLock { (state: inout State) throws(SecureStorageError) in
            guard let fd = state.descriptor else { throw .underlying(errSecParam) }
            let cipher = try state.key.current()
            let sealed = try cipher.seal(state.pending, index: state.nextIndex, isLast: true)
            let offset = Self.offset(of: state.nextIndex, cipher)
            try Self.failing(into: &state, directory, temporary) { () throws(SecureStorageError) in
                try StoreDirectory.writeAll(sealed, to: fd, at: offset)
                try directory.commit(fd, temporary: temporary, as: name)
            }
            StoreDirectory.closeDescriptor(fd)
            state.descriptor = nil
            state.pending = Data()
            state.key.drop()
        }
    }

    func discard() {
        state.withLock { state in
            guard let fd = state.descriptor else { return }
            StoreDirectory.closeDescriptor(fd)
            directory.removeTemporary(temporary)
            state.descriptor = nil
            state.pending = Data()
            state.key.drop()
        }
    }

    /// Runs a file-system step; when it fails the temporary file goes (the write cannot be
    /// resumed) and the previous file stays as it was.
    private static func failing(
        into state: inout State, _ directory: StoreDirectory, _ temporary: String,
        _ step: () throws(SecureStorageError) -> Void
    ) throws(SecureStorageError) {
        do {
            try step()
        } catch {
            if let fd = state.descriptor { StoreDirectory.closeDescriptor(fd) }
            directory.removeTemporary(temporary)
            state.descriptor = nil
            state.pending = Data()
            state.key.drop()
            throw error
        }
    }
}
#endif
