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

// Aliased keys, one item.
enum Q {
    enum Match { static let limit = kSecMatchLimit as String; static let one = kSecMatchLimitOne as String }
    static let returnData = kSecReturnData as String
}
func oneItemAliased() -> CFTypeRef? {
    var result: CFTypeRef?
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, Q.returnData: true, Q.Match.limit: Q.Match.one]
    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
    return result
}
