import Foundation
import GRDB

/// How to open the rows of one fetch: where the primary key, each sealed column and its blind
/// index sit among the selected columns, worked out once from the column names (every row of a
/// fetch has the same), as a list of steps that makes a row's checks, and throws its errors, in
/// the order the sealer always made them.
struct SealedRowLayout {
    enum Step {
        /// The primary key column at `index`, named `column` in the key: NULL is `missingValue`.
        case identity(index: Int, column: String)
        /// Opens the sealed column at `index`, then checks its blind index when it is selected
        /// (at `indexAt`, `indexColumn` as the record names it).
        case open(
            index: Int, sealing: ColumnSealing, normalization: SealedColumn.Normalization, indexAt: Int?,
            indexColumn: String?)
        /// A fault of the selected columns themselves (a name selected twice, a missing primary
        /// key): every row fails with it at this point.
        case fail(SealedDatabaseError)
    }

    let columnNames: [String]
    let table: String
    private(set) var steps: [Step] = []

    init(columnNames: [String], table: SealedTable, sealer: DatabaseSealer) {
        self.columnNames = columnNames
        self.table = table.name
        // Two selected columns named alike (an alias in another case) are ambiguous.
        var seen = Set<String>()
        for name in columnNames where !seen.insert(name).inserted {
            steps = [.fail(SealedDatabaseError.tamperedValue(table: table.name, column: name))]
            return
        }
        do throws(SealedDatabaseError) {
            for column in table.primaryKey.columns {
                guard let index = try find(column, table: table.name) else {
                    throw SealedDatabaseError.missingValue(table: table.name, column: column)
                }
                steps.append(.identity(index: index, column: column))
            }
            for column in table.sealedColumns {
                guard let index = try find(column.name, table: table.name) else { continue }  // not selected
                // The blind index column is looked up after the value opened, as it always was.
                var indexAt: Int?
                var indexFault: SealedDatabaseError?
                if let name = column.blindIndex {
                    do throws(SealedDatabaseError) { indexAt = try find(name, table: table.name) } catch {
                        indexFault = error
                    }
                }
                steps.append(
                    .open(
                        index: index, sealing: sealer.sealing(table: table.name, column: column.name),
                        normalization: column.normalization, indexAt: indexAt, indexColumn: column.blindIndex))
                if let indexFault { throw indexFault }
            }
        } catch {
            steps.append(.fail(error))
        }
    }

    /// The index of the selected column named `column` whatever its case; `nil` when none is.
    /// - Throws: `tamperedValue` when several are.
    private func find(_ column: String, table: String) throws(SealedDatabaseError) -> Int? {
        let matches = columnNames.indices.filter { SealedTable.sameName(columnNames[$0], column) }
        guard matches.count <= 1 else { throw SealedDatabaseError.tamperedValue(table: table, column: column) }
        return matches.first
    }

    /// The values of a row of this layout with its sealed columns opened and their blind
    /// indexes checked.
    func open(_ values: [DatabaseValue]) throws(SealedDatabaseError) -> [DatabaseValue] {
        var values = values
        var identity: [DatabaseValue] = []
        for step in steps {
            switch step {
            case .identity(let index, let column):
                guard !values[index].isNull else {
                    throw SealedDatabaseError.missingValue(table: table, column: column)
                }
                identity.append(values[index])
            case .open(let index, let sealing, let normalization, let indexAt, let indexColumn):
                let value = try sealing.open(values[index], identity: identity)
                values[index] = value
                if let indexAt, let indexColumn,
                    values[indexAt] != sealing.blindIndex(value, normalization: normalization)
                {
                    throw SealedDatabaseError.tamperedValue(table: table, column: indexColumn)
                }
            case .fail(let error):
                throw error
            }
        }
        return values
    }

    /// A row of `values` (opened), under the selected names.
    func row(_ values: [DatabaseValue]) -> Row {
        Row(Dictionary(uniqueKeysWithValues: zip(columnNames, values.map { $0 as (any DatabaseValueConvertible)? })))
    }
}
