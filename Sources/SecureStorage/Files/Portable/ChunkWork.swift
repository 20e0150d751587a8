#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Dispatch
import Foundation
import SecureStorageFoundation

/// Seals or opens a run of a file's chunks on every core. Each chunk is independent (its own
/// nonce from its number and flag), so their order in the file and what binds them is the
/// format's, whichever thread does the work; each chunk's worker also does its own read or write
/// at the chunk's offset, so file I/O overlaps the cryptography.
///
/// At most ``batchChunks`` chunks are handed out at a time, so a huge file holds a bounded number
/// of chunks in memory beside the caller's own buffer.
enum ChunkWork {
    /// The most chunks one call works on (4 MiB of 64 KiB chunks).
    static let batchChunks = 64

    /// Runs `body` for each index in `0..<count`, concurrently when there is more than one.
    /// - Returns: the lowest failing index and its error; `nil` when every call succeeded.
    static func run(_ count: Int, _ body: @Sendable (Int) throws(SecureStorageError) -> Void) -> (
        index: Int, error: SecureStorageError
    )? {
        if count == 1 {
            do { try body(0) } catch { return (0, error) }
            return nil
        }
        let failure = Locked<(index: Int, error: SecureStorageError)?>(nil)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            // Chunks after a failure are not worth the work.
            if let earlier = failure.withLock({ $0 }), earlier.index < index { return }
            do throws(SecureStorageError) {
                try body(index)
            } catch {
                failure.withLock { current in
                    if let earlier = current, earlier.index < index { return }
                    current = (index, error)
                }
            }
        }
        return failure.withLock { $0 }
    }
}

/// A buffer the workers of one ``ChunkWork`` run share while the run lasts, each reading or
/// writing only the bytes of its own chunk, so that no two touch the same byte.
struct SharedChunkBuffer<Pointer>: @unchecked Sendable {
    let bytes: Pointer
}
#endif
