import Foundation
import Security
import os

func readToken(_ query: CFDictionary, logger: Logger) -> Data? {
    var result: AnyObject?
    let status = SecItemCopyMatching(query, &result)
    print("SecItemCopyMatching returned \(status)")
    guard status == errSecSuccess, let data = result as? Data else {
        print("no token (\(status))")
        return nil
    }
    print("token found, \(data.count) bytes")
    print("has token: \(result != nil)")
    logger.debug("token \(String(decoding: data, as: UTF8.self), privacy: .private)")
    // Apple's Logger redacts interpolated strings unless they say `.public` (`.auto` is the default).
    logger.debug("token \(String(decoding: data, as: UTF8.self))")
    return data
}

func migrate(keys: [String]) {
    for key in keys { print("Migrated \(key) to Keychain") }
}

// A name bound again to something else, and a query for attributes only.
func rebound(_ query: CFDictionary, url: URL) {
    var result: AnyObject?
    guard SecItemCopyMatching(query, &result) == errSecSuccess, let data = result as? Data else { return }
    _ = data.count
    if let data = try? Data(contentsOf: url) { print(data) }
}

func accounts() {
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll]
    var result: AnyObject?
    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return }
    print(result ?? "none")
}

// Labels of errors, statuses, counts and flags, failures, and redacted interpolations.
func logAboutCredentials(error: Error, password: String, isValid: Bool, value: String, logger: Logger) {
    print("Invalid password: \(error)")
    print("token refresh failed: \(error)")
    print("password length: \(password.count)")
    print("token: \(isValid)")
    print("token status: \(value)")
    logger.info("token: \(value, privacy: .private)")
    logger.info("token: \(value)")
}

// Push tokens: named so by the message, or by what the logged name was bound to.
func logPushToken(fcmToken: String?) {
    let loggableNew = fcmToken ?? "(null)"
    print("Firebase registration token refreshed, new token: \(loggableNew)")
    print("new token: \(loggableNew)")
}

// A type whose own description leaves its secrets out: the whole value is not a leak.
struct RedactedAccount: CustomStringConvertible {
    let userID: String
    let accessToken: String
    var description: String { "RedactedAccount(userID: \(userID))" }
}
func checkRedacted(_ account: RedactedAccount) {
    print("Checking account: \(account)")
}

// Type names stay types (`Token.self`).
struct Token {}
func describeType() { print(Token.self) }
