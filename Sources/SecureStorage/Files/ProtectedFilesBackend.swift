import Foundation

/// What ``ProtectedFiles`` needs from a platform: the sealed files of SecureStorage on Linux,
/// the system's Data Protection on Apple platforms. Names are validated before they get here.
protocol ProtectedFilesBackend: Sendable {
    /// Starts a new file that replaces `name` when committed.
    func create(_ name: String, protection: FileProtection) throws(SecureStorageError) -> any ProtectedFileSink
    /// Opens `name` for reading.
    func open(_ name: String) throws(SecureStorageError) -> any ProtectedFileSource
    /// The class `name` was written with.
    func protection(of name: String) throws(SecureStorageError) -> FileProtection
    /// Renames `name`, replacing any file called `newName`.
    func move(_ name: String, to newName: String) throws(SecureStorageError)
    /// Removes `name`; `false` when there was none.
    func remove(_ name: String) throws(SecureStorageError) -> Bool
    /// Every file's name.
    func names() throws(SecureStorageError) -> [String]
    /// Removes every file and, where the platform has them, the store's keys.
    func destroy() throws(SecureStorageError)
    /// Moves every file to the store's current keys and deletes the older ones; the number of
    /// files rewritten.
    func rekey() throws(SecureStorageError) -> Int
}

extension ProtectedFilesBackend {
    /// Writes the content of `name` again as a new file of `protection` (a new key, the store's
    /// current keys), replacing it atomically.
    func rewrite(_ name: String, protection: FileProtection) throws(SecureStorageError) {
        let source = try open(name)
        defer { source.close() }
        let sink = try create(name, protection: protection)
        while let piece = try source.read(upToCount: 1 << 20) { try sink.write(piece) }
        try sink.commit()
    }
}

/// A file being written: nothing is visible under its name until ``commit()``.
protocol ProtectedFileSink: Sendable {
    func write(_ data: Data) throws(SecureStorageError)
    func commit() throws(SecureStorageError)
    func discard()
}

/// A file being read from the start.
protocol ProtectedFileSource: Sendable {
    /// The content's size in bytes.
    var count: Int { get }
    /// The next bytes, at most `count`; `nil` at the end.
    func read(upToCount count: Int) throws(SecureStorageError) -> Data?
    /// The rest of the content.
    func readToEnd() throws(SecureStorageError) -> Data
    func close()
}

extension ProtectedFileSource {
    /// The rest of the content, in pieces of 1 MiB.
    func readToEnd() throws(SecureStorageError) -> Data {
        var data = Data()
        while let piece = try read(upToCount: 1 << 20) { data.append(piece) }
        return data
    }
}
