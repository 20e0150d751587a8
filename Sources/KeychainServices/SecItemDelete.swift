#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Deletes every item the query matches, in every access group of the caller unless one is
/// given, non-synchronizable items only unless `kSecAttrSynchronizable` says otherwise.
/// Works while the keychain is locked.
///
/// - Returns: `errSecSuccess`, `errSecItemNotFound` (-25300), `errSecParam` (-50) for any
///   `kSecMatch…` key (even `kSecMatchLimitAll`), `errSecMissingEntitlement` (-34018).
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    SecItemCall.run("SecItemDelete") { () throws(KeychainError) in
        let request = SecItemDictionary(query)
        try request.checkClientRules(allowsSkip: false)
        let groups = try SecItemAccessGroups(identity: SecItemEnvironment.applicationIdentity)
            .searchGroups(explicit: request.attributes[.accessGroup])
        try request.checkParsed()
        guard request.matchKeys.isEmpty, !request.useItemList else {
            throw KeychainError.deleteQueryWithMatchKeys()
        }
        if let reference = request.persistentReference, reference.isLegacy, request.hasAttributesBesideReference {
            throw KeychainError.legacyReferenceWithAttributes()
        }
        var engineQuery = try SecItemQueryBuilder.query(request, groups: groups)
        engineQuery.limit = .all
        try SecItemEnvironment.keychain().delete(engineQuery)
    }
}
#endif
