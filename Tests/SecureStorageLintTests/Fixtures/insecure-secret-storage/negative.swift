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
