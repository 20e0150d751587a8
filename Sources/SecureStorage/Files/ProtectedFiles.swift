import Foundation

/// A directory of files protected like Apple's Data Protection: each file has a
/// ``FileProtection`` class that decides in which lock states it can be read and written.
///
/// ```swift
/// let files = try ProtectedFiles(directory: appSupport.appendingPathComponent("documents"))
/// try files.write(pdf, to: "statement-2026-10.pdf", protection: .complete)
/// let pdf = try files.read("statement-2026-10.pdf")          // .locked while locked
///
/// // Large files, in chunks:
/// let writer = try files.create("recording.m4a", protection: .completeUnlessOpen)
/// for try await buffer in microphone { try writer.write(buffer) }   // goes on while locked
/// try writer.commit()                                               // appears atomically
/// ```
///
/// Every write replaces the file atomically (a temporary file, `fsync`, `rename`, `fsync` of the
/// directory): after a crash the file is whole, old or new. Files are readable by this user
/// only (0600, in a 0700 directory that is checked before use).
///
/// **On Apple platforms** the files are ordinary files with the system's
/// `FileProtectionType`, and the system encrypts and enforces. **On Linux** SecureStorage
/// does: each file is encrypted with its own key (AES-256-GCM in 64 KiB chunks), wrapped by
/// a key of its class that the keychain keeps like any item of the matching protection, so
/// the keychain's lock state decides. There a file that was changed, cut short, extended, or
/// renamed or copied by other means than this type fails with
/// ``SecureStorageError/integrityViolation`` and none of it is returned. Names, sizes and times
/// are not hidden, and a file replaced by an older version of itself is not detected.
///
/// The article <doc:ProtectedFileStorage> describes the format and what it defends.
public struct ProtectedFiles: Sendable, CustomStringConvertible {
    /// The directory holding the files.
    public let directory: URL
    /// The name of the store's keys in the keychain (on Linux). Two stores with the same
    /// identifier share keys, so give each directory its own.
    public let identifier: String
    let backend: any ProtectedFilesBackend

    /// Opens the store in `directory`, creating the directory (mode 0700) when it is missing.
    ///
    /// - Parameters:
    ///   - directory: the store's directory; created with its parents when missing.
    ///   - identifier: names the store's keys in the keychain (Linux); one per directory.
    ///   - accessGroup: the keychain access group of those keys, to share a store with other
    ///     apps of the group.
    ///   - deviceBound: on Linux, keep the keys `…ThisDeviceOnly`: they stay out of keychain
    ///     backups, so a restored backup cannot open the files. By default they travel with the
    ///     keychain, as Apple restores protected files from a backup.
    /// - Throws: ``SecureStorageError/insecureFile`` when the directory is a link, belongs to
    ///   another user or is open to others; ``SecureStorageError/fileSystem(errno:)`` when it
    ///   cannot be created.
    public init(directory: URL, identifier: String = "default", accessGroup: String? = nil, deviceBound: Bool = false)
        throws(SecureStorageError)
    {
        self.directory = directory
        self.identifier = identifier
        do {
            #if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
            backend = try SealedFileStore(
                directory: directory, identifier: identifier, accessGroup: accessGroup, deviceBound: deviceBound)
            #else
            backend = try DataProtectionFileStore(directory: directory)
            #endif
        } catch {
            throw error.about(.directory(directory))
        }
    }

    /// The directory and identifier.
    public var description: String { "ProtectedFiles(\(directory.path), identifier: \(identifier))" }

    /// The keychain service of a store's keys on Linux: `SecureStorage.files/<identifier>`.
    /// Deleting its items makes the store's files unreadable for good (`keychain list` does not
    /// show them unless asked for the service).
    public static func keyService(for identifier: String) -> String { keyServicePrefix + identifier }

    /// The prefix of every store's key service.
    public static let keyServicePrefix = "SecureStorage.files/"

    // MARK: - Whole files

    /// Writes `data` as the file `name`, replacing any previous file atomically.
    /// - Throws: `.locked` when the class cannot be written in the current lock state (the
    ///   previous file is kept); ``SecureStorageError/fileSystem(errno:)`` for a full disk.
    public func write(_ data: Data, to name: String, protection: FileProtection) throws(SecureStorageError) {
        let writer = try create(name, protection: protection)
        try writer.write(data)
        try writer.commit()
    }

    /// The whole content of the file `name`.
    /// - Throws: `.notFound`; `.locked` when its class is unavailable in the current lock
    ///   state; ``SecureStorageError/integrityViolation`` when it was altered (nothing is returned).
    public func read(_ name: String) throws(SecureStorageError) -> Data {
        let reader = try open(name)
        defer { reader.close() }
        return try reader.readToEnd()
    }

