import Foundation
import UIKit

// The general pasteboard.
func prefillOtherApp(password: String, token: String, otp: String) {
    UIPasteboard.general.string = password // expect: exposed-secret
    UIPasteboard.general.setValue(token, forPasteboardType: "public.plain-text") // expect: exposed-secret
    UIPasteboard.general.items = [["public.plain-text": otp]] // expect: exposed-secret
    let pasteboard = UIPasteboard.general
    pasteboard.setString(token) // expect: exposed-secret
    UIPasteboard.general.setItems([["public.plain-text": password]], options: [:]) // expect: exposed-secret
}

// Cookies without Secure.
func cookies(sessionToken: String, value: String) {
    let cookie = HTTPCookie(properties: [.name: "session_token", .value: value, .domain: "example.com", .path: "/"]) // expect: exposed-secret
    HTTPCookieStorage.shared.setCookie(cookie!)
    let properties: [HTTPCookiePropertyKey: Any] = [.name: "sid", .value: sessionToken, .domain: "example.com"]
    _ = HTTPCookie(properties: properties) // expect: exposed-secret
}

// A response carrying a token, cached.
func cache(response: URLResponse, request: URLRequest, token: String) {
    let body = Data("{\"token\": \"\(token)\"}".utf8)
    URLCache.shared.storeCachedResponse(CachedURLResponse(response: response, data: body), for: request) // expect: exposed-secret
}
