import Foundation
import UIKit

// Non-credentials on the pasteboard, credentials on a local expiring item or a named pasteboard.
func copyHarmless(shareLink: String, password: String, passwordHint: String) {
    UIPasteboard.general.string = shareLink
    UIPasteboard.general.string = passwordHint
    UIPasteboard.general.setItems([["public.plain-text": password]], options: [.localOnly: true, .expirationDate: Date()])
    UIPasteboard(name: UIPasteboard.Name("app"), create: true)?.string = password
    UIPasteboard.general.string = String(password.count)
}

// Secure cookies, and cookies that hold no credential.
func cookies(sessionToken: String, theme: String) {
    _ = HTTPCookie(properties: [.name: "session_token", .value: sessionToken, .secure: "TRUE", .domain: "example.com"])
    _ = HTTPCookie(properties: [.name: "theme", .value: theme, .domain: "example.com"])
}

// Cached responses without credentials.
func cache(response: URLResponse, request: URLRequest, image: Data) {
    URLCache.shared.storeCachedResponse(CachedURLResponse(response: response, data: image), for: request)
}

// A copy the user asked for: a copy action, or a button that confirms the copy.
func copyPassword(_ password: String) {
    UIPasteboard.general.string = password
}
func passwordButtonTapped(generatedPassword: String) {
    UIPasteboard.general.string = generatedPassword
    presentCopyConfirmation()
}
func presentCopyConfirmation() {}
