#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Turns a parsed search dictionary into an engine query with Apple's implicit filters:
/// the caller's access groups, and non-synchronizable items unless the dictionary says otherwise.
enum SecItemQueryBuilder {
    static func query(_ request: SecItemDictionary, groups: [String]?) throws(KeychainError) -> Query {
        let key = try referencedKey(request)
        guard let itemClass = request.itemClass ?? request.persistentReference?.itemClass ?? (key != nil ? .key : nil)
        else {
            throw KeychainError.noClassNorReference()
        }
        var query = Query(itemClass, attributes(request), accessGroups: groups, limit: request.matchLimit ?? .one)
        query.authentication = request.authenticationOptions
        query.owner = SecItemEnvironment.libraryOwner
        if let reference = request.persistentReference {
            query.persistentReference = reference
            query.itemClass = request.itemClass
            query.synchronizable = .any
        }
        if let filter = key?.itemFilter {
            // The key's own attributes; the caller's explicit ones win.
            query.persistentReference = filter.reference ?? query.persistentReference
            query.attributes.merge(filter.attributes) { explicit, _ in explicit }
        }
        switch request.synchronizable {
        case .any: query.synchronizable = .any
        case .value(let flag): query.attributes[.synchronizable] = .bool(flag)
        case nil: break
        }
        return query
    }

    /// The key `kSecValueRef` names, whose item the search is to find.
    /// - Throws: `errSecParam` for another object, or a class other than `kSecClassKey`.
    private static func referencedKey(_ request: SecItemDictionary) throws(KeychainError) -> SecKey? {
        guard let reference = request.valueRef else { return nil }
        guard let key = reference as? SecKey else {
            throw KeychainError.valueRefNotSecKey()
        }
        guard request.itemClass == nil || request.itemClass == .key else {
            throw KeychainError.secKeyWithOtherClass()
        }
        return key
    }

    /// The attribute filters: the access group becomes the group filter, and an access-control
    /// object filters on its accessibility.
    private static func attributes(_ request: SecItemDictionary) -> [AttributeKey: AttributeValue] {
        var attributes = request.attributes
        attributes[.accessGroup] = nil
        if let control = request.accessControl { attributes[.accessible] = .string(control.accessibility.rawValue) }
        return attributes
    }
}
#endif
