import Foundation
import Security

extension Vault {
    /// Deletes through another function (a deleting function by transitivity).
    func remove(_ key: String) -> Bool { lock.withLock { removeNoLock(key) } }

    func removeNoLock(_ key: String) -> Bool {
        let status = SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary)
        return status == errSecSuccess || status == errSecItemNotFound
    }
}
