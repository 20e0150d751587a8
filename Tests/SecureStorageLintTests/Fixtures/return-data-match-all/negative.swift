import Foundation
import Security

func allAccounts() -> OSStatus {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecReturnAttributes as String: true,
        kSecReturnPersistentRef as String: true,
        kSecMatchLimit as String: kSecMatchLimitAll,
    ]
    var result: AnyObject?
    return SecItemCopyMatching(query as CFDictionary, &result)
}

func one() -> OSStatus {
    var result: AnyObject?
    return SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecReturnData: true, kSecMatchLimit: kSecMatchLimitOne] as CFDictionary, &result)
}

func noData() -> OSStatus {
    var result: AnyObject?
    return SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecReturnData: false, kSecMatchLimit: kSecMatchLimitAll] as CFDictionary, &result)
}
