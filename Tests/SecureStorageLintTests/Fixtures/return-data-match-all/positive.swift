import Foundation
import Security

func allPasswords() -> [Data] {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecReturnData as String: true,
        kSecMatchLimit as String: kSecMatchLimitAll,
    ]
    var result: AnyObject?
    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return [] } // expect: return-data-match-all
    return result as? [Data] ?? []
}

func everything() -> OSStatus {
    var query: [CFString: Any] = [kSecClass: kSecClassInternetPassword]
    query[kSecReturnData] = kCFBooleanTrue
    query[kSecMatchLimit] = kSecMatchLimitAll
    var result: CFTypeRef?
    return SecItemCopyMatching(query as CFDictionary, &result) // expect: return-data-match-all
}

// The file's own names for the constants (KeychainAccess and SwiftKeychainWrapper write queries so).
private let ReturnData = String(kSecReturnData)
private let MatchLimit = String(kSecMatchLimit)
private let MatchLimitAll = String(kSecMatchLimitAll)
func allItems(_ base: [String: Any]) -> OSStatus {
    var query = base
    query[MatchLimit] = MatchLimitAll
    query[ReturnData] = kCFBooleanTrue
    var result: AnyObject?
    return SecItemCopyMatching(query as CFDictionary, &result) // expect: return-data-match-all
}

// Keys through a nested alias type.
enum Q {
    enum Match { static let limit = kSecMatchLimit as String; static let all = kSecMatchLimitAll as String }
    static let returnData = kSecReturnData as String
}
func everyItemAliased() -> CFTypeRef? {
    var result: CFTypeRef?
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, Q.returnData: true, Q.Match.limit: Q.Match.all]
    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil } // expect: return-data-match-all
    return result
}
