import Foundation

/// A query checked against its class's schema, with values coerced, ready to become SQL.
struct ResolvedQuery {
    var itemClass: ItemClass
    var attributes: [AttributeKey: AttributeValue]
    var synchronizable: SynchronizableFilter
    var accessGroups: [String]?
    var limit: MatchLimit
    var persistentReference: PersistentReference?
    var authentication: AuthenticationOptions
    /// The library-owned namespace searched, or `nil` for the items apps own.
    var owner: LibraryOwner?

    init(_ query: Query) throws(KeychainError) {
        if let reference = query.persistentReference {
            if let itemClass = query.itemClass, itemClass != reference.itemClass {
                throw KeychainError.persistentReferenceOfAnotherClass(
                    referencedClass: reference.itemClass.rawValue, queriedClass: itemClass.rawValue)
            }
            itemClass = reference.itemClass
        } else if let itemClass = query.itemClass {
            self.itemClass = itemClass
        } else {
            throw KeychainError.queryWithoutClass()
        }
        var attributes = try ItemAttributes.coerce(query.attributes, for: itemClass)
        synchronizable = query.persistentReference == nil ? query.synchronizable : .any
        if let sync = attributes.removeValue(forKey: .synchronizable)?.numberValue {
            synchronizable = sync == 0 ? .no : .yes
        }
        self.attributes = attributes
        accessGroups = query.accessGroups
        limit = query.limit
        persistentReference = query.persistentReference
        authentication = query.authentication
        owner = query.owner
        if case .count(let count) = limit, count < 1 {
            throw KeychainError.matchLimitTooSmall(count: count)
        }
    }

    /// The filter (and its SQL conditions) for rows of `table` of one stored class.
    func filter(
        table: ItemWhereClause.Source, itemClass: ItemClass, attributes: [AttributeKey: AttributeValue],
        indexer: BlindIndexer
    ) -> ItemFilter {
        ItemFilter(
            table: table, itemClass: itemClass, attributes: attributes, synchronizable: synchronizable,
            accessGroups: accessGroups, owner: owner, indexer: indexer)
    }

    /// For identities: which filters apply to the certificate and which to the private key.
    /// Attributes the certificate has are matched on it; the others on the key.
    var identitySplit: (certificate: [AttributeKey: AttributeValue], key: [AttributeKey: AttributeValue]) {
        let certificateSchema = ItemSchema.of(.certificate)
        return (
            attributes.filter { certificateSchema.accepts($0.key) },
            attributes.filter { !certificateSchema.accepts($0.key) }
        )
    }
}
