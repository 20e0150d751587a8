import Foundation
import SwiftUI

func remember(token: String, user: String) {
    UserDefaults.standard.set(token, forKey: "authToken") // expect: insecure-secret-storage
    UserDefaults.standard.set(user, forKey: "lastUser")
    let defaults = UserDefaults(suiteName: "group.com.example")!
    defaults.set(Data(), forKey: "user_password") // expect: insecure-secret-storage
    defaults.setValue(token, forKey: Keys.refreshToken) // expect: insecure-secret-storage
    NSUbiquitousKeyValueStore.default.set(token, forKey: "apiKey") // expect: insecure-secret-storage
}

enum Keys { static let refreshToken = "refresh" }

final class SessionStore {
    private let store = UserDefaults.standard
    func save(sessionCookie: String) {
        store.set(sessionCookie, forKey: "cookie") // expect: insecure-secret-storage
        store["pin"] = "1234" // expect: insecure-secret-storage
    }
}

extension UserDefaults {
    subscript(key: String) -> Any? {
        get { object(forKey: key) }
        set { set(newValue, forKey: key) }
    }
}

struct SettingsView: View {
    @AppStorage("api_key") var key = "" // expect: insecure-secret-storage
    @SceneStorage("draft") var password = "" // expect: insecure-secret-storage
    @AppStorage("theme") var theme = "dark"
    var body: some View { Text(theme) }
}

func writeFiles(privateKey: Data, directory: URL) throws {
    try privateKey.write(to: directory.appendingPathComponent("key.der")) // expect: insecure-secret-storage
    try Data().write(to: directory.appendingPathComponent("token.json"), options: .atomic) // expect: insecure-secret-storage
    FileManager.default.createFile(atPath: "/tmp/credentials.plist", contents: privateKey) // expect: insecure-secret-storage
    FileManager.default.createFile(atPath: "/tmp/token.bin", contents: privateKey, attributes: [.protectionKey: FileProtectionType.none]) // expect: insecure-secret-storage
    try JSONEncoder().encode(["a": "b"]).write(to: URL(fileURLWithPath: "session-token.json"), options: .noFileProtection) // expect: insecure-secret-storage
}

func migrate() {
    for key in ["user_password", "api_key"] {
        UserDefaults.standard.set("x", forKey: key) // expect: insecure-secret-storage
    }
}

extension UserDefaults {
    func remember(accessToken: String) {
        set(accessToken, forKey: "accessToken") // expect: insecure-secret-storage
        self.set(accessToken, forKey: "token") // expect: insecure-secret-storage
    }
}
