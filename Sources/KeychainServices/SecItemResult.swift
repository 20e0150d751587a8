#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Builds what `SecItemCopyMatching` and `SecItemAdd` hand back, following the result-type
/// matrix and the attribute dictionaries of Apple's keychain.
enum SecItemResult {
    /// The result for one item: a bare value for one return key, a dictionary for several,
    /// `nil` for none — and `nil` for a reference to a password, which has no reference object.
    /// A key's reference is a ``SecKey`` (built from the item, which then carries its data).
    static func value(_ item: FoundItem, _ request: SecItemDictionary, keychain: Keychain) throws(KeychainError)
        -> AnyObject?
    {
        let reference = try self.reference(item, request, keychain: keychain)
        switch request.returnKeyCount {
        case 0:
            return nil
        case 1:
            if request.returnData { return NSData(data: item.data ?? Data()) }
            if request.returnAttributes {
                return attributeDictionary(item, includingClass: false, includingDataDigest: false)
            }
            if request.returnPersistentRef { return NSData(data: item.persistentReference.data) }
            return reference
        default:
            let dictionary =
                request.returnAttributes || request.returnRef
                ? attributeDictionary(item, includingClass: request.returnRef, includingDataDigest: request.returnData)
                : NSMutableDictionary()
            if request.returnData { dictionary[NSString(string: "v_Data")] = NSData(data: item.data ?? Data()) }
            if request.returnPersistentRef {
                dictionary[NSString(string: "v_PersistentRef")] = NSData(data: item.persistentReference.data)
            }
            if let reference { dictionary[NSString(string: "v_Ref")] = reference }
            return dictionary
        }
    }

    /// The result for several items (limit above one): an array, empty when nothing is returned,
    /// without the `nil` entries of password references.
    static func array(_ items: [FoundItem], _ request: SecItemDictionary, keychain: Keychain) throws(KeychainError)
        -> NSArray
    {
        guard request.returnsAnything else { return NSArray() }
        var values: [AnyObject] = []
        for item in items {
            if let value = try value(item, request, keychain: keychain) { values.append(value) }
        }
        return NSArray(array: values)
    }

    /// The reference object of a key item when `kSecReturnRef` asks for one: a ``SecKey`` that
    /// keeps the call's authentication options (`kSecUseAuthenticationContext`, …) for later
    /// operations. Passwords have none.
    private static func reference(_ item: FoundItem, _ request: SecItemDictionary, keychain: Keychain)
        throws(KeychainError) -> SecKey?
    {
        guard request.returnRef, item.itemClass == .key else { return nil }
        return try SecKey.fromItem(item, keychain: keychain, authentication: request.authenticationOptions)
    }

    /// Attributes by raw key (`"acct"`, …), with `kSecAttrAccessControl` rebuilt from the
    /// accessibility; `class` only when a reference was requested; the item digest
    /// (`sha1`) only with the data.
    static func attributeDictionary(_ item: FoundItem, includingClass: Bool, includingDataDigest: Bool)
        -> NSMutableDictionary
    {
        let dictionary = NSMutableDictionary()
        for (key, value) in item.attributes where includingDataDigest || key != .sha1 {
            dictionary[NSString(string: key.rawValue)] = SecValue.object(value)
        }
        if let accessibility = item.accessibility {
            dictionary[NSString(string: "accc")] = SecAccessControl(
                accessibility: accessibility, policy: item.accessPolicy)
        }
        if includingClass { dictionary[NSString(string: "class")] = NSString(string: item.itemClass.rawValue) }
        return dictionary
    }
}
#endif
