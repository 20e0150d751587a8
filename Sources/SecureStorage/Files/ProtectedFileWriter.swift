import Foundation

/// A protected file being written in pieces, from ``ProtectedFiles/create(_:protection:)``.
/// Nothing appears under the file's name until ``commit()``; then the whole file replaces the
/// previous one at once. Dropping the writer without committing discards what was written.
///
/// ```swift
/// let writer = try files.create("export.csv", protection: .completeUntilFirstUserAuthentication)
/// for row in rows { try writer.write(Data(row.utf8)) }
/// try writer.commit()
/// ```
///
/// On Linux, a ``FileProtection/complete`` file's writer fails with `.locked` once the keychain
/// is locked, and works again after an unlock; the other classes keep writing.
public final class ProtectedFileWriter: Sendable {
    private let sink: any ProtectedFileSink
    /// The file, for error messages.
    private let subject: FileSubject

    init(sink: any ProtectedFileSink, subject: FileSubject) {
        self.sink = sink
        self.subject = subject
    }

    /// Appends `data`.
    public func write(_ data: Data) throws(SecureStorageError) {
        do { try sink.write(data) } catch { throw error.about(subject) }
    }

    /// Finishes the file and puts it in place, durably. After an error the previous file is
    /// still there and this writer is finished.
    public func commit() throws(SecureStorageError) {
        do { try sink.commit() } catch { throw error.about(subject) }
    }

    /// Abandons the file: the previous one stays as it was.
    public func discard() { sink.discard() }
}
