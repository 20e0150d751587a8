import Foundation

// Declared here, used in Store.swift: a model that holds a credential, a model that holds such a
// model, and key constants whose values name credentials.
struct Credentials: Codable {
    var username: String
    var password: String
}

struct Session: Codable {
    let credentials: Credentials
    let startedAt: Date
}

struct Profile: Codable {
    var displayName: String
}

enum DefaultsKeys {
    static let current = "auth_token"
    static let theme = "theme"
}

struct StoredCredentials {
    static let defaultsKey = "serverCredentials"
    static func write(_ data: Data, to defaults: UserDefaults) {
        defaults.set(data, forKey: defaultsKey) // expect: insecure-secret-storage
    }
}
