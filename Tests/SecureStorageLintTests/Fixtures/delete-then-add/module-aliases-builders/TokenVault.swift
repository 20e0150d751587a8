import Foundation
import Security

final class TokenVault {
    let service = "vault"
    let keyPrefix = "v1."

    func save(_ data: Data, key: String) -> Bool {
        SecItemDelete(baseQuery(key) as CFDictionary) // expect: delete-then-add
        var add = baseQuery(key)
        add[KeychainKeys.data] = data
        add[KeychainKeys.accessible] = kSecAttrAccessibleAfterFirstUnlock
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
    }

    // Not the same item: another key.
    func rename(_ data: Data, from old: String, to new: String) -> Bool {
        guard SecItemDelete(baseQuery(old) as CFDictionary) == errSecSuccess else { return false }
        var add = baseQuery(new)
        add[KeychainKeys.data] = data
        add[KeychainKeys.accessible] = kSecAttrAccessibleAfterFirstUnlock
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
    }

    // The aliased keys are known: no kSecAttrAccessible here.
    func insecureAdd(_ data: Data, key: String) -> Bool {
        let add: [String: Any] = [
            KeychainKeys.itemClass: kSecClassGenericPassword, KeychainKeys.account: key, KeychainKeys.data: data,
        ]
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess // expect: implicit-accessibility
    }
}