    // MARK: - Streams

    /// Starts writing the file `name` in pieces; it replaces any previous file only at
    /// ``ProtectedFileWriter/commit()``.
    public func create(_ name: String, protection: FileProtection) throws(SecureStorageError) -> ProtectedFileWriter {
        try about(name) { () throws(SecureStorageError) in
            try Self.requireValid(name)
            return ProtectedFileWriter(
                sink: try backend.create(name, protection: protection), subject: .file(name, in: directory))
        }
    }

    /// Opens the file `name` to read it in pieces.
    public func open(_ name: String) throws(SecureStorageError) -> ProtectedFileReader {
        try about(name) { () throws(SecureStorageError) in
            try Self.requireValid(name)
            return ProtectedFileReader(source: try backend.open(name), subject: .file(name, in: directory))
        }
    }

    // MARK: - Names and classes

    /// The class the file `name` was written with. Works in every lock state.
    public func protection(of name: String) throws(SecureStorageError) -> FileProtection {
        try about(name) { () throws(SecureStorageError) in
            try Self.requireValid(name)
            return try backend.protection(of: name)
        }
    }

    /// Rewrites the file `name` with another class, atomically: for example to
    /// ``FileProtection/complete`` once a file created while locked as
    /// ``FileProtection/completeUnlessOpen`` is finished and the device is unlocked.
    public func setProtection(_ protection: FileProtection, of name: String) throws(SecureStorageError) {
        try about(name) { () throws(SecureStorageError) in
            try Self.requireValid(name)
            try backend.rewrite(name, protection: protection)
        }
    }

    /// Renames a file, replacing any file called `newName`. Works in every lock state.
    public func move(_ name: String, to newName: String) throws(SecureStorageError) {
        try about(name) { () throws(SecureStorageError) in try Self.requireValid(name) }
        try about(newName) { () throws(SecureStorageError) in try Self.requireValid(newName) }
        try about(name) { () throws(SecureStorageError) in try backend.move(name, to: newName) }
    }

    /// Removes the file `name`. Works in every lock state.
    /// - Returns: `false` when there was no such file.
    @discardableResult
    public func remove(_ name: String) throws(SecureStorageError) -> Bool {
        try about(name) { () throws(SecureStorageError) in
            try Self.requireValid(name)
            return try backend.remove(name)
        }
    }

    /// The names of the store's files (regular files with a valid name), sorted.
    public func names() throws(SecureStorageError) -> [String] {
        try about(nil) { () throws(SecureStorageError) in try backend.names() }
    }

    /// Removes the store's keys from the keychain (on Linux), then every regular file with a
    /// valid name in the directory, so that no copy of a file (a backup, a disk image) can be
    /// opened any more. Subdirectories and other entries are left alone.
    public func destroy() throws(SecureStorageError) {
        try about(nil) { () throws(SecureStorageError) in try backend.destroy() }
    }

    /// After a passphrase change made because the old one leaked: rewrites every file still
    /// under the store's keys from before the change (each as a new file, replaced atomically)
    /// and deletes those keys, so that an old copy of the keychain with the old passphrase opens
    /// none of the files. Files of class ``FileProtection/none`` are left as they are (their key
    /// depends on the device key only). Run it while no other process writes to the store: a
    /// process still locked since the change may write with the keys this deletes.
    ///
    /// On Apple platforms the system keeps the class keys and this does nothing.
    /// - Returns: the number of files rewritten.
    /// - Throws: `.locked` unless the keychain is unlocked; an error of a file that does not
    ///   open, in which case the older keys are kept.
    @discardableResult
    public func rekey() throws(SecureStorageError) -> Int {
        try about(nil) { () throws(SecureStorageError) in try backend.rekey() }
    }

    // MARK: - Names

    /// Whether `name` is a valid file name: one path component of ASCII letters, digits, `.`,
    /// `_` and `-`, 1 to 200 characters, not starting with a dot.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...200).contains(bytes.count), bytes[0] != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")].contains(byte)
        }
    }

    private static func requireValid(_ name: String) throws(SecureStorageError) {
        guard isValidName(name) else { throw .invalidName }
    }

    /// Runs `body`; its error is told about the file `name` (the directory with `nil`).
    func about<T>(_ name: String?, _ body: () throws(SecureStorageError) -> T) throws(SecureStorageError) -> T {
        do {
            return try body()
        } catch {
            throw error.about(name.map { .file($0, in: directory) } ?? .directory(directory))
        }
    }
}
