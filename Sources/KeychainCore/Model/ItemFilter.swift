import Foundation

/// Turns a ``Query`` into SQL conditions over blind indexes and clear columns (an
/// ``ItemWhereClause``), so every filter runs in SQLite and rows are decrypted only once they
/// match (as Apple's keychain scans only rows whose columns match).
///
/// It also keeps what it asked for, so that a row SQLite selected can be checked before anything
/// acts on it (``isSatisfied(byDecrypted:)``, ``isSatisfied(bySealed:tags:)``): lookup
/// columns, tags and SQLite's own indexes are plain data in the file, and an edited one must
/// never make a query act on another item.
struct ItemFilter {
    /// The conditions SQLite selects rows with.
    var clause: ItemWhereClause
    /// Set when the query can match nothing (an empty list of access groups).
    private(set) var matchesNothing = false
    /// Filters on ``ItemIndexes/untaggedAttributes`` and on values derived from secret data,
    /// checked on decrypted attributes.
    private(set) var residual: [AttributeKey: AttributeValue] = [:]
    /// Whether the query filters on values derived from an item's data (the data's SHA-1, the
    /// internet-password secret blobs): they are never matched in SQL and never against an item
    /// whose data needs authentication (see ``Keychain/matchingItems(_:limit:proof:_:)``).
    var filtersOnSecretDerivedValues: Bool { residual.keys.contains { Keychain.secretDerivedAttributes.contains($0) } }

    /// The class the rows must have.
    private(set) var itemClass: ItemClass?
    /// The access groups one of which the rows must have, and their blind indexes.
    private(set) var accessGroups: [String]?
    private(set) var groupIndexes: Set<Data>?
    /// Accessibility values (`pdmn`) the rows must have.
    private(set) var accessibilities: [String?] = []
    /// Synchronizable flags (0 or 1) the rows must have.
    private(set) var synchronizableFlags: [Int] = []
    /// The attributes filtered on by column or tag: the value asked for and its blind index.
    private(set) var indexedAttributes: [(key: AttributeKey, value: AttributeValue, index: Data)] = []
    /// The namespace searched: `nil` for the items apps own, or one library owner's.
    private(set) var owner: LibraryOwner?
    /// The tag of every library-owned row (``BlindIndexer/libraryOwnedTag``).
    private let libraryOwnedTag: Data

    /// Conditions on the rows of `table` for a class, its coerced attribute filters, the
    /// synchronizable filter and the access groups.
    init(
        table: ItemWhereClause.Source, itemClass: ItemClass?, attributes: [AttributeKey: AttributeValue],
        synchronizable: SynchronizableFilter, accessGroups: [String]?, owner: LibraryOwner? = nil, indexer: BlindIndexer
    ) {
        clause = ItemWhereClause(table)
        self.itemClass = itemClass
        self.owner = owner
        libraryOwnedTag = indexer.libraryOwnedTag
        if let owner {
            clause.tagged(libraryOwnedTag)
            let ownerIndex = indexer.attribute(LibraryOwner.attribute, owner.attributeValue)
            clause.tagged(ownerIndex)
            indexedAttributes.append((LibraryOwner.attribute, owner.attributeValue, ownerIndex))
        } else {
            clause.notTagged(libraryOwnedTag)
        }
        if let itemClass { clause.itemClass(is: itemClass) }
        if let accessGroups {
            if accessGroups.isEmpty { matchesNothing = true }
            let indexes = accessGroups.map { indexer.accessGroup($0) }
            clause.groupIndex(in: indexes)
            self.accessGroups = accessGroups
            groupIndexes = Set(indexes)
        }
        switch synchronizable {
        case .no:
            clause.synchronizable(is: false)
            synchronizableFlags.append(0)
        case .yes:
            clause.synchronizable(is: true)
            synchronizableFlags.append(1)
        case .any: break
        }
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            addAttribute(key, value, indexer: indexer)
        }
    }

    mutating func addAttribute(_ key: AttributeKey, _ value: AttributeValue, indexer: BlindIndexer) {
        if key == .accessible {
            clause.accessibility(is: value.stringValue)
            accessibilities.append(value.stringValue)
        } else if key == .synchronizable {
            let flag = value.numberValue == 0 ? 0 : 1
            clause.synchronizable(equalTo: flag)
            synchronizableFlags.append(flag)
        } else if ItemIndexes.untaggedAttributes.contains(key) || Keychain.secretDerivedAttributes.contains(key) {
            // Secret-derived blobs are tagged on every item, but selecting by their tag would
            // tell a caller whether a guess of a protected item's data is right.
            residual[key] = value
        } else if let column = ItemIndexes.columnAttributes[key] {
            let index = indexer.attribute(key, value)
            clause.column(column, is: index)
            indexedAttributes.append((key, value, index))
        } else {
            let index = indexer.attribute(key, value)
            clause.tagged(index)
            indexedAttributes.append((key, value, index))
        }
    }

    /// Whether decrypted attributes pass the residual filters, compared as the blind indexes
    /// compare (by the canonical bytes of each value).
    func residualMatches(_ attributes: [AttributeKey: AttributeValue]) -> Bool {
        residual.allSatisfy { key, value in
            attributes[key].map { BlindIndexer.canonicallyEqual($0, value) } ?? false
        }
    }

    /// Whether an item's decrypted attributes are what the query asked for: its class, access
    /// group, accessibility, synchronizable flag and every filtered attribute, each compared by
    /// the canonical bytes its blind index is made of (so exactly as SQLite compared the
    /// columns). The attributes are authenticated by the item's AEAD, so this holds whatever was
    /// edited in the clear columns.
    func isSatisfied(byDecrypted item: Keychain.OpenedItem) -> Bool {
        let attributes = item.attributes
        if let itemClass, item.row.itemClass != itemClass { return false }
        // The namespace: an app's query never acts on a library-owned item, nor the reverse.
        guard LibraryOwner.of(attributes) == owner else { return false }
        if let accessGroups {
            let group = attributes[.accessGroup] ?? .string("")
            guard accessGroups.contains(where: { BlindIndexer.canonicallyEqual(.string($0), group) }) else {
                return false
            }
        }
        guard accessibilities.allSatisfy({ $0 != nil && attributes[.accessible]?.stringValue == $0 }),
            synchronizableFlags.allSatisfy({ Int(attributes[.synchronizable]?.numberValue ?? -1) == $0 })
        else { return false }
        return indexedAttributes.allSatisfy { key, value, _ in
            attributes[key].map { BlindIndexer.canonicallyEqual($0, value) } ?? false
        }
    }

    /// Whether a row's clear columns and lookup tags (authenticated by its row seal) are what
    /// the query asked for. Residual filters need the decrypted attributes and are not checked here.
    func isSatisfied(bySealed row: ItemRow, tags: Set<Data>) -> Bool {
        if let itemClass, row.itemClass != itemClass { return false }
        guard tags.contains(libraryOwnedTag) == (owner != nil) else { return false }
        if let groupIndexes, !groupIndexes.contains(row.indexes.group) { return false }
        guard accessibilities.allSatisfy({ $0 == row.accessibility.rawValue }),
            synchronizableFlags.allSatisfy({ $0 == (row.synchronizable ? 1 : 0) })
        else { return false }
        return indexedAttributes.allSatisfy { key, _, index in
            ItemIndexes.columnAttributes[key] != nil ? row.indexes.column(for: key) == index : tags.contains(index)
        }
    }
}
