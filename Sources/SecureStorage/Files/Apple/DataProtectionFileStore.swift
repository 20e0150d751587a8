#if canImport(Security) && !SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainServices
import SecureStorageFoundation

/// ``ProtectedFiles`` on Apple platforms: ordinary files carrying the system's
/// `FileProtectionType`, which the system encrypts and enforces. A write goes to a temporary
/// file created with the class, is synchronized, then renamed over the name. Integrity is the
/// file system's (no ``SecureStorageError/integrityViolation`` here). macOS applies the classes
/// only on Apple silicon with FileVault-like protection of the data volume.
struct DataProtectionFileStore: ProtectedFilesBackend {
    let directory: URL

    init(directory: URL) throws(SecureStorageError) {
        self.directory = directory
        try Self.mapped {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let attributes = try Self.mapped { try FileManager.default.attributesOfItem(atPath: directory.path) }
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o777
        let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value
        guard attributes[.type] as? FileAttributeType == .typeDirectory, owner == geteuid(), mode & 0o077 == 0 else {
            throw .insecureFile
        }
        removeAbandonedTemporaries()
    }

    /// The system keeps the class keys: nothing to move.
    func rekey() throws(SecureStorageError) -> Int { 0 }

    /// Removes temporary files of writes that never committed (a crash), once they are an hour
    /// old: a writer still running touches its file far more often.
    private func removeAbandonedTemporaries() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(".") && name.contains(".ssf-") {
            let path = directory.appendingPathComponent(name).path
            if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified.timeIntervalSinceNow < -3600
            {
                unlink(path)
            }
        }
    }

    func create(_ name: String, protection: FileProtection) throws(SecureStorageError) -> any ProtectedFileSink {
        try DataProtectionFileSink(directory: directory, name: name, protection: protection)
    }

    func open(_ name: String) throws(SecureStorageError) -> any ProtectedFileSource {
        // O_NOFOLLOW and O_NONBLOCK: a link or FIFO planted under the name is neither followed nor waited on.
        let fd = openForReading(directory.appendingPathComponent(name).path)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: throw .notFound
            case ELOOP: throw .insecureFile
            case EPERM, EACCES: throw .locked
            case let code: throw .fileSystem(errno: code)
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            info.st_mode & 0o077 == 0
        else {
            close(fd)
            throw .insecureFile
        }
        return DataProtectionFileSource(
            handle: FileHandle(fileDescriptor: fd, closeOnDealloc: true), count: Int(info.st_size))
    }

    func protection(of name: String) throws(SecureStorageError) -> FileProtection {
        let attributes = try Self.mapped {
            try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
        }
        let value = attributes[.protectionKey]
        let raw = (value as? FileProtectionType)?.rawValue ?? value as? String
        switch raw {
        case FileProtectionType.complete.rawValue?: return .complete
        case FileProtectionType.completeUnlessOpen.rawValue?: return .completeUnlessOpen
        case FileProtectionType.none.rawValue?: return .none
        default: return .completeUntilFirstUserAuthentication  // the system's default class
        }
    }

    func move(_ name: String, to newName: String) throws(SecureStorageError) {
        guard rename(directory.appendingPathComponent(name).path, directory.appendingPathComponent(newName).path) == 0
        else {
            throw errno == ENOENT ? .notFound : .fileSystem(errno: errno)
        }
    }

    func remove(_ name: String) throws(SecureStorageError) -> Bool {
        guard unlink(directory.appendingPathComponent(name).path) == 0 else {
            if errno == ENOENT { return false }
            throw .fileSystem(errno: errno)
        }
        return true
    }

    func names() throws(SecureStorageError) -> [String] {
        try regularFiles().filter(ProtectedFiles.isValidName).sorted()
    }

    func destroy() throws(SecureStorageError) {
        for name in try regularFiles() where ProtectedFiles.isValidName(name) || name.contains(".ssf-") {
            _ = try remove(name)
        }
    }

