import Crypto
import Foundation
import GRDB

/// The database schema, created and upgraded by a GRDB migrator.
///
/// In clear: row id, item UUID, class, accessibility, synchronizable flag, row version, keyed
/// blind indexes and the row seal. Everything else — attribute values, dates, the secret — is
/// encrypted.
enum KeychainSchema {
    /// The newest keychain format this library writes and reads.
    static let formatVersion = 6

    /// The migrations, in order, with the format each one brings the file to.
    static let migrations: [(identifier: String, format: Int)] = [
        ("v1", 1), (stateDigestMigration, 2), ("v3-untagged-server-attributes", 3), ("v4-authenticated-header", 4),
        (presenceMigration, 5), (libraryOwnedMigration, 6)
    ]

    /// The migration to format 5: the keybag may hold the presence key and enrolments, which a
    /// format-4 library would take for unknown slots, so it must refuse the file instead.
    static let presenceMigration = "v5-presence-key"

    /// The migration to format 6: items the library keeps for itself live in a namespace of
    /// their own (``LibraryOwner``), which a format-5 library would not keep apart from apps'
    /// items (it would list, export and replace them), so it must refuse the file instead.
    static let libraryOwnedMigration = "v6-library-owned-items"

    /// The migration that added the state digest (format 2); older libraries refuse format 2, so
    /// none of them can write rows without updating the digest.
    static let stateDigestMigration = "v2-state-digest"

