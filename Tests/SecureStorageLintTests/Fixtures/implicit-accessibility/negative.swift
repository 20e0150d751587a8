import Foundation
import Security

func storeToken(_ data: Data, account: String) -> OSStatus {
    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
    query[kSecValueData as String] = data
    query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
    return SecItemAdd(query as CFDictionary, nil)
}

func storeWithAccessControl(_ data: Data, access: SecAccessControl) -> OSStatus {
    SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "a", kSecValueData: data, kSecAttrAccessControl: access] as CFDictionary, nil)
}

// Keys and certificates are not passwords; a query built elsewhere is not known.
func storeKey(_ key: SecKey) -> OSStatus {
    SecItemAdd([kSecClass: kSecClassKey, kSecValueRef: key] as CFDictionary, nil)
}
func store(query: [String: Any]) -> OSStatus {
    SecItemAdd(query as CFDictionary, nil)
}
func storeMerged(_ base: [String: Any], _ data: Data) -> OSStatus {
    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
    query.merge(base) { $1 }
    query[kSecValueData as String] = data
    return SecItemAdd(query as CFDictionary, nil)
}

// Aliased keys with the accessibility given, and a builder that gives it.
enum Attr {
    static let itemClass = kSecClass as String
    static let account = kSecAttrAccount as String
    static let accessible = kSecAttrAccessible as String
}
func storeAliased(_ data: Data, account: String) -> Bool {
    let query: [String: Any] = [
        Attr.itemClass: kSecClassGenericPassword, Attr.account: account, kSecValueData as String: data,
        Attr.accessible: kSecAttrAccessibleAfterFirstUnlock,
    ]
    return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
}
func passwordQuery(_ account: String) -> [String: Any] {
    [Attr.itemClass: kSecClassGenericPassword, Attr.account: account, Attr.accessible: kSecAttrAccessibleWhenUnlocked]
}
func storeBuilt(_ data: Data, account: String) -> Bool {
    var query = passwordQuery(account)
    query[kSecValueData as String] = data
    return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
}
// A key the lint cannot name (a parameter): the query may hold the accessibility.
func storeUnknownKey(_ data: Data, account: String, key: String) -> Bool {
    let query: [String: Any] = [Attr.itemClass: kSecClassGenericPassword, Attr.account: account, key: data]
    return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
}
