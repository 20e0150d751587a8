import Crypto
import Foundation
import SecureStorageFoundation

/// The encrypted halves of one item as stored in its row.
struct SealedItem: Sendable {
    /// The per-item metadata key, wrapped (AES-KW) by the class's metadata subkey.
    var wrappedMetadataKey: Data
    /// AES-256-GCM of the padded attribute encoding.
    var metadata: Data
    /// The per-item secret key, wrapped (AES-KW) by the class's secret subkey; for a protected
    /// item, what is wrapped is the secret key already wrapped to the presence key.
    var wrappedSecretKey: Data
    /// AES-256-GCM of the padded secret data.
    var secret: Data
}

extension SealedItem {
    /// AES-KW of a 256-bit key: 40 bytes; of a presence wrap (``PresencePublicKey/sealedLength``): 80.
    static let presenceWrappedLength = PresencePublicKey.sealedLength + 8

    /// Whether the secret key is also wrapped to the presence key (a protected item written by
    /// format 5; lengths are not secret, and the row seal and the wrap itself keep them honest).
    var isPresenceSealed: Bool { wrappedSecretKey.count == Self.presenceWrappedLength }
}

/// Seals and opens items: fresh random metadata and secret keys for every write, each wrapped by
/// the class keys, and AES-GCM with the item's binding as associated data. A protected item's
/// secret key is first wrapped to the presence key, so its data opens only with both the class
/// key (the lock state) and the presence key (an enrolled authenticator's secret).
enum ItemCipher {
    static func seal(
        metadata: Data, secret: Data, binding: ItemBinding, keys: ClassKeys,
        presence: PresencePublicKey? = nil, randomness: ItemRandomness
    ) throws(KeychainError) -> SealedItem {
        let metadataKey = randomness.metadataKey
        let secretKey = randomness.secretKey
        var paddedMetadata = Padding.pad(metadata)
        var paddedSecret = Padding.pad(secret)
        defer {
            SecretWiping.wipe(&paddedMetadata)
            SecretWiping.wipe(&paddedSecret)
        }
        let classWrapped =
            try presence.map { presence throws(KeychainError) in
                SymmetricKey(data: try presence.seal(secretKey, vaultID: binding.vaultID))
            } ?? secretKey
        do {
            return SealedItem(
                wrappedMetadataKey: try AES.KeyWrap.wrap(metadataKey, using: keys.metadata),
                metadata: try AES.GCM.seal(
                    paddedMetadata, using: metadataKey, nonce: randomness.metadataNonce,
                    authenticating: binding.associatedData(.metadata)
                ).combined!,
                wrappedSecretKey: try AES.KeyWrap.wrap(classWrapped, using: keys.secret),
                secret: try AES.GCM.seal(
                    paddedSecret, using: secretKey, nonce: randomness.secretNonce,
                    authenticating: binding.associatedData(.secret)
                ).combined!)
        } catch {
            throw KeychainError.itemEncryptionFailed(error: error)
        }
    }

    /// New attributes for an item whose data stays as sealed (to the presence key): a fresh
    /// metadata key and ciphertext under `binding`, the data ciphertext kept, and its wrapped
    /// key moved from the old class key to the new one (the presence wrap inside is kept).
    static func reseal(
        metadata: Data, keepingDataOf sealed: SealedItem, binding: ItemBinding,
        from old: ClassKeys, to new: ClassKeys
    ) throws(KeychainError) -> SealedItem {
        let inner = try unwrap(sealed.wrappedSecretKey, kek: old.secret, binding: binding, half: .secret)
        let metadataKey = SymmetricKey(size: .bits256)
        var paddedMetadata = Padding.pad(metadata)
        defer { SecretWiping.wipe(&paddedMetadata) }
        do {
            return SealedItem(
                wrappedMetadataKey: try AES.KeyWrap.wrap(metadataKey, using: new.metadata),
                metadata: try AES.GCM.seal(
                    paddedMetadata, using: metadataKey, authenticating: binding.associatedData(.metadata)
                ).combined!,
                wrappedSecretKey: try AES.KeyWrap.wrap(inner, using: new.secret),
                secret: sealed.secret)
        } catch {
            throw KeychainError.itemEncryptionFailed(error: error)
        }
    }

