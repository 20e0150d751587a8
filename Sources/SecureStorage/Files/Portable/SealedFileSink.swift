#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorageFoundation

/// Writes a sealed file into a private temporary file, one chunk as soon as it is full, and
/// renames it over the file's name on commit. Plaintext is held only for the chunk being filled.
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
            state.pending.append(data)
            let chunkSize = state.key.header.chunkSize
            // A chunk is sealed once more data follows it: only the last one carries the flag.
            var start = state.pending.startIndex
            while state.pending.endIndex - start > chunkSize {
                let sealed = try cipher.seal(
                    state.pending[start..<(start + chunkSize)], index: state.nextIndex, isLast: false)
                try Self.failing(into: &state, directory, temporary) { () throws(SecureStorageError) in
                    try StoreDirectory.writeAll(sealed, to: fd)
                }
                start += chunkSize
                state.nextIndex += 1
            }
            // One copy of the rest, rather than one per chunk sealed.
            if start != state.pending.startIndex { state.pending = Data(state.pending[start...]) }
        }
    }

    func commit() throws(SecureStorageError) {
        try state.withLock { (state: inout State) throws(SecureStorageError) in
            guard let fd = state.descriptor else { throw .underlying(errSecParam) }
            let cipher = try state.key.current()
            let sealed = try cipher.seal(state.pending, index: state.nextIndex, isLast: true)
            try Self.failing(into: &state, directory, temporary) { () throws(SecureStorageError) in
                try StoreDirectory.writeAll(sealed, to: fd)
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
