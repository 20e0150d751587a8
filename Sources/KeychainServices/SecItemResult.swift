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
        value(item, Shape(request), reference: try self.reference(item, request, keychain: keychain))
    }

    /// Which `kSecReturn…` keys a request gave: all a result needs besides a key's reference.
    struct Shape: Sendable {
        let returnData: Bool
        let returnAttributes: Bool
        let returnRef: Bool
        let returnPersistentRef: Bool

        init(_ request: SecItemDictionary) {
            returnData = request.returnData
            returnAttributes = request.returnAttributes
            returnRef = request.returnRef
            returnPersistentRef = request.returnPersistentRef
        }

        /// How many `kSecReturn…` keys are true (one gives a bare value, several a dictionary).
        var returnKeyCount: Int { [returnData, returnAttributes, returnRef, returnPersistentRef].filter { $0 }.count }
    }

    /// The result for one item whose reference object, if one was asked for, is made.
    private static func value(_ item: FoundItem, _ shape: Shape, reference: SecKey?) -> AnyObject? {
        switch shape.returnKeyCount {
        case 0:
            return nil
        case 1:
            if shape.returnData { return NSData(data: item.data ?? Data()) }
            if shape.returnAttributes {
                return attributeDictionary(item, includingClass: false, includingDataDigest: false)
            }
            if shape.returnPersistentRef { return NSData(data: item.persistentReference.data) }
            return reference
        default:
            let dictionary =
                shape.returnAttributes || shape.returnRef
                ? attributeDictionary(item, includingClass: shape.returnRef, includingDataDigest: shape.returnData)
                : NSMutableDictionary()
            if shape.returnData { dictionary[NSString(string: "v_Data")] = NSData(data: item.data ?? Data()) }
            if shape.returnPersistentRef {
                dictionary[NSString(string: "v_PersistentRef")] = NSData(data: item.persistentReference.data)
            }
            if let reference { dictionary[NSString(string: "v_Ref")] = reference }
            return dictionary
        }
    }

    /// The result for several items (limit above one): an array, empty when nothing is returned,
    /// without the `nil` entries of password references. Without references (whose ``SecKey``s
    /// read the keychain), the items' values are built on every core, in order.
    static func array(_ items: [FoundItem], _ request: SecItemDictionary, keychain: Keychain) throws(KeychainError)
        -> NSArray
    {
        guard request.returnsAnything else { return NSArray() }
        guard request.returnRef else {
            let shape = Shape(request)
            let values = ConcurrentMap.map(items.count) { index in
                BuiltValue(value(items[index], shape, reference: nil))
            }
            return NSArray(array: values.compactMap(\.object))
        }
        var values: [AnyObject] = []
        for item in items {
            if let value = try value(item, request, keychain: keychain) { values.append(value) }
        }
        return NSArray(array: values)
    }

    /// One item's value built on a worker thread and handed back once every worker is done
    /// (``ConcurrentMap`` returns after them): no thread touches it while another builds it.
    private struct BuiltValue: @unchecked Sendable {
        let object: AnyObject?
        init(_ object: AnyObject?) { self.object = object }
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
