import Security

/// The query keys, named once (the alias enum of the module).
enum KeychainKeys {
    static let itemClass = kSecClass as String
    static let service = kSecAttrService as String
    static let account = kSecAttrAccount as String
    static let data = kSecValueData as String
    static let accessible = kSecAttrAccessible as String
}
