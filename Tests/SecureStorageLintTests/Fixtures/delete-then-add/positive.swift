import Foundation
import Security

// The shape of most wrappers: delete the old item, add the new one.
func save(_ data: Data, account: String) throws {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: "com.example.app",
        kSecAttrAccount as String: account,
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
    ]
    SecItemDelete(query as CFDictionary) // expect: delete-then-add
    let status = SecItemAdd(query as CFDictionary, nil)
    guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
}

// A copy of the delete query, with the data added to it.
func replace(_ data: Data, for key: String) throws {
    let match: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key]
    let deleted = SecItemDelete(match as CFDictionary) // expect: delete-then-add
    guard deleted == errSecSuccess || deleted == errSecItemNotFound else { return }
    var add = match
    add[kSecValueData as String] = data
    add[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
    guard SecItemAdd(add as CFDictionary, nil) == errSecSuccess else { throw CocoaError(.fileWriteUnknown) }
}

// Two literals naming the same item.
func store(token: Data, user: String) -> OSStatus {
    _ = SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: user] as CFDictionary) // expect: delete-then-add
    return SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: user, kSecValueData: token,
                       kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked] as CFDictionary, nil)
}

// A query received as a parameter.
func overwrite(query: [String: Any]) -> Bool {
    let removed = SecItemDelete(query as CFDictionary) // expect: delete-then-add
    guard removed == errSecSuccess || removed == errSecItemNotFound else { return false }
    return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
}

// Deleting through the wrapper's own delete method (KeychainSwift's `set`).
final class TokenStore {
    func delete(_ key: String) -> Bool {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key]
        let status = SecItemDelete(query as CFDictionary)
        return status == errSecSuccess || status == errSecItemNotFound
    }

    func set(_ value: Data, forKey key: String) -> Bool {
        _ = delete(key) // expect: delete-then-add
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: key,
            kSecValueData as String: value,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
        ]
        return SecItemAdd(query as CFDictionary, nil) == noErr
    }
}

// A copy of a query built elsewhere, with the data added to it.
func write(_ data: Data, key: String) -> Bool {
    let query = baseQuery(key)
    let removed = SecItemDelete(query as CFDictionary) // expect: delete-then-add
    guard removed == errSecSuccess || removed == errSecItemNotFound else { return false }
    var add = query
    add[kSecValueData as String] = data
    return SecItemAdd(add as CFDictionary, nil) == errSecSuccess // expect: implicit-accessibility
}
func baseQuery(_ key: String) -> [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: key] }

// Through the file's own functions: one deletes, the other adds (KeychainAccess's fallback).
final class Wrapper {
    func remove(_ key: String) throws {
        let status = SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }
    func store(_ value: Data, key: String) throws {
        let status = SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key, kSecValueData: value,
                                 kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked] as CFDictionary, nil)
        guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }
    func replace(_ value: Data, key: String) throws {
        try remove(key) // expect: delete-then-add
        try store(value, key: key)
    }
}

// Query keys through static aliases, a nested type and `String(kSec…)`.
enum K {
    static let attrClass = kSecClass as String
    static let attrAccount = kSecAttrAccount as String
    enum Value { static let data = String(kSecValueData) }
}
func saveAliased(_ data: Data, key: String) -> Bool {
    let query: [String: Any] = [K.attrClass: kSecClassGenericPassword, K.attrAccount: key]
    guard SecItemDelete(query as CFDictionary) != errSecInteractionNotAllowed else { return false } // expect: delete-then-add
    let add: [String: Any] = [
        K.attrClass: kSecClassGenericPassword, K.attrAccount: key, K.Value.data: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
    ]
    return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
}

// Both queries from a builder of the same type; the added account is `keyPrefix + key`, as the builder's.
final class PrefixedStore {
    let keyPrefix = "app."
    func query(for key: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: keyPrefix + key]
    }
    func set(_ data: Data, for key: String) -> Bool {
        let status = SecItemDelete(query(for: key) as CFDictionary) // expect: delete-then-add
        guard status == errSecSuccess || status == errSecItemNotFound else { return false }
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: self.keyPrefix + key,
            kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
        ]
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
    }
}

// A computed query property, completed by the account; a deleting function called through another.
final class PropertyStore {
    var baseQuery: [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "app"] }
    func removeNoLock(_ key: String) -> Bool {
        var query = baseQuery
        query[kSecAttrAccount as String] = key
        return SecItemDelete(query as CFDictionary) == errSecSuccess
    }
    func remove(_ key: String) -> Bool { removeNoLock(key) }
    func keyWithPrefix(_ key: String) -> String { "p." + key }
    func set(_ data: Data, key: String) -> Bool {
        remove(key) // expect: delete-then-add
        let prefixedKey = keyWithPrefix(key)
        var query = self.baseQuery
        query[kSecAttrAccount as String] = prefixedKey
        query[kSecValueData as String] = data
        query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
    }
}

// The account assigned as `keyPrefix + key` in both queries.
final class SubscriptStore {
    let keyPrefix = "s."
    func save(_ data: Data, key: String) -> Bool {
        var match: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
        match[kSecAttrAccount as String] = keyPrefix + key
        let removed = SecItemDelete(match as CFDictionary) // expect: delete-then-add
        guard removed == errSecSuccess || removed == errSecItemNotFound else { return false }
        var add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
        ]
        add[kSecAttrAccount as String] = self.keyPrefix + key
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
    }
}

// On a duplicate, delete and add again: a failed add loses the value.
func replaceOnDuplicate(_ value: Data, query: [String: Any]) -> OSStatus {
    var item = query
    item[kSecValueData as String] = value
    item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
    var status = SecItemAdd(item as CFDictionary, nil)
    if status == errSecDuplicateItem {
        _ = SecItemDelete(query as CFDictionary) // expect: delete-then-add
        status = SecItemAdd(item as CFDictionary, nil)
    }
    return status
}
