import Crypto
import Foundation
import SecureStorageFoundation

/// Derives the key-encryption keys from the device secret D and the passphrase key K_P:
///
/// - KEK_device = HKDF-SHA256(D, salt: vault id, info: "sv1/kek/device")
/// - KEK_user   = HKDF-SHA256(K_P ‖ D, salt: vault id, info: "sv1/kek/user")
///   or, without a passphrase, HKDF-SHA256(D, salt: vault id, info: "sv1/kek/user-no-passphrase")
enum KeyHierarchy {
    static func deviceKEK(deviceKey: SymmetricKey, vaultID: UUID) -> SymmetricKey {
        derive(deviceKey, vaultID: vaultID, info: "sv1/kek/device")
    }

    static func userKEK(deviceKey: SymmetricKey, passphraseKey: SymmetricKey?, vaultID: UUID) -> SymmetricKey {
        guard let passphraseKey else {
            return derive(deviceKey, vaultID: vaultID, info: "sv1/kek/user-no-passphrase")
        }
        var material = Data(capacity: 64)  // no reallocation: every copy is the one wiped below
        passphraseKey.withUnsafeBytes { material.append(contentsOf: $0) }
        deviceKey.withUnsafeBytes { material.append(contentsOf: $0) }
        defer { SecretWiping.wipe(&material) }
        return derive(SymmetricKey(data: material), vaultID: vaultID, info: "sv1/kek/user")
    }

    /// A key derived from the device key for authenticating what cannot be encrypted: the
    /// header and keybag ("sv4/header"), each row's clear columns ("sv4/row-seal") and the format
    /// anchor ("sv4/format-anchor"). Available in every lock state, like the device tier.
    static func integrityKey(deviceKey: SymmetricKey, vaultID: UUID, purpose: String) -> SymmetricKey {
        derive(deviceKey, vaultID: vaultID, info: purpose)
    }

    /// A subkey of a class key for one purpose ("sv1/meta" or "sv1/secret").
    static func subkey(of key: SymmetricKey, purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data(purpose.utf8), outputByteCount: 32)
    }

    private static func derive(_ key: SymmetricKey, vaultID: UUID, info: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: vaultID.bytes, info: Data(info.utf8), outputByteCount: 32)
    }
}
