import Foundation

/// What ``Keychain/exportBackup(to:passphrase:replacingExisting:progress:)`` wrote.
public struct BackupExportSummary: Sendable, Hashable {
    /// The random identifier of the backup file.
    public let archiveID: UUID
    /// Items written to the backup.
    public let exportedItems: Int
    /// `…ThisDeviceOnly` and passcode-set items left out, as Apple leaves them out of backups.
    public let skippedThisDeviceOnlyItems: Int
    /// Key items marked non-extractable (`kSecAttrIsExtractable` false) or generated inside
    /// the keychain, left out.
    public let skippedNonExtractableKeys: Int
    /// Items whose access control needs the user (`kSecAttrAccessControl` constraints), left
    /// out: a backup must not become a way to read them without authentication. They are not
    /// counted in the file's trailer.
    public let skippedProtectedItems: Int
}

/// What ``Keychain/importBackup(from:passphrase:onDuplicate:progress:)`` did.
public struct BackupImportSummary: Sendable, Hashable {
    /// The identifier of the backup file.
    public let archiveID: UUID
    /// When the backup was made.
    public let created: Date
    /// Items added.
    public let addedItems: Int
    /// Existing items overwritten (``BackupDuplicatePolicy/replace``).
    public let replacedItems: Int
    /// Backup items not imported because an item with the same primary key exists
    /// (``BackupDuplicatePolicy/keepExisting``, and always for an existing item whose access
    /// control needs the user or a key generated inside the keychain: an import never replaces those).
    public let keptExistingItems: Int
    /// How many items the exporting keychain left out (this-device-only items, non-extractable keys).
    public let skippedAtExport: Int
}

/// What an import does with a backup item whose primary key matches an existing item.
public enum BackupDuplicatePolicy: String, Sendable, Hashable, CaseIterable {
    /// Keep the existing item and skip the backup's (the default: an import never overwrites).
    case keepExisting = "keep"
    /// Replace the existing item with the backup's.
    case replace
    /// Abort the whole import; nothing is imported.
    case fail
}
