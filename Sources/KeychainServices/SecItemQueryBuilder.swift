#if !canImport(Security)
import Foundation
import KeychainCore

/// Turns a parsed search dictionary into an engine query with the implicit filters of §4.3:
/// the caller's access groups, and non-synchronizable items unless the dictionary says otherwise.
enum SecItemQueryBuilder {
    static func query(_ request: SecItemDictionary, groups: [String]?) throws(KeychainError) -> Query {
        guard let itemClass = request.itemClass ?? request.persistentReference?.itemClass else {
            throw SecItemStatus.parameter("The dictionary has no kSecClass (and no persistent reference).")
        }
        if request.valueRef != nil {
            throw SecItemStatus.parameter("kSecValueRef needs SecKey/SecCertificate/SecIdentity objects, which this platform does not provide yet.")
        }
        var query = Query(itemClass, attributes(request), accessGroups: groups, limit: request.matchLimit ?? .one)
        query.authentication = request.authenticationOptions
        if let reference = request.persistentReference {
            query.persistentReference = reference
            query.itemClass = request.itemClass
            query.synchronizable = .any
        }
        switch request.synchronizable {
        case .any: query.synchronizable = .any
        case .value(let flag): query.attributes[.synchronizable] = .bool(flag)
        case nil: break
        }
        return query
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
