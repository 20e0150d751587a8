import Foundation
import Security

// Add, and update on errSecDuplicateItem: the old value survives every failure.
func save(_ data: Data, account: String) throws {
    let match: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
    var add = match
    add[kSecValueData as String] = data
    add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
    var status = SecItemAdd(add as CFDictionary, nil)
    if status == errSecDuplicateItem {
        status = SecItemUpdate(match as CFDictionary, [kSecValueData as String: data] as CFDictionary)
    }
    guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
}

// Update first, add when there is nothing to update.
func upsert(_ data: Data, account: String) -> Bool {
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
    let status = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
    if status == errSecItemNotFound {
        var add = query
        add[kSecValueData as String] = data
        add[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
    }
    return status == errSecSuccess
}

// Deleting one account and adding another is a move, not a replacement.
func rename(from old: String, to new: String, data: Data) -> Bool {
    let removed = SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: old] as CFDictionary)
    guard removed == errSecSuccess else { return false }
    return SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: new, kSecValueData: data,
                       kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked] as CFDictionary, nil) == errSecSuccess
}

// Delete and add in different functions.
enum Store {
    static func clear(_ key: String) -> OSStatus {
        SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary)
    }
    static func insert(_ key: String, _ data: Data) -> OSStatus {
        SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key, kSecValueData: data,
                    kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked] as CFDictionary, nil)
    }
}

// A helper named delete that is not a keychain deletion (no SecItemDelete in this file's `remove`).
func refresh(cache: inout [String: Data], key: String, data: Data) -> Bool {
    cache.removeValue(forKey: key)
    return SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key, kSecValueData: data,
                       kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked] as CFDictionary, nil) == errSecSuccess
}

// The variable is given another item's query between the two calls.
func move(_ data: Data, from old: String, to new: String) -> Bool {
    var query = accountQuery(old)
    guard SecItemDelete(query as CFDictionary) == errSecSuccess else { return false }
    query = accountQuery(new)
    return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
}
func accountQuery(_ account: String) -> [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account] }
