import Foundation
import SwiftUI

func preferences(theme: String, token: String) throws {
    UserDefaults.standard.set(theme, forKey: "theme")
    _ = UserDefaults.standard.string(forKey: "authToken")
    UserDefaults.standard.removeObject(forKey: "authToken")
    UserDefaults.standard.set(true, forKey: "hasSeenOnboarding")
    UserDefaults.standard.set(Date(), forKey: "lastTokenRefreshCheck")
}

func writeProtected(token: Data, url: URL) throws {
    try token.write(to: url, options: .completeFileProtection)
    try token.write(to: url, options: [.atomic, .completeFileProtectionUnlessOpen])
    FileManager.default.createFile(atPath: url.path, contents: token, attributes: [.protectionKey: FileProtectionType.complete])
}

func writeOther(report: Data, url: URL) throws {
    try report.write(to: url.appendingPathComponent("report.json"))
    var output = ""
    "spinner".write(to: &output)
    FileHandle.standardError.write(Data("authorName".utf8))
}

struct Preferences: View {
    @AppStorage("theme") var theme = "dark"
    @AppStorage("isPinned") var pinned = false
    var body: some View { Text(theme) }
}

// Flags, counts and non-secret members of a credential, and settings about credentials.
struct Credentials { var username: String; var password: String }
func rememberState(credentials: Credentials, authToken: String?, token: String, on: Bool, options: Data.WritingOptions, url: URL) throws {
    UserDefaults.standard.set(credentials.username, forKey: "lastUsername")
    UserDefaults.standard.set(authToken != nil, forKey: "isLoggedIn")
    UserDefaults.standard.set(token.isEmpty, forKey: "tokenMissing")
    UserDefaults.standard.set(on, forKey: "rememberPassword")
    UserDefaults.standard.set(true, forKey: "usePin")
    try Data(token.utf8).write(to: url, options: options)
}
struct SecuritySettings: View {
    @AppStorage("useBiometricAuth") var biometrics = false
    @AppStorage("requirePasscode") var passcode = true
    var body: some View { Text("") }
}

// Settings and counts whose names mention a session, and push tokens (addresses, not credentials).
func sessionSettings(isSessionActive: Bool, sessionCount: Int, pushToken: String, deviceToken: Data, fcmToken: String) {
    UserDefaults.standard.set(true, forKey: "sessionExpired")
    UserDefaults.standard.set(isSessionActive, forKey: "isSessionActive")
    UserDefaults.standard.set(isSessionActive, forKey: "session")
    UserDefaults.standard.set(sessionCount, forKey: "sessionCount")
    UserDefaults.standard.set(sessionCount, forKey: "session")
    UserDefaults.standard.set(isSessionActive, forKey: "recorderManagesAudioSession")
    UserDefaults.standard.set(pushToken, forKey: "pushToken")
    UserDefaults.standard.set(deviceToken, forKey: "deviceToken")
    UserDefaults.standard.set(fcmToken, forKey: "fcmToken")
    let defaults = UserDefaults(suiteName: "group.x")
    defaults?.set(pushToken, forKey: "apnsToken")
    defaults?.set("dark", forKey: "theme")
    NSUbiquitousKeyValueStore.default.set(sessionCount, forKey: "sessionCount")
}

// A push token stored under a push-token key, whatever the value is called (an address, not a credential).
enum PushDefaultsKeys { static let pushToken = "SJPushToken" }
func setPushToken(token: String) {
    UserDefaults.standard.set(token, forKey: "pushToken")
    UserDefaults.standard.set(token, forKey: PushDefaultsKeys.pushToken)
    UserDefaults.standard.set(token, forKey: "voipTokenData")
}

// A project's own `write(_:to:)`, and `write(to:)` on values that are not file content.
struct LogEntry {}
final class Logger { func write(_ entry: LogEntry, to stream: OutputStream) {} }
final class ImageCache { func write(_ image: Data, to url: URL) {} }
final class Exporter { func write(to url: URL) {} }
func ownWrites(logger: Logger, entry: LogEntry, stream: OutputStream, cache: ImageCache, image: Data, exporter: Exporter) {
    logger.write(entry, to: stream)
    cache.write(image, to: URL(fileURLWithPath: "token.png"))
    exporter.write(to: URL(fileURLWithPath: "token.json"))
}

// Keys whose constants hold harmless names, models without credentials, protected files.
enum SettingsKeys { static let theme = "theme"; static let lastUser = "last_user" }
struct Profile: Codable { var name: String; var avatar: URL }
func harmless(profile: Profile, password: String, url: URL, path: String) throws {
    UserDefaults.standard.set(try JSONEncoder().encode(profile), forKey: SettingsKeys.theme)
    UserDefaults.standard.set(profile.name, forKey: SettingsKeys.lastUser)
    try Data(password.utf8).write(to: url, options: .completeFileProtection)
    let count = password.count
    try String(count).write(toFile: path, atomically: true, encoding: .utf8)
    let data = try JSONEncoder().encode(profile)
    try data.write(to: url)
}

// Harmless files copied.
final class ThemeInstaller {
    let themePath = NSHomeDirectory() + "/Documents/Theme.plist"
    func install(from bundlePath: String) throws {
        try FileManager.default.copyItem(atPath: bundlePath, toPath: themePath)
    }
}

// A key from an enum case whose raw value is harmless.
enum PreferenceKey: String { case current = "current_theme" }
func rememberRaw(value: String) {
    UserDefaults.standard.set(value, forKey: PreferenceKey.current.rawValue)
}
