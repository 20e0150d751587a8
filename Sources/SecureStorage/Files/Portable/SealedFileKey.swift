#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation

/// The content cipher of one open file, held as its class allows: a ``FileProtection/complete``
/// file's key is dropped as soon as the keychain is found locked (the next read or write says
/// `.locked`) and unwrapped again after an unlock; the other classes keep theirs until the file
/// is closed, so a ``FileProtection/completeUnlessOpen`` file opened while unlocked stays usable.
struct SealedFileKey: Sendable {
    let header: ProtectedFileHeader
    let keys: FileKeySet
    private var cipher: ChunkCipher?

    init(header: ProtectedFileHeader, keys: FileKeySet, cipher: ChunkCipher) {
        self.header = header
        self.keys = keys
        self.cipher = cipher
    }

    /// The cipher for the next chunk.
    /// - Throws: `.locked` for a complete-protection file while the keychain is locked.
    mutating func current() throws(SecureStorageError) -> ChunkCipher {
        if header.protection == .complete && !FileKeySet.isUnlocked {
            cipher = nil
            throw .locked
        }
        if let cipher { return cipher }
        let reopened = ChunkCipher(fileKey: try FileKeyWrapping.fileKey(of: header, keys: keys), header: header)
        cipher = reopened
        return reopened
    }

    /// Forgets the key.
    mutating func drop() { cipher = nil }
}
#endif
