import Foundation
import GRDB

/// Turns a ``Query`` into SQL conditions over blind indexes and clear columns, so every filter
/// runs in SQLite and rows are decrypted only once they match (as Apple's keychain scans only
/// rows whose columns match).
///
/// It also keeps what it asked for, so that a row SQLite selected can be checked before anything
/// acts on it (``isSatisfied(byDecrypted:indexer:)``, ``isSatisfied(bySealed:tags:)``): lookup
/// columns, tags and SQLite's own indexes are plain data in the file, and an edited one must
/// never make a query act on another item.
struct ItemFilter {
    private(set) var conditions: [String] = []
    private(set) var arguments: [(any DatabaseValueConvertible)?] = []
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
    /// The access-group indexes one of which the rows must have.
    private(set) var groupIndexes: Set<Data>?
    /// Accessibility values (`pdmn`) the rows must have.
    private(set) var accessibilities: [String?] = []
    /// Synchronizable flags (0 or 1) the rows must have.
    private(set) var synchronizableFlags: [Int] = []
    /// Blind indexes of the attributes filtered on by column or tag.
    private(set) var indexedAttributes: [(key: AttributeKey, index: Data)] = []

    /// Conditions on the rows of `table` for a class, its coerced attribute filters, the
    /// synchronizable filter and the access groups.
    init(table: String, itemClass: ItemClass?, attributes: [AttributeKey: AttributeValue],
         synchronizable: SynchronizableFilter, accessGroups: [String]?, indexer: BlindIndexer) {
        self.itemClass = itemClass
        if let itemClass { add("\(table).item_class = ?", itemClass.rawValue) }
        if let accessGroups {
            if accessGroups.isEmpty { matchesNothing = true }
            let marks = Array(repeating: "?", count: accessGroups.count).joined(separator: ", ")
            let indexes = accessGroups.map { indexer.accessGroup($0) }
            conditions.append("\(table).group_index IN (\(marks))")
            arguments += indexes
            groupIndexes = Set(indexes)
        }
        switch synchronizable {
        case .no:
            add("\(table).synchronizable = 0")
            synchronizableFlags.append(0)
        case .yes:
            add("\(table).synchronizable = 1")
            synchronizableFlags.append(1)
        case .any: break
        }
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            addAttribute(key, value, table: table, indexer: indexer)
        }
    }

    mutating func addAttribute(_ key: AttributeKey, _ value: AttributeValue, table: String, indexer: BlindIndexer) {
        if key == .accessible {
            add("\(table).accessibility = ?", value.stringValue)
            accessibilities.append(value.stringValue)
        } else if key == .synchronizable {
            let flag = value.numberValue == 0 ? 0 : 1
            add("\(table).synchronizable = ?", flag)
            synchronizableFlags.append(flag)
        } else if ItemIndexes.untaggedAttributes.contains(key) || Keychain.secretDerivedAttributes.contains(key) {
            // Secret-derived blobs are tagged on every item, but selecting by their tag would
            // tell a caller whether a guess of a protected item's data is right.
            residual[key] = value
        } else if let column = ItemIndexes.columnAttributes[key] {
            let index = indexer.attribute(key, value)
            add("\(table).\(column) = ?", index)
            indexedAttributes.append((key, index))
        } else {
            let index = indexer.attribute(key, value)
            add("\(table).id IN (SELECT item_rowid FROM item_tags WHERE tag = ?)", index)
            indexedAttributes.append((key, index))
        }
    }

    mutating func add(_ condition: String, _ argument: (any DatabaseValueConvertible)?...) {
        conditions.append(condition)
        arguments += argument
    }

    var sql: String { conditions.isEmpty ? "1" : conditions.joined(separator: " AND ") }

    /// Whether decrypted attributes pass the residual filters, compared as the blind indexes
    /// compare (by the canonical bytes of each value).
    func residualMatches(_ attributes: [AttributeKey: AttributeValue], indexer: BlindIndexer) -> Bool {
        residual.allSatisfy { key, value in
            attributes[key].map { indexer.attribute(key, $0) == indexer.attribute(key, value) } ?? false
        }
    }
    var statementArguments: StatementArguments { StatementArguments(arguments) }

    /// Whether an item's decrypted attributes are what the query asked for: its class, access
    /// group, accessibility, synchronizable flag and every filtered attribute, each compared by
    /// its blind index (so exactly as SQLite compared the columns). The attributes are
    /// authenticated by the item's AEAD, so this holds whatever was edited in the clear columns.
    func isSatisfied(byDecrypted item: Keychain.OpenedItem, indexer: BlindIndexer) -> Bool {
        let attributes = item.attributes
        if let itemClass, item.row.itemClass != itemClass { return false }
        if let groupIndexes {
            let group = attributes[.accessGroup].map { indexer.attribute(.accessGroup, $0) } ?? indexer.accessGroup("")
            guard groupIndexes.contains(group) else { return false }
        }
        guard accessibilities.allSatisfy({ $0 != nil && attributes[.accessible]?.stringValue == $0 }),
              synchronizableFlags.allSatisfy({ Int(attributes[.synchronizable]?.numberValue ?? -1) == $0 }) else { return false }
        return indexedAttributes.allSatisfy { key, index in attributes[key].map { indexer.attribute(key, $0) } == index }
    }

    /// Whether a row's clear columns and lookup tags (authenticated by its row seal) are what
    /// the query asked for. Residual filters need the decrypted attributes and are not checked here.
    func isSatisfied(bySealed row: ItemRow, tags: Set<Data>) -> Bool {
        if let itemClass, row.itemClass != itemClass { return false }
        if let groupIndexes, !groupIndexes.contains(row.indexes.group) { return false }
        guard accessibilities.allSatisfy({ $0 == row.accessibility.rawValue }),
              synchronizableFlags.allSatisfy({ $0 == (row.synchronizable ? 1 : 0) }) else { return false }
        return indexedAttributes.allSatisfy { key, index in
            ItemIndexes.columnAttributes[key] != nil ? row.indexes.column(for: key) == index : tags.contains(index)
        }
    }
}
