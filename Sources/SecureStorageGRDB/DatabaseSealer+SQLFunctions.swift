import Foundation
import GRDB

extension DatabaseSealer {
    /// Adds SQL functions to a connection, for migrations and SQL written by hand:
    ///
    /// - `secure_storage_seal(table, column, primaryKey, value)` seals `value`;
    /// - `secure_storage_open(table, column, primaryKey, sealed)` opens it (an error when it
    ///   does not open in that row);
    /// - `secure_storage_blind_index(table, column, value)` computes an exact-match index.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.prepareDatabase { db in try sealer.install(in: db) }
    /// // In a migration: seal an existing plaintext column in place.
    /// try db.execute(sql: "UPDATE note SET body = secure_storage_seal('note', 'body', id, body)")
    /// ```
    ///
    /// The primary key argument is one value: these functions serve tables with a one-column
    /// primary key.
    ///
    /// It also turns `trusted_schema` off on the connection, so that triggers and views in the
    /// file (which someone with write access to it could plant) cannot call these functions:
    /// only SQL the app runs itself can.
    public func install(in db: Database) throws {
        try db.execute(sql: "PRAGMA trusted_schema = OFF")
        db.add(
            function: DatabaseFunction("secure_storage_seal", argumentCount: 4, pure: false) { [self] arguments in
                try seal(
                    arguments[3], table: try Self.text(arguments[0]), column: try Self.text(arguments[1]),
                    identity: [arguments[2]])
            })
        db.add(
            function: DatabaseFunction("secure_storage_open", argumentCount: 4, pure: true) { [self] arguments in
                try open(
                    arguments[3], table: try Self.text(arguments[0]), column: try Self.text(arguments[1]),
                    identity: [arguments[2]])
            })
        db.add(
            function: DatabaseFunction("secure_storage_blind_index", argumentCount: 3, pure: true) { [self] arguments in
                blindIndex(arguments[2], table: try Self.text(arguments[0]), column: try Self.text(arguments[1]))
            })
    }

    private static func text(_ value: DatabaseValue) throws -> String {
        guard let text = String.fromDatabaseValue(value) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "secure_storage functions take the table and column names as text")
        }
        return text
    }
}
