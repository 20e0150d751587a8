import Foundation
import Security

extension Store {
    func set(_ value: Data, forKey key: String) -> Bool {
        delete(key) // expect: delete-then-add
        let prefixedKey = keyWithPrefix(key)
        let query: [String: Any] = [
            StoreConstants.klass: kSecClassGenericPassword,
            StoreConstants.attrAccount: prefixedKey,
            StoreConstants.valueData: value,
            StoreConstants.accessible: kSecAttrAccessibleAfterFirstUnlock,
        ]
        return SecItemAdd(query as CFDictionary, nil) == noErr
    }

    // Deletes one key, adds another.
    func copy(_ value: Data, from old: String, to new: String) -> Bool {
        delete(old)
        let query: [String: Any] = [
            StoreConstants.klass: kSecClassGenericPassword,
            StoreConstants.attrAccount: keyWithPrefix(new),
            StoreConstants.valueData: value,
            StoreConstants.accessible: kSecAttrAccessibleAfterFirstUnlock,
        ]
        return SecItemAdd(query as CFDictionary, nil) == noErr
    }
}
