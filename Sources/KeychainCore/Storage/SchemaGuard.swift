import Crypto
import Foundation
import GRDB

/// The exact schema a keychain file must have (the current format and the formats it upgrades from).
///
/// A file is refused unless its `sqlite_master` is exactly what our migrations create — no
/// extra trigger, view, table or index, nothing missing, the same SQL text — and its migration
/// records and header format agree with that schema. A look-alike schema could otherwise run its
/// own triggers inside our transactions (stash a keybag, loop forever) or hide columns.
/// ``Keychain`` checks it at open and again before any write once `PRAGMA schema_version`
/// changed; ``Keychain/verify(progress:)`` reports any difference.
enum SchemaGuard {
    /// One `sqlite_master` row.
    struct SchemaObject: Hashable, Comparable {
        var type: String
        var name: String
        var table: String
        var sql: String?

        static func < (lhs: SchemaObject, rhs: SchemaObject) -> Bool { (lhs.type, lhs.name) < (rhs.type, rhs.name) }
    }

    /// What the file holds.
    enum Contents: Equatable {
        /// Nothing yet, or the empty tables of a creation that was interrupted.
        case new
        /// A keychain with the first `appliedMigrations` migrations.
        case keychain(appliedMigrations: Int)
    }

    /// `sqlite_master` after the first n migrations, for n = 0 (bookkeeping table only) through
    /// all of them, computed once by running the migrations on an empty in-memory database.
    static let expectedSchemas: [Set<SchemaObject>] = {
        do {
            let queue = try DatabaseQueue()
            // no header: keyed steps do nothing
            let migrator = KeychainSchema.migrator(deviceKey: SymmetricKey(size: .bits256), location: nil)
            var schemas: [Set<SchemaObject>] = []
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                schemas.append(try objects(db))
                try db.execute(sql: "DROP TABLE grdb_migrations")
            }
            for migration in KeychainSchema.migrations {
                try migrator.migrate(queue, upTo: migration.identifier)
                schemas.append(try queue.read(objects))
            }
            return schemas
        } catch {
            preconditionFailure("the keychain schema cannot be built in memory: \(error)")
        }
    }()

    /// The SHA-256 of the current format's schema (``fingerprint(of:)`` of the last of
    /// ``expectedSchemas``), so that opening a keychain already in the current format does not
    /// build every format's schema in memory first (about a tenth of a command-line call).
    /// `SchemaGuardTests` derives it again from the migrations: a migration added or changed
    /// without updating it fails there.
    static let currentSchemaFingerprint = "7fb2fb083fab209419fca7435a4d4643857088efb8df58ea03047e1e07943ca6"

    /// The SHA-256, in hex, of a schema's rows in a canonical order and encoding: equal exactly
    /// when the schemas are.
    static func fingerprint(of objects: Set<SchemaObject>) -> String {
        var encoded: [UInt8] = []
        for object in objects.sorted(by: {
            ($0.type, $0.name, $0.table, $0.sql ?? "") < ($1.type, $1.name, $1.table, $1.sql ?? "")
        }) {
            encoded.appendLengthPrefixed(object.type)
            encoded.appendLengthPrefixed(object.name)
            encoded.appendLengthPrefixed(object.table)
            if let sql = object.sql {
                encoded.append(1)
                encoded.appendLengthPrefixed(sql)
            } else {
                encoded.append(0)
            }
        }
        return SHA256.hash(data: encoded).map { String(format: "%02x", $0) }.joined()
    }

    static func objects(_ db: Database) throws -> Set<SchemaObject> {
        try Set(
            Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master").map { row in
                SchemaObject(type: row[0] ?? "", name: row[1] ?? "", table: row[2] ?? "", sql: row[3])
            })
    }

    /// Classifies the file, refusing anything that is not exactly a keychain schema.
    ///
    /// - Throws: `.invalidKeychain` for a database that is not a keychain, `.unsupportedVersion`
    ///   for a newer format, `.integrityViolation` for a keychain whose schema, migration records
    ///   or header format were changed.
    static func inspect(_ db: Database, path: String) throws -> Contents {
        let objects = try objects(db)
        if objects.isEmpty { return .new }
        let known = KeychainSchema.migrations.map(\.identifier)
        // The common case, a keychain in the current format, without building the schemas.
        if fingerprint(of: objects) == currentSchemaFingerprint,
            Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")) == Set(known),
            try Int.fetchOne(db, sql: "SELECT format_version FROM vault_header WHERE id = 1")
                == KeychainSchema.formatVersion
        {
            return .keychain(appliedMigrations: known.count)
        }
        if objects == expectedSchemas[0], try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grdb_migrations") == 0 {
            return .new
        }
        guard objects.contains(where: { $0.type == "table" && $0.name == "vault_header" }) else {
            throw KeychainError.sqliteDatabaseNotAKeychain(path: path)
        }
        let format = try? Int.fetchOne(db, sql: "SELECT format_version FROM vault_header WHERE id = 1")
        if let format, format > KeychainSchema.formatVersion {
            throw KeychainError.keychainFormatTooNew(path: path, format: format)
        }
        let applied =
            objects.contains(where: { $0.name == "grdb_migrations" })
            ? Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")) : []
        guard let count = (1...known.count).first(where: { Set(known.prefix($0)) == applied }) else {
            throw KeychainError.tamperedMigrationRecords(migrations: applied.sorted().joined(separator: ", "))
        }
        if let difference = difference(objects, expected: expectedSchemas[count]) {
            throw KeychainError.tamperedSchema(
                schemaFormat: KeychainSchema.migrations[count - 1].format, difference: difference)
        }
        // Killed after some migrations committed but before the header did: a creation that
        // did not finish. Only when nothing else was written; a keychain whose header row was
        // deleted still has its keybag or items and is refused below.
        if format == nil,
            try Int.fetchOne(
                db,
                sql:
                    "SELECT (SELECT COUNT(*) FROM vault_header) + (SELECT COUNT(*) FROM keybag) + (SELECT COUNT(*) FROM items)"
            ) == 0
        {
            return .new
        }
        guard format == KeychainSchema.migrations[count - 1].format else {
            throw KeychainError.tamperedHeaderFormat(
                headerFormat: format.map(String.init) ?? "none",
                schemaFormat: KeychainSchema.migrations[count - 1].format)
        }
        return .keychain(appliedMigrations: count)
    }

    /// What differs between a schema and the expected one, in words; `nil` when they are equal.
    static func difference(_ objects: Set<SchemaObject>, expected: Set<SchemaObject>) -> String? {
        guard objects != expected else { return nil }
        let expectedNames = Set(expected.map { [$0.type, $0.name] })
        var parts: [String] = []
        for object in objects.subtracting(expected).sorted() {
            parts.append(
                expectedNames.contains([object.type, object.name])
                    ? "\(object.type) \(object.name) was altered" : "unexpected \(object.type) \(object.name)")
        }
        let present = Set(objects.map { [$0.type, $0.name] })
        for object in expected.sorted() where !present.contains([object.type, object.name]) {
            parts.append("\(object.type) \(object.name) is missing")
        }
        return parts.joined(separator: "; ")
    }

    /// The schema problems of an open keychain, for verify; empty when the schema is exact.
    static func problems(_ db: Database) throws -> [String] {
        let objects = try objects(db)
        guard fingerprint(of: objects) != currentSchemaFingerprint,
            let expected = expectedSchemas.last, let difference = difference(objects, expected: expected)
        else { return [] }
        return ["the schema is not exactly that of a format-\(KeychainSchema.formatVersion) keychain: \(difference)"]
    }
}
