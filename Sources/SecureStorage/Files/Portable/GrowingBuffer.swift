#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices

/// A buffer that grows as it is filled, without copying what it holds: it is `malloc`ed and
/// grown with `realloc`, which for large sizes moves pages rather than bytes, and ends up as the
/// `Data` returned, without a copy. It reserves at most twice what it holds plus the piece being
/// added, and never more than `limit`.
struct GrowingBuffer: ~Copyable {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0
    private var count = 0
    private let limit: Int

    /// An empty buffer for at most `limit` bytes.
    init(limit: Int) { self.limit = limit }

    deinit { free(base) }

    /// Appends `size` bytes that `fill` writes.
    /// - Throws: `fill`'s error (the bytes are not added), or `.underlying(errSecAllocate)`
    ///   when there is no memory for them.
    mutating func append(
        _ size: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(SecureStorageError) -> Void
    ) throws(SecureStorageError) {
        guard size >= 0, count + size <= limit else { throw .integrityViolation }
        if count + size > capacity {
            let grown = min(limit, max(count + size, capacity * 2))
            guard let moved = realloc(base, grown) else { throw .underlying(errSecAllocate) }
            base = moved
            capacity = grown
        }
        // `fill` runs for an empty piece too (an empty file's one chunk is still opened).
        try fill(UnsafeMutableRawBufferPointer(start: base.map { $0 + count }, count: size))
        count += size
    }

    /// The bytes, handed over to a `Data` that frees them.
    consuming func finish() -> Data {
        guard let base, count > 0 else { return Data() }
        self.base = nil
        return Data(bytesNoCopy: base, count: count, deallocator: .free)
    }
}
#endif
