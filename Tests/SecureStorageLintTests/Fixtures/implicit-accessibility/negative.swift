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
