import Foundation

// Test vectors and identifiers: random-looking, but not named like credentials.
let sha256OfEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
let identifier = "123e4567-e89b-12d3-a456-426614174000"
let bundle = "com.example.secure-storage.keychain"
let url = "https://example.com/api/v1/items?page=2"

// Named like credentials, but placeholders, prose and interpolations.
let apiKey = "YOUR_API_KEY_HERE"
let passphrase = "correct horse battery staple"
let secret = String(repeating: "a", count: 40)
let authHeader = "Bearer \(token)"

// Delimiters written as escapes: control characters, not passwords.
func wrapMatch(_ text: String) -> String {
    let startToken = "\u{001A}"
    let endToken = "\u{001D}"
    let separatorToken = "\u{1F}\u{1E}\u{1D}\u{1C}\u{1B}\u{1A}"
    return startToken + text + endToken + separatorToken
}

// Placeholders: all digits under a key's name, and values in types nested in a preview.
struct DemoConfig {
    let apiKey = "1234567"
    let accessToken = "00000000"
}
struct SupportView_Previews: PreviewProvider {
    struct PreviewConfig {
        enum Fixture { static let apiKey = "k3J9x!pQ2" }
        let password = "Pr3view!Pass"
    }
    static var previews: some View { Text("Support") }
}

// Comparisons that are not hard-coded credential checks.
func validate(
    username: String, password: String, token: String?, session: String, passwordSuffix: String, lexer: Lexer
) -> Bool {
    if username == "Admin" { return true }
    if password == "" || password == " " { return false }
    if token == "null" || token == "nil" { return false }
    if token == "token" { return false }
    if session == "active" { return true }
    if password == "abc" + passwordSuffix { return true }
    if lexer.token.text == "save" { return true }
    return password.count == 8
}