    /// The wrapped data key of a presence-sealed item, moved from the presence key `old` to
    /// `new` (class wrap opened and closed with the same class keys).
    static func resealPresenceWrap(
        _ sealed: SealedItem, binding: ItemBinding, keys: ClassKeys,
        from old: PresencePrivateKey, to new: PresencePublicKey
    ) throws(KeychainError) -> Data {
        let inner = try unwrap(sealed.wrappedSecretKey, kek: keys.secret, binding: binding, half: .secret)
        var itemKey = try old.open(inner.withUnsafeBytes { Data($0) }, vaultID: binding.vaultID)
        defer { itemKey = SymmetricKey(size: .bits128) }
        do {
            return try AES.KeyWrap.wrap(
                SymmetricKey(data: try new.seal(itemKey, vaultID: binding.vaultID)), using: keys.secret)
        } catch {
            throw KeychainError.itemKeyWrappingFailed(error: error)
        }
    }

    static func openMetadata(_ sealed: SealedItem, binding: ItemBinding, keys: ClassKeys) throws(KeychainError) -> Data
    {
        try open(
            sealed.metadata,
            itemKey: unwrap(sealed.wrappedMetadataKey, kek: keys.metadata, binding: binding, half: .metadata),
            binding: binding, half: .metadata)
    }

    /// Opens the data; a presence-sealed item needs `presenceKey`.
    /// - Throws: `.authFailed` for a presence-sealed item without the presence key,
    ///   `.integrityViolation` when anything does not unwrap or authenticate.
    static func openSecret(
        _ sealed: SealedItem, binding: ItemBinding, keys: ClassKeys, presenceKey: PresencePrivateKey? = nil
    ) throws(KeychainError) -> Data {
        var itemKey = try unwrap(sealed.wrappedSecretKey, kek: keys.secret, binding: binding, half: .secret)
        if sealed.isPresenceSealed {
            guard let presenceKey else {
                throw KeychainError.itemNeedsPresenceAuthentication()
            }
            itemKey = try presenceKey.open(itemKey.withUnsafeBytes { Data($0) }, vaultID: binding.vaultID)
        } else if itemKey.bitCount != 256 {
            throw KeychainError.tamperedDataKeyLength(itemClass: binding.itemClass.rawValue)
        }
        return try open(sealed.secret, itemKey: itemKey, binding: binding, half: .secret)
    }

    /// Checks what can be checked of a presence-sealed item's data without the presence key:
    /// the class wrap opens to a well-formed presence wrap.
    static func checkPresenceWrap(_ sealed: SealedItem, binding: ItemBinding, keys: ClassKeys) throws(KeychainError) {
        let wrapped = try unwrap(sealed.wrappedSecretKey, kek: keys.secret, binding: binding, half: .secret)
        guard wrapped.bitCount == PresencePublicKey.sealedLength * 8 else {
            throw KeychainError.tamperedPresenceWrapLength()
        }
    }

    private static func unwrap(_ wrappedKey: Data, kek: SymmetricKey, binding: ItemBinding, half: ItemBinding.Half)
        throws(KeychainError) -> SymmetricKey
    {
        do {
            return try AES.KeyWrap.unwrap(wrappedKey, using: kek)
        } catch {
            throw KeychainError.tamperedItemKey(
                half: half == .metadata ? "attributes" : "data", itemClass: binding.itemClass.rawValue,
                accessibility: binding.accessibility.rawValue)
        }
    }

    private static func open(_ ciphertext: Data, itemKey: SymmetricKey, binding: ItemBinding, half: ItemBinding.Half)
        throws(KeychainError) -> Data
    {
        let name = half == .metadata ? "attributes" : "data"
        var padded: Data
        do {
            padded = try AES.GCM.open(
                AES.GCM.SealedBox(combined: ciphertext), using: itemKey,
                authenticating: binding.associatedData(half))
        } catch {
            throw KeychainError.tamperedItemHalf(name: name, itemClass: binding.itemClass.rawValue)
        }
        defer { SecretWiping.wipe(&padded) }
        guard let plaintext = Padding.unpad(padded) else {
            throw KeychainError.tamperedItemPadding(name: name, itemClass: binding.itemClass.rawValue)
        }
        return plaintext
    }
}
