import Foundation
import GRDB

/// The WHERE clause of a query over `items`: conditions on the rows of one table name or alias,
/// joined with AND, and their arguments in order. ``ItemFilter`` builds it from a query;
/// ``ItemTable`` runs it.
struct ItemWhereClause: Sendable {
    /// The name under which a statement selects `items` rows.
    enum Source: String {
        /// The `items` table itself (``ItemTable/rows(in:where:limit:)``).
        case items
        /// The certificate side of the identity join (alias `c`, ``ItemTable/identityPairs(in:certificates:keys:limit:)``).
        case identityCertificate = "c"
        /// The private-key side of the identity join (alias `k`).
        case identityKey = "k"
    }

    /// The table or alias every condition names.
    let source: Source
    /// The conditions so far, joined with AND: written into one buffer as they come (a point
    /// read builds its clause on every call).
    private var conditions = ""
    private var arguments: [DatabaseValue] = []

    /// A clause with no conditions yet (it selects every row).
    init(_ source: Source) {
        self.source = source
    }

    /// The conditions joined with AND, or `1` when there are none.
    var sql: String { conditions.isEmpty ? "1" : conditions }

    /// The arguments of ``sql``, in order.
    var statementArguments: StatementArguments { StatementArguments(arguments) }

    /// The arguments of ``sql``, in order, as SQLite stores them (bound without GRDB's conversion).
    var values: [DatabaseValue] { arguments }

    /// Rows of this class.
    mutating func itemClass(is itemClass: ItemClass) {
        add("item_class = ?", itemClass.rawValue)
    }

    /// Rows with one of these access-group blind indexes.
    mutating func groupIndex(in indexes: [Data]) {
        let marks = Array(repeating: "?", count: indexes.count).joined(separator: ", ")
        startCondition()
        conditions += "group_index IN ("
        conditions += marks
        conditions += ")"
        arguments += indexes.map(\.databaseValue)
    }

    /// Rows with this synchronizable flag, written into the statement (the query's synchronizable filter).
    mutating func synchronizable(is flag: Bool) {
        startCondition()
        conditions += flag ? "synchronizable = 1" : "synchronizable = 0"
    }

    /// Rows with this synchronizable flag, bound as an argument (a synchronizable attribute filter).
    mutating func synchronizable(equalTo flag: Int) {
        add("synchronizable = ?", flag)
    }

    /// Rows with this accessibility (`pdmn`) value.
    mutating func accessibility(is value: String?) {
        add("accessibility = ?", value)
    }

    /// Rows whose blind-index column `column` (one of ``ItemIndexes/columnAttributes``) holds `index`.
    mutating func column(_ column: String, is index: Data) {
        startCondition()
        conditions += column
        conditions += " = ?"
        arguments.append(index.databaseValue)
    }

    /// Rows that have this lookup tag in `item_tags`.
    mutating func tagged(_ index: Data) {
        add("id IN (SELECT item_rowid FROM item_tags WHERE tag = ?)", index)
    }

    /// Rows that do not have this lookup tag in `item_tags`.
    mutating func notTagged(_ index: Data) {
        add("id NOT IN (SELECT item_rowid FROM item_tags WHERE tag = ?)", index)
    }

    /// The row with this item id (its UUID's bytes).
    mutating func itemID(is bytes: Data) {
        add("item_id = ?", bytes)
    }

    /// The row with this row id.
    mutating func rowID(is id: Int64) {
        add("id = ?", id)
    }

    /// Adds a condition on a column of ``source`` and its one argument.
    private mutating func add(_ condition: String, _ argument: (any DatabaseValueConvertible)?) {
        startCondition()
        conditions += condition
        arguments.append(argument?.databaseValue ?? .null)
    }

    /// Appends ` AND ` (after the first condition), then the source's name and a dot.
    private mutating func startCondition() {
        if conditions.isEmpty {
            conditions.reserveCapacity(256)
        } else {
            conditions += " AND "
        }
        conditions += source.rawValue
        conditions += "."
    }
}
