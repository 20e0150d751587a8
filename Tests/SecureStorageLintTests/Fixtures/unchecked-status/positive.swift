import Foundation
import Security

// Sign-out that ignores a failed delete: the token survives.
func signOut(account: String) {
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
    SecItemDelete(query as CFDictionary) // expect: unchecked-status
}

func discard(_ query: CFDictionary) {
    _ = SecItemDelete(query) // expect: unchecked-status
}

func neverRead(_ query: CFDictionary, _ data: Data) {
    let status = SecItemAdd(query, nil) // expect: unchecked-status
}

// errSecItemNotFound treated as the only failure: a locked device reads as success.
func token(_ query: CFDictionary) -> Data? {
    var result: AnyObject?
    let status = SecItemCopyMatching(query, &result)
    if status == errSecItemNotFound { return nil } // expect: unchecked-status
    return result as? Data
}

func hasToken(_ query: CFDictionary) -> Bool {
    SecItemCopyMatching(query, nil) != errSecItemNotFound // expect: unchecked-status
}

final class Session {
    var query: [String: Any] = [:]
    func end() {
        DispatchQueue.global().async {
            SecItemDelete(self.query as CFDictionary) // expect: unchecked-status
        }
    }
    func wipe(_ attributes: CFDictionary) {
        try? SecItemUpdate(query as CFDictionary, attributes) // expect: unchecked-status
    }
}

// A handler's one statement: its status goes nowhere.
final class SignOutController {
    var onLogout: () -> Void = {}
    func wire(_ query: CFDictionary) {
        onLogout = { SecItemDelete(query) } // expect: unchecked-status
        NotificationCenter.default.addObserver(forName: .init("logout"), object: nil, queue: nil) { _ in SecItemDelete(query) } // expect: unchecked-status
    }
}

// A member of another value with the same name is not a read of the status.
func submit(_ query: CFDictionary, response: (status: Int, body: String)) {
    let status = SecItemAdd(query, nil) // expect: unchecked-status
    print(response.status)
}
