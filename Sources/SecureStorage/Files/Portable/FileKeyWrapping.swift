#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Crypto
import Foundation
import KeychainServices
import SecureStorageFoundation

/// Seals a file's own key into its header under the store's key for the file's class, and
/// opens it again.
///
/// - `complete`, `completeUntilFirstUserAuthentication`, `none`: the wrapping key is derived
///   with HKDF-SHA256 from the class key of the file's generation.
/// - `completeUnlessOpen`: as Apple does, an ephemeral X25519 key pair per file; the wrapping key
///   is derived from the agreement of its private half with the class's public key (salt: both
///   public keys), so creating a file needs only the public key, available while locked, and
///   opening it needs the class's private key, available only while unlocked. The ephemeral
///   private key is discarded at once.
///
/// The file key is sealed with AES-GCM, authenticating the header's first 60 bytes (class,
/// chunk size, file ID, generation, ephemeral key) and the store: a header edited to another
/// class or moved to another store does not open.
enum FileKeyWrapping {
    /// The header of a new file of `protection`, with a fresh file key sealed into it.
    static func newHeader(protection: FileProtection, keys: FileKeySet) throws(SecureStorageError) -> (
        header: ProtectedFileHeader, fileKey: SymmetricKey
    ) {
        let generation = protection == .none ? FileKeySet.noGeneration : try keys.generationForWriting()
        let fileKey = SymmetricKey(size: .bits256)
        let fileID = SymmetricKey(size: .init(bitCount: 128)).withUnsafeBytes { Data($0) }
        var ephemeralPublicKey = Data(count: 32)
        let wrappingKey: SymmetricKey
        if protection == .completeUnlessOpen {
            let classPublicKey = try keys.key(.unlessOpenPublic, generation: generation, creating: true)
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            ephemeralPublicKey = ephemeral.publicKey.rawRepresentation
            wrappingKey = try agreementKey(
                ephemeral, publicKey: classPublicKey, ephemeralPublicKey: ephemeralPublicKey,
                classPublicKey: classPublicKey, fileID: fileID)
        } else {
            wrappingKey = try classWrappingKey(protection, generation: generation, keys: keys, creating: true)
        }
        let nonce = AES.GCM.Nonce()
        var header = ProtectedFileHeader(
            protection: protection, fileID: fileID, generation: generation,
            ephemeralPublicKey: ephemeralPublicKey, wrapNonce: Data(nonce), wrappedFileKey: Data(count: 48))
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try fileKey.withUnsafeBytes { bytes in
                try AES.GCM.seal(
                    bytes, using: wrappingKey, nonce: nonce,
                    authenticating: authenticatedData(header, storeID: keys.storeID))
            }
        } catch {
            throw .underlying(errSecInternalComponent)  // AES-GCM refused a valid key and nonce
        }
        header.wrappedFileKey = sealed.ciphertext + sealed.tag
        return (header, fileKey)
    }

    /// The file key of an existing file.
    /// - Throws: `.locked` when its class is not available in the keychain's lock state;
    ///   `.integrityViolation` when the header was altered or belongs to another store.
    static func fileKey(of header: ProtectedFileHeader, keys: FileKeySet) throws(SecureStorageError) -> SymmetricKey {
        let wrappingKey: SymmetricKey
        if header.protection == .completeUnlessOpen {
            let (privateKey, classPublicKey) = try unlessOpenPrivateKey(generation: header.generation, keys: keys)
            wrappingKey = try agreementKey(
                privateKey, publicKey: header.ephemeralPublicKey, ephemeralPublicKey: header.ephemeralPublicKey,
                classPublicKey: classPublicKey, fileID: header.fileID)
        } else {
            guard header.ephemeralPublicKey.allSatisfy({ $0 == 0 }) else { throw .integrityViolation }
            wrappingKey = try classWrappingKey(
                header.protection, generation: header.generation, keys: keys, creating: false)
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: header.wrapNonce),
                ciphertext: header.wrappedFileKey.prefix(32), tag: header.wrappedFileKey.suffix(16))
            let opened = try AES.GCM.open(
                box, using: wrappingKey, authenticating: authenticatedData(header, storeID: keys.storeID))
            return SymmetricKey(data: opened)
        } catch {
            throw .integrityViolation
        }
    }

    // MARK: - Derivations

    /// The key wrapping the file keys of a complete, untilFirstUserAuthentication or none file
    /// of `generation`, from the store's key cache while the keychain is unlocked.
    private static func classWrappingKey(
        _ protection: FileProtection, generation: UInt32, keys: FileKeySet, creating: Bool
    ) throws(SecureStorageError) -> SymmetricKey {
        let cached = try keys.cache.key(
            .wrapping(protection: protection.code, generation: generation), forWriting: creating
        ) {
            () throws(SecureStorageError) -> FileKeyCache.Key in
            var bytes = try classKey(protection, generation: generation, keys: keys, creating: creating)
            return .symmetric(derivedKey(FileKeySet.symmetricKey(wiping: &bytes), protection: protection))
        }
        guard case .symmetric(let key) = cached else { throw .integrityViolation }
        return key
    }

    /// The `completeUnlessOpen` private key of `generation` and its public key, from the
    /// store's key cache while the keychain is unlocked.
    private static func unlessOpenPrivateKey(generation: UInt32, keys: FileKeySet) throws(SecureStorageError) -> (
        Curve25519.KeyAgreement.PrivateKey, Data
    ) {
        let cached = try keys.cache.key(.unlessOpenPrivate(generation: generation)) {
            () throws(SecureStorageError) -> FileKeyCache.Key in
            var bytes = try keys.key(.unlessOpenPrivate, generation: generation, creating: false)
            defer { SecretWiping.wipe(&bytes) }
            do {
                let privateKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes)
                return .agreement(privateKey, publicKey: privateKey.publicKey.rawRepresentation)
            } catch {
                throw .integrityViolation
            }
        }
        guard case .agreement(let privateKey, let publicKey) = cached else { throw .integrityViolation }
        return (privateKey, publicKey)
    }

    /// The class key of a complete, untilFirstUserAuthentication or none file.
    private static func classKey(
        _ protection: FileProtection, generation: UInt32, keys: FileKeySet,
        creating: Bool
    ) throws(SecureStorageError) -> Data {
        switch protection {
        case .none:
            guard generation == FileKeySet.noGeneration else { throw .integrityViolation }
            return try keys.noneKey()
        case .complete:
            return try keys.key(.complete, generation: generation, creating: creating)
        case .completeUntilFirstUserAuthentication:
            return try keys.key(.untilFirstAuth, generation: generation, creating: creating)
        case .completeUnlessOpen:
            throw .integrityViolation  // wrapped by key agreement instead
        }
    }

    private static func derivedKey(_ classKey: SymmetricKey, protection: FileProtection) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: classKey,
            info: Data("ssf1/wrap/".utf8) + [protection.code], outputByteCount: 32)
    }

    /// HKDF over an X25519 agreement, salted with both public keys (as PartyU and PartyV in
    /// the concatenation KDF Apple uses) and bound to the file ID.
    private static func agreementKey(
        _ privateKey: Curve25519.KeyAgreement.PrivateKey, publicKey: Data, ephemeralPublicKey: Data,
        classPublicKey: Data, fileID: Data
    ) throws(SecureStorageError) -> SymmetricKey {
        do {
            let shared = try privateKey.sharedSecretFromKeyAgreement(
                with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey))
            return shared.hkdfDerivedSymmetricKey(
                using: SHA256.self, salt: ephemeralPublicKey + classPublicKey,
                sharedInfo: Data("ssf1/classB".utf8) + fileID, outputByteCount: 32)
        } catch {
            // A public key of the wrong size or a low-order point: a forged header or key.
            throw .integrityViolation
        }
    }

    private static func authenticatedData(_ header: ProtectedFileHeader, storeID: Data) -> Data {
        header.encoded[ProtectedFileHeader.wrappedRange] + storeID
    }
}
#endif
