#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Adds an item to the keychain.
///
/// - Parameters:
///   - attributes: the class, attributes, `kSecValueData`, and optional `kSecReturn…` keys; or
///     `kSecValueRef` with a ``SecKey``, which adds that key as a key item.
///   - result: receives what the return keys ask for (never an array); may be `nil`.
/// - Returns: `errSecSuccess`, `errSecDuplicateItem` (-25299) when an item with the same primary key
///   exists, `errSecParam` (-50) for a malformed dictionary — including any `kSecMatch…` key, where
///   iOS reports success without storing anything (a documented Apple bug we do not copy) —,
///   `errSecMissingEntitlement` (-34018), `errSecInteractionNotAllowed` (-25308) while locked,
///   `errSecAuthFailed` (-25293) for a passcode-set item without a passphrase. A key generated
///   inside the keychain (`kSecAttrTokenIDSecureEnclave`) given as `kSecValueRef` is stored
///   already: `errSecDuplicateItem`.
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run("SecItemAdd") { () throws(KeychainError) in
        let added = try SecItemAddition.add(SecItemDictionary(attributes))
        result?.pointee = added.result
    }
}

/// The work of ``SecItemAdd(_:_:)``, also used to store the keys `SecKeyCreateRandomKey` makes
/// permanent.
enum SecItemAddition {
    /// Adds the item a parsed dictionary describes.
    /// - Returns: the stored item (with its attributes) and the result the return keys ask for.
    static func add(_ request: SecItemDictionary) throws(KeychainError) -> (item: FoundItem, result: AnyObject?) {
        try request.checkClientRules(allowsSkip: false)
        if request.accessControl?.requiresAuthentication == true, request.synchronizable == .value(true) {
            throw KeychainError.protectedItemSynchronizable()
        }
        let groups = SecItemAccessGroups(identity: SecItemEnvironment.applicationIdentity)
        let group = try groups.writeGroup(explicit: request.attributes[.accessGroup])
        try request.checkParsed()
        guard request.matchKeys.isEmpty, !request.useItemList else {
            throw KeychainError.addWithMatchKeys()
        }
        if request.persistentReference?.isLegacy == true {
            throw KeychainError.addWithLegacyReference()
        }
        if request.accessControl != nil && request.attributes[.accessible] != nil {
            throw KeychainError.accessibleAndAccessControlOnAdd()
        }
        var attributes = request.attributes
        var data = request.valueData
        let itemClass: ItemClass
        if let reference = request.valueRef {
            // The client expands a reference into its attributes; the caller's explicit ones win.
            guard let key = reference as? SecKey else {
                throw KeychainError.valueRefNotSecKey()
            }
            guard request.itemClass == nil || request.itemClass == .key else {
                throw KeychainError.secKeyWithOtherClass()
            }
            let keyItem = try key.itemForAdding()
            attributes.merge(keyItem.attributes) { explicit, _ in explicit }
            data = data ?? keyItem.data
            itemClass = .key
        } else {
            guard let given = request.itemClass else {
                throw KeychainError.noClass()
            }
            guard given != .identity else {
                throw KeychainError.identityAddUnsupported()
            }
            itemClass = given
        }
        attributes[.accessGroup] = .string(group)
        if let control = request.accessControl {
            attributes[.accessible] = .string(control.accessibility.rawValue)
            if let policy = control.accessPolicy { attributes[.accessControl] = policy.attributeValue }
        }
        if case .value(let flag) = request.synchronizable { attributes[.synchronizable] = .bool(flag) }
        let keychain = try SecItemEnvironment.keychain()
        var item = NewItem(itemClass, attributes: attributes, data: data)
        item.owner = SecItemEnvironment.libraryOwner
        let added = try keychain.add(item, returning: request.returnOptions.union(.attributes))
        if request.returnRef && itemClass == .certificate {
            throw KeychainError.certificateReferenceAfterAdd()
        }
        return (added, try SecItemResult.value(added, request, keychain: keychain))
    }
}
#endif