    /// The names of the directory's regular files.
    private func regularFiles() throws(SecureStorageError) -> [String] {
        try Self.mapped { try FileManager.default.contentsOfDirectory(atPath: directory.path) }.filter { name in
            (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path))?[.type]
                as? FileAttributeType == .typeRegular
        }
    }

    /// Runs a Foundation file call, mapping its error: a missing file is `.notFound`, a
    /// permission error on a protected file (the class is unavailable while locked) `.locked`.
    static func mapped<T>(_ body: () throws -> T) throws(SecureStorageError) -> T {
        do {
            return try body()
        } catch {
            let error = error as NSError
            switch (error.domain, error.code) {
            case (NSCocoaErrorDomain, NSFileNoSuchFileError), (NSCocoaErrorDomain, NSFileReadNoSuchFileError):
                throw .notFound
            case (NSCocoaErrorDomain, NSFileReadNoPermissionError), (NSCocoaErrorDomain, NSFileWriteNoPermissionError):
                throw .locked
            case (NSPOSIXErrorDomain, Int(EPERM)), (NSPOSIXErrorDomain, Int(EACCES)): throw .locked
            case (NSPOSIXErrorDomain, let code): throw .fileSystem(errno: Int32(code))
            default:
                let underlying = (error.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap {
                    $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil
                }
                throw .fileSystem(errno: underlying ?? EIO)
            }
        }
    }
}

/// `open(2)` for reading without following a link or waiting on a FIFO (outside the store type,
/// whose `open(_:)` would shadow it).
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
}

/// A temporary file with the class, renamed over the name on commit.
final class DataProtectionFileSink: ProtectedFileSink {
    private let directory: URL
    private let name: String
    private let temporary: URL
    private let handle: Locked<FileHandle?>

    init(directory: URL, name: String, protection: FileProtection) throws(SecureStorageError) {
        self.directory = directory
        self.name = name
        let temporary = directory.appendingPathComponent(".\(name).ssf-\(UUID().uuidString)")
        self.temporary = temporary
        let type: FileProtectionType =
            switch protection {
            case .complete: .complete
            case .completeUnlessOpen: .completeUnlessOpen
            case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
            case .none: .none
            }
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: nil,
                attributes: [.protectionKey: type, .posixPermissions: 0o600])
        else {
            throw .fileSystem(errno: errno == 0 ? EIO : errno)
        }
        do throws(SecureStorageError) {
            handle = Locked(try DataProtectionFileStore.mapped { try FileHandle(forWritingTo: temporary) })
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    deinit { discard() }

    func write(_ data: Data) throws(SecureStorageError) {
        try handle.withLock { (handle: inout FileHandle?) throws(SecureStorageError) in
            guard let file = handle else { throw .underlying(errSecParam) }
            try DataProtectionFileStore.mapped { try file.write(contentsOf: data) }
        }
    }

    func commit() throws(SecureStorageError) {
        try handle.withLock { (handle: inout FileHandle?) throws(SecureStorageError) in
            guard let file = handle else { throw .underlying(errSecParam) }
            handle = nil
            do throws(SecureStorageError) {
                try DataProtectionFileStore.mapped {
                    try file.synchronize()
                    try file.close()
                }
                guard rename(temporary.path, directory.appendingPathComponent(name).path) == 0 else {
                    throw SecureStorageError.fileSystem(errno: errno)
                }
            } catch {
                try? file.close()
                unlink(temporary.path)
                throw error
            }
            let directoryDescriptor = open(directory.path, O_RDONLY)
            if directoryDescriptor >= 0 {
                fsync(directoryDescriptor)
                close(directoryDescriptor)
            }
        }
    }

    func discard() {
        handle.withLock { handle in
            guard let file = handle else { return }
            try? file.close()
            unlink(temporary.path)
            handle = nil
        }
    }
}

/// A file handle; the system refuses reads while the class is unavailable.
final class DataProtectionFileSource: ProtectedFileSource {
    let count: Int
    private let handle: Locked<FileHandle?>

    init(handle: FileHandle, count: Int) {
        self.handle = Locked(handle)
        self.count = count
    }

    deinit { close() }

    func read(upToCount count: Int) throws(SecureStorageError) -> Data? {
        try handle.withLock { (handle: inout FileHandle?) throws(SecureStorageError) -> Data? in
            guard let file = handle else { throw .underlying(errSecParam) }
            guard count > 0 else {
                return try DataProtectionFileStore.mapped { try file.offset() } >= UInt64(self.count) ? nil : Data()
            }
            let data = try DataProtectionFileStore.mapped { try file.read(upToCount: count) }
            return data?.isEmpty == true ? nil : data
        }
    }

    func close() {
        handle.withLock { handle in
            try? handle?.close()
            handle = nil
        }
    }
}
#endif
