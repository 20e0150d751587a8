import Foundation
import SwiftUI

// Strings given a credential's name that are not credentials.
enum Strings {
    static let password = "Password"
    static let passwordPrompt = "Enter your password"
    static let passphrase = "correct horse battery staple"
    static let token = "••••••••"
    static let secret = "********"
    static let apiKey = "YOUR_API_KEY"
    static let sessionToken = ""
}
let localizedPassword = NSLocalizedString("login.password.placeholder", comment: "Password")
let passwordLocalizationKey = "login.password.placeholder"
let authPassword = "login.password.placeholder"

// Key names: the name under which a credential is kept, not the credential.
let passwordKey = "password"
let tokenKey = "com.example.token"
let sessionTokenKey = "sessionKey"
let refreshToken = "refresh_token"
let authHeader = "Authorization"
let accessToken = "accessToken"
let token = "token"
enum Keys { static let refreshToken = "refresh" }
enum Field: String {
    case password = "password"
    case accessToken = "access_token"
}
func keys(defaults: UserDefaults, request: inout URLRequest, value: String) {
    _ = defaults.string(forKey: "token")
    defaults.set(value, forKey: "auth_token_v2")
    request.setValue(value, forHTTPHeaderField: "X-Auth-Token")
}

// Identifiers, paths, URLs and format strings.
let tokenEndpoint = "https://example.com/oauth/token"
let secretToken = "https://example.com/oauth/token"
let credentials = "credentials.json"
let passwordFormat = "%@:%@"
let pinPath = "/var/mobile/pin"
enum Files {
    static let token = "token.json"
    static let password = "key.fill"
    static let secret = "login_secret_title"
}
let query = ["grant_type": "password", "token_type": "Bearer"]

// UI text set on views named for a credential.
final class LoginView {
    let passwordLabel = Label()
    func configure() {
        passwordLabel.text = "Passwort:"
    }
}
final class Label {
    var text = ""
}

// Names with a credential word that more often names something else, and push tokens.
enum Sections { case authorization, api }
let titles = [Sections.authorization: "Authentication", Sections.api: "Make API Call"]
final class LocationHistory {
    var accuracyAuthorization = ""
    func update(full: Bool) {
        accuracyAuthorization = full ? "full" : "reduced"
        accuracyAuthorization = "missing"
    }
}
let sessionCategory = "playback"
let apnsToken = "a1b2c3d4e5f6"
Flurry.startSession(apiKey: "8RM5WHP628853HQXFKDX")

// A plain lower-case word passed to a function: a stand-in (a calibration or benchmark run).
func calibrate() throws {
    _ = try deriveKey(passphrase: "calibration", salt: Data(count: 16))
}

// Made-up values shown by previews.
struct LoginForm: View {
    var password: String
    var body: some View { Text("Sign in") }
}
struct LoginFormPreviews: PreviewProvider {
    static var previews: some View { LoginForm(password: "preview123") }
}
#Preview {
    LoginForm(password: "preview456")
}
