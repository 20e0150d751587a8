import Security

/// Keys through computed properties and a conversion function (KeychainSwift's style).
struct StoreConstants {
    static var klass: String { toString(kSecClass) }
    static var attrAccount: String { toString(kSecAttrAccount) }
    static var valueData: String { return toString(kSecValueData) }
    static var accessible: String { toString(kSecAttrAccessible) }
    static func toString(_ value: CFString) -> String { value as String }
}
