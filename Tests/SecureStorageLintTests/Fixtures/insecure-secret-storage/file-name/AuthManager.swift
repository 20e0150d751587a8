import Foundation

// A file named *Auth*: every write to preferences is suspect, whatever the key is called.
final class AuthManager {
    func finish(response: [String: String]) {
        UserDefaults.standard.set(response["value"], forKey: "v1") // expect: insecure-secret-storage
        UserDefaults.standard.set(response["user"], forKey: "lastUser") // expect: insecure-secret-storage
        _ = UserDefaults.standard.string(forKey: "v1")
    }
}

// Flags kept by the same file: a `Bool` property's setter, a key named like a setting.
extension UserDefaults {
    @objc dynamic var didMigrateAuthentications: Bool {
        get { bool(forKey: "didMigrateAuthentications") }
        set { set(newValue, forKey: "didMigrateAuthentications") }
    }
    func markSignedIn(_ value: Any) { set(value, forKey: "isSignedIn") }
}
