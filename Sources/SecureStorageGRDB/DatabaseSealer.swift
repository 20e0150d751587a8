import Crypto
import Foundation
import GRDB
import SecureStorageFoundation
import SecureStorage

/// Seals chosen columns of GRDB records with a key kept in the keychain: each value is
/// encrypted with AES-256-GCM, bound to its table, column and primary key, so a value copied
/// into another row, column or table, or a database with another key, does not open. Exact-match searches on sealed
/// columns go through blind indexes (keyed HMACs) where the caller asks for them.
///
/// ```swift
/// let storage = SecureStorage(service: "com.acme.notes")
/// let sealer = try DatabaseSealer.load(from: storage, key: "notes.db-key", requireUserPresence: true)
/// try dbQueue.write { db in
///     try sealer.prepare(db)                     // once per database: records the key's ID
///     var note = Note(id: nil, title: "Groceries", body: "milk, eggs")
///     try sealer.insert(&note, db)
/// }
/// let notes = try dbQueue.read { db in try sealer.fetchAll(db, Note.order(Column("title"))) }
/// ```
///
/// What stays visible to whoever reads the file: the schema, row counts, primary keys,
/// unsealed columns, a sealed value's length (the plaintext's plus 30 bytes), and which rows
/// share a blind-indexed value. A cell put back to an older value of the same row, or copied
/// from another database sealed with the same key, is not detected.
///
/// Write sealed records only through the sealer: GRDB's own `insert`, `save`, `update` or
/// `upsert` on the record fail with ``SealedDatabaseError/Code/unsealedWrite`` (they would store
/// the plaintext). The article <doc:SealedColumns> explains the choices.
public final class DatabaseSealer: Sendable {
    /// The 16-byte public identifier of the key: stored in the database so that opening it with
    /// another key is a clear error.
    public let keyID: Data
    private let sealingKey: SymmetricKey
    private let indexRoot: SymmetricKey
    /// The sealing of each table and column used so far (see ``ColumnSealing``): released with
    /// the sealer.
    let columnSealings = ColumnSealingCache()

