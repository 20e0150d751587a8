#if !canImport(Security)
import Foundation
import KeychainCore

/// Adds an item to the keychain (`spec/keychain-semantics.md` §5.2).
///
/// - Parameters:
///   - attributes: the class, attributes, `kSecValueData`, and optional `kSecReturn…` keys.
///   - result: receives what the return keys ask for (§4.4, never an array); may be `nil`.
/// - Returns: `errSecSuccess`, `errSecDuplicateItem` (-25299) when an item with the same primary key
///   exists, `errSecParam` (-50) for a malformed dictionary — including any `kSecMatch…` key, where
///   iOS reports success without storing anything (a documented Apple bug we do not copy) —,
///   `errSecMissingEntitlement` (-34018), `errSecInteractionNotAllowed` (-25308) while locked,
///   `errSecAuthFailed` (-25293) for a passcode-set item without a passphrase.
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemStatus.run("SecItemAdd") { () throws(KeychainError) in
        let request = SecItemDictionary(attributes)
        try request.checkClientRules(allowsSkip: false)
        if request.accessControl?.requiresAuthentication == true, request.synchronizable == .value(true) {
            throw SecItemStatus.parameter("Items with access-control constraints cannot be synchronizable.")
        }
        let groups = SecItemAccessGroups(identity: SecItemEnvironment.applicationIdentity)
        let group = try groups.writeGroup(explicit: request.attributes[.accessGroup])
        try request.checkParsed()
        guard request.matchKeys.isEmpty, !request.useItemList else {
            throw SecItemStatus.parameter("SecItemAdd does not take kSecMatch… keys or kSecUseItemList; remove them (a search dictionary reused for an add). iOS reports success without storing the item in this case.")
        }
        if request.persistentReference?.isLegacy == true {
            throw SecItemStatus.parameter("SecItemAdd does not take a legacy persistent reference.")
        }
        if request.accessControl != nil && request.attributes[.accessible] != nil {
            throw SecItemStatus.parameter("Give either kSecAttrAccessible or kSecAttrAccessControl, not both; put the protection inside the SecAccessControl.")
        }
        guard let itemClass = request.itemClass else {
            throw SecItemStatus.parameter("The dictionary has no kSecClass.")
        }
        guard itemClass != .identity, request.valueRef == nil else {
            throw SecItemStatus.parameter("Identities, keys and certificates added by kSecValueRef need SecIdentity/SecKey/SecCertificate objects, which this platform does not provide yet.")
        }
        var attributes = request.attributes
        attributes[.accessGroup] = .string(group)
        if let control = request.accessControl {
            attributes[.accessible] = .string(control.accessibility.rawValue)
            if let policy = control.accessPolicy { attributes[.accessControl] = policy.attributeValue }
        }
        if case .value(let flag) = request.synchronizable { attributes[.synchronizable] = .bool(flag) }
        let keychain = try SecItemEnvironment.keychain()
        let added = try keychain.add(NewItem(itemClass, attributes: attributes, data: request.valueData), returning: request.returnOptions)
        if request.returnRef && itemClass != .genericPassword && itemClass != .internetPassword {
            throw KeychainError(.unimplemented, "kSecReturnRef for keys and certificates needs SecKey/SecCertificate, which this platform does not provide yet; the item was added.")
        }
        result?.pointee = SecItemResult.value(added, request)
    }
}
#endif
