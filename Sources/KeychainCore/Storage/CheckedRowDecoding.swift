import GRDB

extension Row {
    /// The value at `index`, or an integrity error naming `column` when the stored value has the
    /// wrong type or is NULL. SQLite columns accept any value, so an edited file can hold
    /// anything; GRDB's subscripts would stop the process, this reports it.
    func checked<Value: DatabaseValueConvertible>(_ index: Int, _ column: String, in table: String) throws -> Value {
        do { return try decode(atIndex: index) } catch {
            throw KeychainError.tamperedColumnType(table: table, column: column)
        }
    }

    /// The value of the column named `column` (looked up case-insensitively), checked as
    /// ``checked(_:_:in:)`` does.
    func checked<Value: DatabaseValueConvertible>(_ column: String, in table: String) throws -> Value {
        do { return try decode(forColumn: column) } catch {
            throw KeychainError.tamperedColumnMissingOrType(table: table, column: column)
        }
    }
}
