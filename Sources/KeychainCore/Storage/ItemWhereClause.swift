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

    /// Rows that do not have this lookup tag in `item_tags`: one probe of the tags' primary key
    /// per candidate row (`NOT IN` over the subquery built a temporary table of every tagged row
    /// on each statement run, a fifth of a point read's SQLite work).
    mutating func notTagged(_ index: Data) {
        startCondition(naming: false)
        conditions += "NOT EXISTS (SELECT 1 FROM item_tags WHERE item_tags.tag = ? AND item_tags.item_rowid = "
        conditions += source.rawValue
        conditions += ".id)"
        arguments.append(index.databaseValue)
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

    /// Appends ` AND ` (after the first condition), then, when `naming`, the source's name and a dot.
    private mutating func startCondition(naming: Bool = true) {
        if conditions.isEmpty {
            conditions.reserveCapacity(256)
        } else {
            conditions += " AND "
        }
        guard naming else { return }
        conditions += source.rawValue
        conditions += "."
    }
}