    /// A sealer using `key` (256 bits). Prefer ``load(from:key:sensitivity:requireUserPresence:)``,
    /// which keeps the key in the keychain.
    /// - Throws: ``SealedDatabaseError/Code/invalidKey`` for a key of another size.
    public init(key: SymmetricKey) throws(SealedDatabaseError) {
        guard key.bitCount == 256 else { throw SealedDatabaseError.invalidKey(table: Self.metadataTable) }
        keyID = Data(HMAC<SHA256>.authenticationCode(for: Data("ssg1/key-id".utf8), using: key).prefix(16))
        sealingKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("ssg1/seal".utf8), outputByteCount: 32)
        indexRoot = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("ssg1/index".utf8), outputByteCount: 32)
    }

    /// The sealer whose key is stored in `storage` under `key`, creating a random key there the
    /// first time.
    ///
    /// Reading the key is the one moment the user is asked, when `requireUserPresence` protected
    /// it: keep the sealer while the data is in use. Creating the key never asks.
    ///
    /// On Linux the key lives in the keychain's library-owned namespace, under `storage`'s
    /// service and `key`: an item an app, `keychain add-generic-password`, a backup import or a
    /// sync writes under those names is an ordinary item the sealer never takes for its key, and
    /// keychain backups do not carry the key (a sealed database moves to another machine with
    /// its keychain files, not through `keychain export`).
    ///
    /// - Parameters:
    ///   - storage: the keychain storage holding the key, for example the app's `SecureStorage`.
    ///   - key: the key's name in `storage`, for example `"notes.db-key"`.
    ///   - sensitivity: the key's protection (`.secret`: only while unlocked, this device only).
    ///   - requireUserPresence: whether reading the key needs the user (biometry or passcode on
    ///     Apple platforms, the keychain's authenticator such as a PIN on Linux).
    /// - Throws: `SecureStorageError` (`.locked`, `.userCanceled`, `.authenticationFailed`, …).
    public static func load(
        from storage: SecureStorage, key: String, sensitivity: Sensitivity = .secret,
        requireUserPresence: Bool = false
    ) throws(SecureStorageError) -> DatabaseSealer {
        // The key lives in the keychain's library-owned namespace: an item an app, an import or
        // a sync writes under the same name is never taken for it.
        let owned = storage.libraryOwned(by: .databaseSealer)
        let stored: Data?
        do { stored = try owned.data(for: key) } catch { throw error.inContext(Self.keyContext("read", key, storage)) }
        if let stored {
            guard stored.count == 32, let sealer = try? DatabaseSealer(key: SymmetricKey(data: stored)) else {
                throw SecureStorageError.integrityViolation.explained(
                    "The database sealing key '\(key)' of service \(storage.service) is not a 256-bit key: it was replaced or damaged outside SecureStorageGRDB. Nothing was read or written. The values sealed with the original key open only with it: restore the keychain from a backup."
                )
            }
            return sealer
        }
        let fresh = SymmetricKey(size: .bits256)
        do {
            // Insert-only: of two first loads racing, one key wins and both use it.
            try owned.insert(
                StoredValue(data: fresh.withUnsafeBytes { Data($0) }, kind: .data), for: key, sensitivity: sensitivity,
                requireUserPresence: requireUserPresence)
            return try! DatabaseSealer(key: fresh)  // 256 bits by construction
        } catch .duplicate {
            return try load(from: owned, key: key, sensitivity: sensitivity, requireUserPresence: requireUserPresence)
        } catch {
            throw error.inContext(Self.keyContext("store a new", key, storage))
        }
    }

    /// `"Could not <verb> the database sealing key '<key>' of service <service>"`, what an error
    /// of the key's storage is about.
    static func keyContext(_ verb: String, _ key: String, _ storage: SecureStorage) -> String {
        "Could not \(verb) the database sealing key '\(key)' of service \(storage.service)"
    }

    /// Whether `storage` holds the sealer key `key` (made by
    /// ``load(from:key:sensitivity:requireUserPresence:)``), without reading it: nobody is asked.
    /// The key is not one of `storage`'s values (`storage.contains(key)` does not see it).
    /// - Throws: `SecureStorageError` (`.locked` when its protection needs the device unlocked).
    public static func keyExists(in storage: SecureStorage, key: String = "database.key") throws(SecureStorageError)
        -> Bool
    {
        do { return try storage.libraryOwned(by: .databaseSealer).contains(key) } catch {
            throw error.inContext(keyContext("look up", key, storage))
        }
    }

    /// Deletes the sealer key `key` from `storage`: what it sealed never opens again.
    /// - Returns: whether there was one.
    @discardableResult
    public static func removeKey(from storage: SecureStorage, key: String = "database.key") throws(SecureStorageError)
        -> Bool
    {
        do { return try storage.libraryOwned(by: .databaseSealer).removeValue(for: key) } catch {
            throw error.inContext(keyContext("remove", key, storage))
        }
    }

    // MARK: - The database's key record

    /// The table recording which key a database is sealed with.
    public static let metadataTable = "secure_storage_sealing"

    /// Records this sealer's key ID in the database, or checks it: call it once per connection
    /// or in a migration, before writing.
    /// - Throws: ``SealedDatabaseError/Code/wrongKey`` when another key sealed the database.
    public func prepare(_ db: Database) throws {
        try db.execute(
            sql: "CREATE TABLE IF NOT EXISTS \(Self.metadataTable) (key_id BLOB NOT NULL, format INTEGER NOT NULL)")
        if let stored = try Data.fetchOne(db, sql: "SELECT key_id FROM \(Self.metadataTable)") {
            guard stored == keyID else { throw SealedDatabaseError.wrongKey(table: Self.metadataTable) }
        } else {
            try db.execute(sql: "INSERT INTO \(Self.metadataTable) (key_id, format) VALUES (?, 1)", arguments: [keyID])
        }
    }

    /// ``prepare(_:)``, and makes SQLite refuse a value that is not sealed in the sealed columns
    /// of `records`' tables, whoever writes it (GRDB's batch `updateAll`, a `Record` subclass's
    /// own `insert`, raw SQL): such a write fails, naming `unsealedWrite`, and stores nothing.
    /// The sealer also does this on a table the first time it writes there.
    public func prepare(_ db: Database, records: [any SealedRecord.Type]) throws {
        try prepare(db)
        for record in records { try guardTable(of: record, db) }
    }

    private func guardTable<Record: SealedRecord>(of record: Record.Type, _ db: Database) throws {
        try UnsealedWriteGuard.install(for: SealedTable(record, db), db)
    }

    // MARK: - Values

    /// The sealing of `column` of `table`, derived the first time and cached.
    func sealing(table: String, column: String) -> ColumnSealing {
        columnSealings.sealing(table: table, column: column) {
            let names = SealedValueCodec.lengthPrefixed([Data(table.utf8), Data(column.utf8)])
            let indexKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: indexRoot, info: names, outputByteCount: 32)
            return ColumnSealing(
                table: table, column: column, authenticatedDataPrefix: Data("SSG1".utf8) + keyID + names,
                indexMAC: HMAC<SHA256>(key: indexKey), sealingKey: sealingKey)
        }
    }

    /// The sealed form of `value` in `column` of `table`, in the row whose primary key is
    /// `identity`. NULL is sealed too, so a sealed column never shows which values are NULL.
    public func seal(_ value: DatabaseValue, table: String, column: String, identity: [DatabaseValue]) throws
        -> DatabaseValue
    {
        try sealing(table: table, column: column).seal(value, identity: identity)
    }

    /// The value sealed in `column` of `table` in the row `identity`.
    /// - Throws: ``SealedDatabaseError/Code/tamperedValue`` when it was sealed anywhere else or changed.
    public func open(_ sealed: DatabaseValue, table: String, column: String, identity: [DatabaseValue]) throws
        -> DatabaseValue
    {
        try sealing(table: table, column: column).open(sealed, identity: identity)
    }

    /// The blind index of `value` for `column` of `table`: 16 bytes of HMAC-SHA256 under a key
    /// of that column, after `normalization`. Equal values have equal indexes; nothing else is
    /// learned from one without the key. NULL has an index like any value, so an index does not
    /// show which values are NULL (only that they are equal).
    public func blindIndex(
        _ value: DatabaseValue, table: String, column: String,
        normalization: SealedColumn.Normalization = .exact
    ) -> DatabaseValue {
        sealing(table: table, column: column).blindIndex(value, normalization: normalization)
    }
}
