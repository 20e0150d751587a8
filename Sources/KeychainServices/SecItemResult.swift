#if !canImport(Security)
import Foundation
import KeychainCore

/// Builds what `SecItemCopyMatching` and `SecItemAdd` hand back, following the result-type
/// matrix of `spec/keychain-semantics.md` §4.4 and the attribute dictionaries of §4.5.
enum SecItemResult {
    /// The result for one item: a bare value for one return key, a dictionary for several,
    /// `nil` for none — and `nil` for a reference to a password, which has no reference object.
    static func value(_ item: FoundItem, _ request: SecItemDictionary) -> AnyObject? {
        switch request.returnKeyCount {
        case 0:
            return nil
        case 1:
            if request.returnData { return NSData(data: item.data ?? Data()) }
            if request.returnAttributes { return attributeDictionary(item, includingClass: false) }
            if request.returnPersistentRef { return NSData(data: item.persistentReference.data) }
            return nil
        default:
            let dictionary = request.returnAttributes || request.returnRef
                ? attributeDictionary(item, includingClass: request.returnRef)
                : NSMutableDictionary()
            if request.returnData { dictionary[NSString(string: "v_Data")] = NSData(data: item.data ?? Data()) }
            if request.returnPersistentRef { dictionary[NSString(string: "v_PersistentRef")] = NSData(data: item.persistentReference.data) }
            return dictionary
        }
    }

    /// The result for several items (limit above one): an array, empty when nothing is returned,
    /// without the `nil` entries of password references.
    static func array(_ items: [FoundItem], _ request: SecItemDictionary) -> NSArray {
        guard request.returnsAnything else { return NSArray() }
        return NSArray(array: items.compactMap { value($0, request) })
    }

    /// Attributes by raw key (`"acct"`, …), with `kSecAttrAccessControl` rebuilt from the
    /// accessibility; `class` only when a reference was requested (§4.5).
    static func attributeDictionary(_ item: FoundItem, includingClass: Bool) -> NSMutableDictionary {
        let dictionary = NSMutableDictionary()
        for (key, value) in item.attributes {
            dictionary[NSString(string: key.rawValue)] = SecValue.object(value)
        }
        if let accessibility = item.accessibility {
            dictionary[NSString(string: "accc")] = SecAccessControl(accessibility: accessibility, policy: item.accessPolicy)
        }
        if includingClass { dictionary[NSString(string: "class")] = NSString(string: item.itemClass.rawValue) }
        return dictionary
    }
}
#endif
