import Foundation

/// A protected file being read in pieces, from ``ProtectedFiles/open(_:)``.
///
/// ```swift
/// let reader = try files.open("recording.m4a")
/// defer { reader.close() }
/// while let piece = try reader.read(upToCount: 1 << 20) { player.enqueue(piece) }
/// ```
///
/// On Linux every piece comes from a chunk that passed its integrity check; a file that was
/// cut short or extended fails with ``SecureStorageError/integrityViolation`` at its end, so
/// act on the content only once `read` has returned `nil`. A ``FileProtection/complete`` file's
/// reader still returns the rest of the 64 KiB chunk it has opened when the keychain locks, then
/// fails with `.locked` and works again after an unlock; a ``FileProtection/completeUnlessOpen``
/// file opened while unlocked stays readable until closed.
public final class ProtectedFileReader: Sendable {
    private let source: any ProtectedFileSource
    /// The file, for error messages.
    private let subject: FileSubject

    init(source: any ProtectedFileSource, subject: FileSubject) {
        self.source = source
        self.subject = subject
    }

    /// The size of the content in bytes, as the file's length gives it. On Linux it is checked
    /// as the chunks are read: a file extended on disk fails there, so do not allocate by it
    /// before reading.
    public var count: Int { source.count }

    /// The next bytes, at most `count` (none for a count of 0 or less); `nil` at the end of the
    /// file, whatever the count. Fails after ``close()``.
    public func read(upToCount count: Int) throws(SecureStorageError) -> Data? {
        do { return try source.read(upToCount: count) } catch { throw error.about(subject) }
    }

    /// The rest of the file.
    public func readToEnd() throws(SecureStorageError) -> Data {
        do { return try source.readToEnd() } catch { throw error.about(subject) }
    }

    /// Closes the file and forgets its key. Reading afterwards fails.
    public func close() { source.close() }
}