    /// The migrator. For an existing keychain, the upgrade steps that need keys use `deviceKey`:
    /// the state digest of a format-1 file (its rows recorded as they are) and, for format 4,
    /// the row seals, the header MAC and — before the upgrade commits — a format anchor that
    /// accepts the file in format 3 or 4 with that MAC (the opener settles it on format 4 once
    /// the upgrade committed). On a new, empty database those steps have nothing to do.
    static func migrator(deviceKey: SymmetricKey, location: KeychainLocation?) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE vault_header (
                      id INTEGER PRIMARY KEY CHECK (id = 1),
                      format_version INTEGER NOT NULL,
                      vault_id BLOB NOT NULL,
                      keybag_generation INTEGER NOT NULL,
                      scrypt_salt BLOB,
                      scrypt_log_n INTEGER,
                      scrypt_block_size INTEGER,
                      scrypt_parallelism INTEGER,
                      created_at REAL NOT NULL
                    );
                    CREATE TABLE keybag (
                      slot TEXT PRIMARY KEY NOT NULL,
                      wrapped_key BLOB NOT NULL
                    );
                    CREATE TABLE items (
                      id INTEGER PRIMARY KEY,
                      item_id BLOB NOT NULL UNIQUE,
                      item_class TEXT NOT NULL,
                      accessibility TEXT NOT NULL,
                      synchronizable INTEGER NOT NULL,
                      group_index BLOB NOT NULL,
                      service_index BLOB,
                      account_index BLOB,
                      server_index BLOB,
                      link_index BLOB,
                      primary_key_index BLOB NOT NULL UNIQUE,
                      row_version INTEGER NOT NULL,
                      metadata_key BLOB NOT NULL,
                      metadata BLOB NOT NULL,
                      secret_key BLOB NOT NULL,
                      secret BLOB NOT NULL
                    );
                    CREATE INDEX items_by_service ON items (item_class, service_index, account_index);
                    CREATE INDEX items_by_account ON items (item_class, account_index);
                    CREATE INDEX items_by_server ON items (item_class, server_index);
                    CREATE INDEX items_by_link ON items (link_index) WHERE link_index IS NOT NULL;
                    CREATE TABLE item_tags (
                      tag BLOB NOT NULL,
                      item_rowid INTEGER NOT NULL REFERENCES items (id) ON DELETE CASCADE,
                      PRIMARY KEY (tag, item_rowid)
                    ) WITHOUT ROWID;
                    CREATE INDEX item_tags_by_item ON item_tags (item_rowid);
                    """)
        }
        migrator.registerMigration(stateDigestMigration) { db in
            try db.execute(
                sql: """
                    ALTER TABLE vault_header ADD COLUMN state_counter INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE vault_header ADD COLUMN state_digest BLOB;
                    ALTER TABLE vault_header ADD COLUMN state_mac BLOB;
                    UPDATE vault_header SET format_version = 2;
                    """)
            if let header = try VaultHeader.fetch(db) {  // written before the digest existed: record its rows once
                try StateDigest(deviceKey: deviceKey, vaultID: header.vaultID).initialize(db)
            }
        }
        // Format 3: dates, the digest, musr and tomb are no longer tagged (ItemIndexes.untaggedAttributes).
        // Older libraries would look them up by tag and miss new items, so they must refuse the file.
        migrator.registerMigration("v3-untagged-server-attributes") { db in
            try db.execute(sql: "UPDATE vault_header SET format_version = 3")
        }
        // Format 4: an authenticated header and keybag, unlock-session records, and row seals.
        // Older libraries would write rows without seals and keybags without MACs, so they must
        // refuse the file.
        migrator.registerMigration("v4-authenticated-header") { db in
            try db.execute(
                sql: """
                    ALTER TABLE vault_header ADD COLUMN header_mac BLOB;
                    ALTER TABLE vault_header ADD COLUMN session_id BLOB;
                    ALTER TABLE vault_header ADD COLUMN session_kek BLOB;
                    ALTER TABLE items ADD COLUMN row_seal BLOB;
                    UPDATE vault_header SET format_version = 4;
                    """)
            guard let header = try VaultHeader.fetch(db) else { return }
            try RowSealer(deviceKey: deviceKey, vaultID: header.vaultID).sealAllRows(db)
            try HeaderAuthenticator(deviceKey: deviceKey, vaultID: header.vaultID).store(
                header, keybag: KeyRing.fetchKeybag(db), db)
            if let location, let headerMAC = try HeaderAuthenticator.storedCode(db) {
                try FormatAnchor(vaultID: header.vaultID, formatVersion: 3, headerMACs: [headerMAC]).write(
                    for: location, deviceKey: deviceKey)
            }
        }
        // Format 5: presence slots in the keybag (no table changes). The header is verified
        // before it is MAC'd again, so an edited format-4 header is never laundered; the anchor
        // accepts the old and new MAC until the opener settles it.
        migrator.registerMigration(presenceMigration) { db in
            try advanceAuthenticatedHeader(to: 5, db, deviceKey: deviceKey, location: location)
        }
        // Format 6: library-owned items (no table changes). Every item present at the upgrade
        // gets a tag, covered by its row seal, that lets the library take an item it wrote
        // under its fixed names before this format into its namespace, once, as long as nobody
        // rewrote the item since (see Keychain.adoptItemsWrittenBeforeOwnership).
        migrator.registerMigration(libraryOwnedMigration) { db in
            guard let header = try advanceAuthenticatedHeader(to: 6, db, deviceKey: deviceKey, location: location)
            else { return }
            try markItemsWrittenBeforeOwnership(db, header: header, deviceKey: deviceKey)
        }
        return migrator
    }

    /// Sets the header's format to `format` and MACs it again. The header is verified before it
    /// is MAC'd again, so an edited header is never laundered; the anchor accepts the old and new
    /// MAC until the opener settles it. Returns the verified header, or `nil` for a new, empty
    /// database (nothing to verify).
    @discardableResult
    private static func advanceAuthenticatedHeader(
        to format: Int, _ db: Database, deviceKey: SymmetricKey,
        location: KeychainLocation?
    ) throws -> VaultHeader? {
        guard let location, try VaultHeader.fetch(db) != nil else {
            try db.execute(sql: "UPDATE vault_header SET format_version = ?", arguments: [format])
            return nil
        }
        let (verified, keybag): (VaultHeader, [KeybagSlot: Data])
        do {
            (verified, keybag) = try HeaderAuthenticator.fetchVerified(db, deviceKey: deviceKey, location: location)
        } catch let unrecorded as UnrecordedHeader {
            throw unrecorded.error
        }
        var header = verified
        header.formatVersion = format
        try db.execute(sql: "UPDATE vault_header SET format_version = ?", arguments: [format])
        let authenticator = HeaderAuthenticator(deviceKey: deviceKey, vaultID: header.vaultID)
        let previous = try HeaderAuthenticator.storedCode(db)
        if let anchor = try FormatAnchor.read(for: location, vaultID: header.vaultID, deviceKey: deviceKey) {
            try FormatAnchor(
                vaultID: header.vaultID, formatVersion: anchor.formatVersion,
                headerMACs: [previous].compactMap { $0 } + [authenticator.code(for: header, keybag: keybag)]
            )
            .write(for: location, deviceKey: deviceKey)
        }
        try authenticator.store(header, keybag: keybag, db)
        return header
    }

    /// Tags every item row with ``BlindIndexer/writtenBeforeOwnershipTag`` and seals it again
    /// (its seal covers its tags). Only the device key is needed: the index key unwraps with it.
    static func markItemsWrittenBeforeOwnership(_ db: Database, header: VaultHeader, deviceKey: SymmetricKey) throws {
        let indexer = BlindIndexer(
            key: try KeybagSlot.indexKey(in: KeyRing.fetchKeybag(db), deviceKey: deviceKey, vaultID: header.vaultID))
        let sealer = RowSealer(deviceKey: deviceKey, vaultID: header.vaultID)
        let tag = indexer.writtenBeforeOwnershipTag
        let insertTag = try db.makeStatement(sql: "INSERT OR IGNORE INTO item_tags (tag, item_rowid) VALUES (?, ?)")
        let updateSeal = try db.makeStatement(sql: "UPDATE items SET row_seal = ? WHERE id = ?")
        for raw in try ItemTable.allRows(in: db) {
            // A row that cannot be parsed, or whose seal already fails, is left as it is (verify
            // and every lookup report it); it is never given a seal it did not have.
            guard let row = try? ItemRow(row: raw), let rowID = row.rowID, try sealer.isValid(row, db) else { continue }
            var tags = try RowSealer.tags(of: rowID, db)
            tags.insert(tag)
            try insertTag.execute(arguments: [tag, rowID])
            try updateSeal.execute(arguments: [sealer.seal(row, rowID: rowID, tags: tags), rowID])
        }
    }
}
