#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation

/// ``ProtectedFiles`` where the system has no Data Protection: every file is sealed with its own
/// key (``ProtectedFileHeader``, ``ChunkCipher``), wrapped by the store's key for its class
/// (``FileKeySet``, ``FileKeyWrapping``), in a private directory (``StoreDirectory``).
struct SealedFileStore: ProtectedFilesBackend {
    let directory: StoreDirectory
    let keys: FileKeySet

    init(directory url: URL, identifier: String, accessGroup: String?, deviceBound: Bool) throws(SecureStorageError) {
        directory = try StoreDirectory(url)
        keys = FileKeySet(identifier: identifier, accessGroup: accessGroup, deviceBound: deviceBound)
        directory.removeAbandonedTemporaries()
    }

    func create(_ name: String, protection: FileProtection) throws(SecureStorageError) -> any ProtectedFileSink {
        let namesKey = try keys.namesKey(forWriting: true)
        var (header, fileKey) = try FileKeyWrapping.newHeader(protection: protection, keys: keys)
        header.nameMAC = nameMAC(header, name: name, key: namesKey)
        let cipher = ChunkCipher(fileKey: fileKey, header: header)
        return try SealedFileSink(
            directory: directory, name: name, header: header,
            key: SealedFileKey(header: header, keys: keys, cipher: cipher))
    }

    func open(_ name: String) throws(SecureStorageError) -> any ProtectedFileSource {
        let (fd, header) = try openVerifiedHeader(name)
        do {
            let cipher = ChunkCipher(fileKey: try FileKeyWrapping.fileKey(of: header, keys: keys), header: header)
            return try SealedFileSource(
                descriptor: fd, fileSize: try StoreDirectory.size(of: fd),
                key: SealedFileKey(header: header, keys: keys, cipher: cipher), cipher: cipher)
        } catch {
            StoreDirectory.closeDescriptor(fd)
            throw error
        }
    }

    func protection(of name: String) throws(SecureStorageError) -> FileProtection {
        let (fd, header) = try openVerifiedHeader(name)
        StoreDirectory.closeDescriptor(fd)
        return header.protection
    }

    /// Copies the sealed bytes under the new name with a new name MAC (no file key is needed, so
    /// this works in every lock state), then removes the old name.
    func move(_ name: String, to newName: String) throws(SecureStorageError) {
        guard name != newName else {
            _ = try protection(of: name)
            return
        }
        let (fd, oldHeader) = try openVerifiedHeader(name)
        defer { StoreDirectory.closeDescriptor(fd) }
        var header = oldHeader
        header.nameMAC = nameMAC(header, name: newName, key: try keys.namesKey(forWriting: true))
        let size = try StoreDirectory.size(of: fd)
        let (output, temporary) = try directory.createTemporary(for: newName)
        do throws(SecureStorageError) {
            try StoreDirectory.writeAll(header.encoded, to: output)
            var offset = ProtectedFileHeader.size
            while offset < size {
                let block = try StoreDirectory.readBytes(fd, count: min(1 << 20, size - offset), at: offset)
                guard !block.isEmpty else { throw .integrityViolation }
                try StoreDirectory.writeAll(block, to: output)
                offset += block.count
            }
            try directory.commit(output, temporary: temporary, as: newName)
            StoreDirectory.closeDescriptor(output)
        } catch {
            StoreDirectory.closeDescriptor(output)
            directory.removeTemporary(temporary)
            throw error
        }
        // A file committed under the old name meanwhile is newer than what was moved: keep it.
        if try directory.isSameFile(fd, as: name) { _ = try directory.remove(name) }
    }

    func remove(_ name: String) throws(SecureStorageError) -> Bool {
        try directory.remove(name)
    }

    func names() throws(SecureStorageError) -> [String] {
        try directory.regularFiles().filter(ProtectedFiles.isValidName).sorted()
    }

    /// The keys go first: once they are deleted no copy of any file opens, whatever happens to
    /// the removal of the files.
    func destroy() throws(SecureStorageError) {
        try keys.removeAll()
        for name in try directory.regularFiles()
        where ProtectedFiles.isValidName(name) || name.contains(StoreDirectory.temporaryMarker) {
            _ = try directory.remove(name)
        }
    }

    /// Rewrites every file of an older key generation with the current one (each as a new file
    /// with a new key, replaced atomically), then deletes the older generations' keys, so that
    /// no old copy of the keychain opens any file any more. Needs the keychain unlocked.
    func rekey() throws(SecureStorageError) -> Int {
        guard FileKeySet.isUnlocked else { throw .locked }
        let current = try keys.generationForWriting()
        var rewritten = 0
        for name in try names() {
            let (fd, header) = try openVerifiedHeader(name)
            StoreDirectory.closeDescriptor(fd)
            guard header.protection != .none, header.generation != current else { continue }
            try rewrite(name, protection: header.protection)
            rewritten += 1
        }
        // Only once every file moved: a failure above leaves every key a file may need.
        try keys.removeGenerations(except: current)
        return rewritten
    }

    // MARK: - Headers

    /// Opens `name` and reads its header, checking that it was written under this name in
    /// this store.
    private func openVerifiedHeader(_ name: String) throws(SecureStorageError) -> (Int32, ProtectedFileHeader) {
        let fd = try directory.openForReading(name)
        do throws(SecureStorageError) {
            let header = try ProtectedFileHeader(
                decoding: try StoreDirectory.readBytes(fd, count: ProtectedFileHeader.size, at: 0))
            guard
                HMAC<SHA256>.isValidAuthenticationCode(
                    header.nameMAC, authenticating: nameMessage(header, name: name),
                    using: try keys.namesKey())
            else {
                throw .integrityViolation
            }
            return (fd, header)
        } catch {
            StoreDirectory.closeDescriptor(fd)
            throw error
        }
    }

    /// HMAC-SHA256 of the store, the header's sealed bytes and the name.
    private func nameMAC(_ header: ProtectedFileHeader, name: String, key: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: nameMessage(header, name: name), using: key))
    }

    private func nameMessage(_ header: ProtectedFileHeader, name: String) -> Data {
        var message = Data("ssf1/name".utf8) + keys.storeID + header.encoded[ProtectedFileHeader.sealedRange]
        message.append(contentsOf: withUnsafeBytes(of: UInt32(name.utf8.count).bigEndian) { Array($0) })
        message.append(contentsOf: name.utf8)
        return message
    }
}

extension ProtectedFiles {
    /// The cache of the store's keys (``FileKeyCache``); `nil` where the system keeps them.
    var keyCache: FileKeyCache? { (backend as? SealedFileStore)?.keys.cache }
}
#endif
