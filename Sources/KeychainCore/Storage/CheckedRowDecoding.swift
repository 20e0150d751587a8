import GRDB

extension Row {
    /// The value at `index`, or an integrity error naming `column` when the stored value has the
    /// wrong type or is NULL. SQLite columns accept any value, so an edited file can hold
    /// anything; GRDB's subscripts would stop the process, this reports it.
    func checked<Value: DatabaseValueConvertible>(_ index: Int, _ column: String, in table: String) throws -> Value {
        do { return try decode(atIndex: index) } catch {
            throw KeychainError.tampered("the \(table) table's \(column) column holds a value of the wrong type")
        }
    }

    /// The value of the column named `column` (looked up case-insensitively), checked as
    /// ``checked(_:_:in:)`` does.
    func checked<Value: DatabaseValueConvertible>(_ column: String, in table: String) throws -> Value {
        do { return try decode(forColumn: column) } catch {
            throw KeychainError.tampered("the \(table) table's \(column) column is missing or holds a value of the wrong type")
        }
    }
}
