import Foundation
import Security

func store(_ data: Data) -> OSStatus {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecValueData as String: data,
        kSecAttrAccessible as String: kSecAttrAccessibleAlways, // expect: accessible-always
    ]
    return SecItemAdd(query as CFDictionary, nil)
}

func storeLater(_ data: Data) -> OSStatus {
    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data]
    query[kSecAttrAccessible as String] = kSecAttrAccessibleAlwaysThisDeviceOnly as String // expect: accessible-always
    query[kSecAttrService as String] = "svc"
    return SecItemAdd(query as CFDictionary, nil)
}

func rawValue() -> [String: Any] {
    [kSecAttrAccessible as String: "dk"] // expect: accessible-always
}

func accessControl() -> SecAccessControl? {
    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAlways, [], nil) // expect: accessible-always
}

func save(_ data: Data, accessible: CFString = kSecAttrAccessibleAlways) {} // expect: accessible-always

struct Wrapper {
    func set(_ value: String, forKey key: String, withAccessibility accessibility: Accessibility) {}
    enum Accessibility { case always, alwaysThisDeviceOnly, afterFirstUnlock }
}
func useWrapper(_ wrapper: Wrapper) {
    wrapper.set("v", forKey: "k", withAccessibility: .always) // expect: accessible-always
}

func mutate(_ query: inout [String: Any]) {
    query.updateValue(kSecAttrAccessibleAlways, forKey: kSecAttrAccessible as String) // expect: accessible-always
    query[kSecAttrAccessible as String] = Security.kSecAttrAccessibleAlwaysThisDeviceOnly // expect: accessible-always
}

// The key through an alias.
enum KeychainAttr { static let attrAccessible = kSecAttrAccessible as String }
func storeAliased(_ data: Data) -> [String: Any] {
    [KeychainAttr.attrAccessible: kSecAttrAccessibleAlways, kSecValueData as String: data] // expect: accessible-always
}
