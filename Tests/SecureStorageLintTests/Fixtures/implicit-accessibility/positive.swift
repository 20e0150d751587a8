import Foundation
import Security

func storePassword(_ password: String, account: String) -> Bool {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccount as String: account,
        kSecValueData as String: Data(password.utf8),
    ]
    return SecItemAdd(query as CFDictionary, nil) == errSecSuccess // expect: implicit-accessibility
}

func storeInternetPassword(_ data: Data) -> OSStatus {
    var query: [String: Any] = [:]
    query[kSecClass as String] = kSecClassInternetPassword
    query[kSecAttrServer as String] = "example.com"
    query[kSecValueData as String] = data
    return SecItemAdd(query as CFDictionary, nil) // expect: implicit-accessibility
}

// The class is a parameter, but the query carries a secret.
func store(_ data: Data, itemClass: CFString) -> OSStatus {
    SecItemAdd([kSecClass: itemClass, kSecAttrAccount: "a", kSecValueData: data] as CFDictionary, nil) // expect: implicit-accessibility
}

// Keys through an alias enum, and a query from a builder function.
enum Attr {
    static let itemClass = kSecClass as String
    static let account = kSecAttrAccount as String
    static let data = String(kSecValueData)
}
func storeAliased(_ data: Data, account: String) -> Bool {
    let query: [String: Any] = [Attr.itemClass: kSecClassGenericPassword, Attr.account: account, Attr.data: data]
    return SecItemAdd(query as CFDictionary, nil) == errSecSuccess // expect: implicit-accessibility
}
func passwordQuery(_ account: String, _ data: Data) -> [String: Any] {
    [Attr.itemClass: kSecClassGenericPassword, Attr.account: account, Attr.data: data]
}
func storeBuilt(_ data: Data, account: String) -> Bool {
    SecItemAdd(passwordQuery(account, data) as CFDictionary, nil) == errSecSuccess // expect: implicit-accessibility
}
