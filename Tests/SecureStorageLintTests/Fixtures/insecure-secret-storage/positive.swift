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

// App-group defaults through optional chaining, and iCloud key-value storage.
final class GroupSettings {
    let defaults = UserDefaults(suiteName: "group.com.example")
    func save(password: String, token: String) {
        defaults?.set(password, forKey: "pw") // expect: insecure-secret-storage
        UserDefaults(suiteName: "group.x")?.set(token, forKey: "t") // expect: insecure-secret-storage
        cloud.set(token, forKey: "t") // expect: insecure-secret-storage
        NSUbiquitousKeyValueStore.default.setString(password, forKey: "p") // expect: insecure-secret-storage
    }
    private let cloud = NSUbiquitousKeyValueStore.default
}

// Keys from constants: by name, and by the literal the constant holds.
enum StorageKeys {
    static let password = "pw"
    static let userKey = "auth_token"
}
struct Constants { static let tokenKey = "k" }
func rememberKeys(value: String) {
    UserDefaults.standard.set(value, forKey: StorageKeys.password) // expect: insecure-secret-storage
    UserDefaults.standard.set(value, forKey: Constants.tokenKey) // expect: insecure-secret-storage
    UserDefaults.standard.set(value, forKey: StorageKeys.userKey) // expect: insecure-secret-storage
}

// Values known by more than their name: a binding, an encoding, a parameter label, a model type.
struct LoginInfo: Codable { var username: String; var password: String }
struct UserAccount { var name: String; var token: String }
func rememberValues(login: LoginInfo, account: UserAccount, secret value: String, loginInfo: LoginInfo) throws {
    let body = try JSONEncoder().encode(login)
    UserDefaults.standard.set(body, forKey: "cached") // expect: insecure-secret-storage
    UserDefaults.standard.set(account.token, forKey: "cachedValue") // expect: insecure-secret-storage
    UserDefaults.standard.set(value, forKey: "v") // expect: insecure-secret-storage
    let info = LoginInfo(username: "a", password: value)
    UserDefaults.standard.set(try PropertyListEncoder().encode(info), forKey: "info") // expect: insecure-secret-storage
    UserDefaults.standard.set(try JSONEncoder().encode(loginInfo), forKey: "li") // expect: insecure-secret-storage
    let header = "Bearer \(account.token)"
    UserDefaults.standard.set(header, forKey: "h") // expect: insecure-secret-storage
}

// Files: bytes, strings, dictionaries, property lists and archives of credentials.
func writeCredentialFiles(password: String, token: String, login: LoginInfo, url: URL, path: String) throws {
    try Data(password.utf8).write(to: url) // expect: insecure-secret-storage
    try password.write(toFile: path, atomically: true, encoding: .utf8) // expect: insecure-secret-storage
    try token.write(to: url, atomically: true, encoding: .utf8) // expect: insecure-secret-storage
    let data = Data(token.utf8)
    try data.write(to: url) // expect: insecure-secret-storage
    let dictionary = NSMutableDictionary()
    dictionary["password"] = password
    dictionary.write(toFile: path, atomically: true) // expect: insecure-secret-storage
    let plain: [String: Any] = ["user": "a", "token": token]
    (plain as NSDictionary).write(to: url, atomically: true) // expect: insecure-secret-storage
    let plist = try PropertyListEncoder().encode(login)
    try plist.write(to: url) // expect: insecure-secret-storage
    let serialized = try PropertyListSerialization.data(fromPropertyList: ["pin": token], format: .xml, options: 0)
    try serialized.write(to: url) // expect: insecure-secret-storage
    NSKeyedArchiver.archiveRootObject(token, toFile: path) // expect: insecure-secret-storage
    let archive = try NSKeyedArchiver.archivedData(withRootObject: password, requiringSecureCoding: false)
    try archive.write(to: url) // expect: insecure-secret-storage
    let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
    try Data(token.utf8).write(to: documents.appendingPathComponent("t")) // expect: insecure-secret-storage
}

// A bundled credentials file copied into Documents.
final class PlistInstaller {
    let plistPath = NSHomeDirectory() + "/Documents/Credentials.plist"
    func install(from bundlePath: String) throws {
        try FileManager.default.copyItem(atPath: bundlePath, toPath: plistPath) // expect: insecure-secret-storage
    }
}

// A key from an enum case whose raw value names a credential.
enum DefaultsKey: String { case current = "auth_token" }
func rememberRaw(value: String) {
    UserDefaults.standard.set(value, forKey: DefaultsKey.current.rawValue) // expect: insecure-secret-storage
}

// A value named like a push token's is still a credential under a credential's key.
func setSessionToken(token: String) {
    UserDefaults.standard.set(token, forKey: "authToken") // expect: insecure-secret-storage
}
