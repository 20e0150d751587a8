import Foundation
import Security

final class Store {
    var keyPrefix = ""
    let lock = NSLock()

    func keyWithPrefix(_ key: String) -> String { "\(keyPrefix)\(key)" }

    @discardableResult
    func delete(_ key: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return deleteNoLock(key)
    }

    func deleteNoLock(_ key: String) -> Bool {
        let query: [String: Any] = [StoreConstants.klass: kSecClassGenericPassword,
                                    StoreConstants.attrAccount: keyWithPrefix(key)]
        return SecItemDelete(query as CFDictionary) == noErr
    }
}
