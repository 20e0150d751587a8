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
func accountQuery(_ account: String) -> [String: Any] {
    [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
     kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock]
}

// The same builder for two different keys: a move.
final class PrefixedStore {
    let keyPrefix = "app."
    func query(for key: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: keyPrefix + key]
    }
    func move(_ data: Data, from old: String, to new: String) -> Bool {
        guard SecItemDelete(query(for: old) as CFDictionary) == errSecSuccess else { return false }
        var add = query(for: new)
        add[kSecValueData as String] = data
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
    }
    // Add, and update on errSecDuplicateItem, both queries from the builder.
    func save(_ data: Data, for key: String) -> Bool {
        var add = query(for: key)
        add[kSecValueData as String] = data
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        let status = SecItemAdd(add as CFDictionary, nil)
        guard status == errSecDuplicateItem else { return status == errSecSuccess }
        return SecItemUpdate(query(for: key) as CFDictionary, [kSecValueData as String: data] as CFDictionary)
            == errSecSuccess
    }
    // Deleted here, added in another function.
    func forget(_ key: String) -> Bool { SecItemDelete(query(for: key) as CFDictionary) == errSecSuccess }
    func insert(_ data: Data, for key: String) -> Bool {
        var add = query(for: key)
        add[kSecValueData as String] = data
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
    }
}

// Sign-out deletes every item of the service, then stores an unrelated flag item.
func signOut(service: String, flag: Data) -> Bool {
    let all: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
    guard SecItemDelete(all as CFDictionary) == errSecSuccess else { return false }
    let add: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
        kSecAttrAccount as String: "signed-out", kSecValueData as String: flag,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
    ]
    return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
}

// Added only when the delete found nothing: nothing deleted can be lost.
func addIfMissing(_ data: Data, account: String) -> Bool {
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
    let status = SecItemDelete(query as CFDictionary)
    if status == errSecItemNotFound {
        var add = query
        add[kSecValueData as String] = data
        add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
    }
    return status == errSecSuccess
}

// A deleting function of the module, then an adding one on another receiver (UserDefaults).
final class Vault {
    func remove(_ key: String) -> Bool {
        SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key] as CFDictionary) == errSecSuccess
    }
    func set(_ value: Data, key: String) -> Bool {
        SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: key, kSecValueData: value,
                    kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked] as CFDictionary, nil) == errSecSuccess
    }
    func logOut(_ key: String, defaults: UserDefaults) {
        guard remove(key) else { return }
        defaults.set(true, forKey: key)
    }
}

// Sign-out through a helper that deletes every account of a service, then an add of one account.
func deleteAll(service: String) -> Bool {
    SecItemDelete([kSecClass: kSecClassGenericPassword, kSecAttrService: service] as CFDictionary) == errSecSuccess
}
func restart(service: String, account: String, token: Data) -> Bool {
    guard deleteAll(service: service) else { return false }
    return SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account,
                       kSecValueData: token, kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked] as CFDictionary, nil)
        == errSecSuccess
}

// The same key under two literal prefixes: two items (an access and a refresh token).
func rotate(_ refresh: Data, key: String) -> Bool {
    var match: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
    match[kSecAttrAccount as String] = "access." + key
    guard SecItemDelete(match as CFDictionary) == errSecSuccess else { return false }
    var add: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecValueData as String: refresh,
        kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
    ]
    add[kSecAttrAccount as String] = "refresh." + key
    return SecItemAdd(add as CFDictionary, nil) == errSecSuccess
}

// A nil value deletes and returns; only a value adds: the function deletes or adds, never both.
func store(_ value: String?, query: [String: Any]) -> Bool {
    guard let value else {
        return SecItemDelete(query as CFDictionary) == errSecSuccess
    }
    var item = query
    item[kSecValueData as String] = Data(value.utf8)
    item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
    return SecItemAdd(item as CFDictionary, nil) == errSecSuccess
}

// The same with an `if` body that returns.
func storeOrClear(_ value: String?, query: [String: Any]) -> OSStatus {
    if value == nil {
        let status = SecItemDelete(query as CFDictionary)
        return status
    }
    var item = query
    item[kSecValueData as String] = Data((value ?? "").utf8)
    item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
    return SecItemAdd(item as CFDictionary, nil)
}
