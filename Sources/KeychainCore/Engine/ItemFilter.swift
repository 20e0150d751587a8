import Foundation
import GRDB

/// Turns a ``Query`` into SQL conditions over blind indexes and clear columns, so every filter
/// runs in SQLite and rows are decrypted only once they match (as Apple's keychain scans only
/// rows whose columns match).
struct ItemFilter {
    private(set) var conditions: [String] = []
    private(set) var arguments: [(any DatabaseValueConvertible)?] = []
    /// Set when the query can match nothing (an empty list of access groups).
    private(set) var matchesNothing = false
    /// Filters on ``ItemIndexes/untaggedAttributes``, checked on decrypted attributes.
    private(set) var residual: [AttributeKey: AttributeValue] = [:]

    /// Conditions on the rows of `table` for a class, its coerced attribute filters, the
    /// synchronizable filter and the access groups.
    init(table: String, itemClass: ItemClass?, attributes: [AttributeKey: AttributeValue],
         synchronizable: SynchronizableFilter, accessGroups: [String]?, indexer: BlindIndexer) {
        if let itemClass { add("\(table).item_class = ?", itemClass.rawValue) }
        if let accessGroups {
            if accessGroups.isEmpty { matchesNothing = true }
            let marks = Array(repeating: "?", count: accessGroups.count).joined(separator: ", ")
            conditions.append("\(table).group_index IN (\(marks))")
            arguments += accessGroups.map { indexer.accessGroup($0) }
        }
        switch synchronizable {
        case .no: add("\(table).synchronizable = 0")
        case .yes: add("\(table).synchronizable = 1")
        case .any: break
        }
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            addAttribute(key, value, table: table, indexer: indexer)
        }
    }

    mutating func addAttribute(_ key: AttributeKey, _ value: AttributeValue, table: String, indexer: BlindIndexer) {
        if key == .accessible {
            add("\(table).accessibility = ?", value.stringValue)
        } else if key == .synchronizable {
            add("\(table).synchronizable = ?", value.numberValue == 0 ? 0 : 1)
        } else if ItemIndexes.untaggedAttributes.contains(key) {
            residual[key] = value
        } else if let column = ItemIndexes.columnAttributes[key] {
            add("\(table).\(column) = ?", indexer.attribute(key, value))
        } else {
            add("\(table).id IN (SELECT item_rowid FROM item_tags WHERE tag = ?)", indexer.attribute(key, value))
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
}
