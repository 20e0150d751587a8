import Crypto
import Foundation

/// The encrypted halves of one item as stored in its row.
struct SealedItem: Sendable {
    /// The per-item metadata key, wrapped (AES-KW) by the class's metadata subkey.
    var wrappedMetadataKey: Data
    /// AES-256-GCM of the padded attribute encoding.
    var metadata: Data
    /// The per-item secret key, wrapped (AES-KW) by the class's secret subkey.
    var wrappedSecretKey: Data
    /// AES-256-GCM of the padded secret data.
    var secret: Data
}

/// Seals and opens items: fresh random metadata and secret keys for every write, each wrapped by
/// the class keys, and AES-GCM with the item's binding as associated data.
enum ItemCipher {
    static func seal(metadata: Data, secret: Data, binding: ItemBinding, keys: ClassKeys) throws(KeychainError) -> SealedItem {
        let metadataKey = SymmetricKey(size: .bits256)
        let secretKey = SymmetricKey(size: .bits256)
        var paddedMetadata = Padding.pad(metadata), paddedSecret = Padding.pad(secret)
        defer {
            SecretWiping.wipe(&paddedMetadata)
            SecretWiping.wipe(&paddedSecret)
        }
        do {
            return SealedItem(
                wrappedMetadataKey: try AES.KeyWrap.wrap(metadataKey, using: keys.metadata),
                metadata: try AES.GCM.seal(paddedMetadata, using: metadataKey,
                                           authenticating: binding.associatedData(.metadata)).combined!,
                wrappedSecretKey: try AES.KeyWrap.wrap(secretKey, using: keys.secret),
                secret: try AES.GCM.seal(paddedSecret, using: secretKey,
                                         authenticating: binding.associatedData(.secret)).combined!)
        } catch {
            throw KeychainError(.outOfMemory, "Encrypting the item failed: \(error).")
        }
    }

    static func openMetadata(_ sealed: SealedItem, binding: ItemBinding, keys: ClassKeys) throws(KeychainError) -> Data {
        try open(sealed.metadata, wrappedKey: sealed.wrappedMetadataKey, kek: keys.metadata, binding: binding, half: .metadata)
    }

    static func openSecret(_ sealed: SealedItem, binding: ItemBinding, keys: ClassKeys) throws(KeychainError) -> Data {
        try open(sealed.secret, wrappedKey: sealed.wrappedSecretKey, kek: keys.secret, binding: binding, half: .secret)
    }

    private static func open(_ ciphertext: Data, wrappedKey: Data, kek: SymmetricKey,
                             binding: ItemBinding, half: ItemBinding.Half) throws(KeychainError) -> Data {
        let name = half == .metadata ? "attributes" : "data"
        let itemKey: SymmetricKey
        do {
            itemKey = try AES.KeyWrap.unwrap(wrappedKey, using: kek)
        } catch {
            throw .tampered("the \(name) key of a \(binding.itemClass.rawValue) item does not unwrap with the keys of its protection class \(binding.accessibility.rawValue)")
        }
        var padded: Data
        do {
            padded = try AES.GCM.open(AES.GCM.SealedBox(combined: ciphertext), using: itemKey,
                                      authenticating: binding.associatedData(half))
        } catch {
            throw .tampered("the \(name) of a \(binding.itemClass.rawValue) item do not authenticate against its row")
        }
        defer { SecretWiping.wipe(&padded) }
        guard let plaintext = Padding.unpad(padded) else {
            throw .tampered("the \(name) of a \(binding.itemClass.rawValue) item have invalid padding")
        }
        return plaintext
    }
}
