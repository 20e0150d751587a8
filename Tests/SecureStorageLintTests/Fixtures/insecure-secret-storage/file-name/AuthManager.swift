import Foundation

// A file named *Auth*: every write to preferences is suspect, whatever the key is called.
final class AuthManager {
    func finish(response: [String: String]) {
        UserDefaults.standard.set(response["value"], forKey: "v1") // expect: insecure-secret-storage
        UserDefaults.standard.set(response["user"], forKey: "lastUser") // expect: insecure-secret-storage
        _ = UserDefaults.standard.string(forKey: "v1")
    }
}
