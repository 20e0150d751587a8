import Foundation
import Security

extension Vault {
    func add(_ value: Data, key: String) -> Bool {
        SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key, kSecValueData: value,
                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock] as CFDictionary, nil) == errSecSuccess
    }
}
