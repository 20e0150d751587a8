import Foundation
import GRDB
import SecureStorageFoundation

extension Keychain {
    /// Writes an encrypted, authenticated backup of every item that may leave this device.
    ///
    /// As on Apple platforms, `…ThisDeviceOnly` and passcode-set items are never exported, nor are
    /// keys marked non-extractable (`kSecAttrIsExtractable` false) or generated inside the
    /// keychain; items whose access control needs the user are left out too (a backup must not be
    /// a way around it; ``BackupExportSummary/skippedProtectedItems`` counts them). `always` items
    /// are exported, as Apple's backups include them. Items SecureStorage keeps for itself (sync
    /// state, database sealers' and protected files' keys) are never exported, and an import
    /// refuses a backup claiming to hold one: restoring cannot plant them. A
    /// backup restores elsewhere because its key comes from `passphrase` (scrypt with
    /// ``KeychainOptions/passphraseHardening``), not from the device key. The file is written to
    /// a temporary file and moved into place (mode 0600) only when complete.
    ///
    /// ```swift
    /// let summary = try keychain.exportBackup(to: URL(fileURLWithPath: "keychain.backup"), passphrase: backupPassphrase)
    /// print(summary.exportedItems, summary.skippedThisDeviceOnlyItems)
    /// ```
    ///
    /// - Parameters:
    ///   - url: the backup file to write.
    ///   - passphrase: the backup's own passphrase.
    ///   - replacingExisting: whether an existing file at `url` may be replaced.
    ///   - progress: called with (items done, total) as the export goes.
    /// - Throws: `.interactionNotAllowed` when an exportable item's class is locked (unlock
    ///   first); `.invalidParameter` when the file exists and `replacingExisting` is false.
    @discardableResult
    public func exportBackup(
        to url: URL, passphrase: String, replacingExisting: Bool = false,
        progress: ((Int, Int) -> Void)? = nil
    ) throws(KeychainError) -> BackupExportSummary {
        var backup = try BackupWriter(passphrase: passphrase, parameters: options.passphraseHardening.parameters())
        let file = try PrivateFileWriter(path: url.path)
        try file.write(backup.header)
        let (skipped, protected) = try read { db -> (BackupTrailer.Skipped, Int) in
            let total = try ItemTable.count(in: db)
            let rows = try ItemTable.cursorOverAllRows(in: db)
            var done = 0
            var skipped = BackupTrailer.Skipped()
            var protected = 0
            while let raw = try rows.next() {
                let row = try ItemRow(row: raw)
                done += 1
                if row.accessibility.isThisDeviceOnly {
                    skipped.thisDeviceOnly += 1
                } else {
                    var item = try open(row, includingData: false)
                    if try LibraryOwner.of(item.attributes) != nil || isLegacyLibraryItem(item, db) {
                        // Kept by the library for itself (LibraryOwner): never carried by a backup.
                    } else if item.isTokenKey
                        || (row.itemClass == .key && item.attributes[.isExtractable]?.numberValue == 0)
                    {
                        skipped.nonExtractableKeys += 1
                    } else if item.accessPolicy?.requiresAuthentication == true {
                        protected += 1
                    } else {
                        try openData(of: &item)
                        let record = BackupRecord(
                            itemClass: row.itemClass, attributes: item.attributes, data: item.data ?? Data())
                        for chunk in try backup.append(record) { try file.write(chunk) }
                    }
                }
                if done % 256 == 0 || done == total { progress?(done, total) }
            }
            return (skipped, protected)
        }
        try file.write(backup.finish(skipped: skipped))
        try file.commit(replacingExisting: replacingExisting)
        logger.info(
            "exported a backup",
            metadata: [
                "items": "\(backup.itemCount)", "skipped": "\(skipped.thisDeviceOnly + skipped.nonExtractableKeys)",
                "protected": "\(protected)"
            ])
        return BackupExportSummary(
            archiveID: backup.archiveID, exportedItems: Int(backup.itemCount),
            skippedThisDeviceOnlyItems: Int(skipped.thisDeviceOnly),
            skippedNonExtractableKeys: Int(skipped.nonExtractableKeys),
            skippedProtectedItems: protected)
    }

    /// Checks that `passphrase` opens the backup at `url`, by its header alone and without a
    /// keychain, so that a caller can refuse a wrong passphrase before creating the keychain to
    /// import into. Chunks are checked by ``importBackup(from:passphrase:onDuplicate:progress:)``.
    /// - Throws: `.authFailed` for a wrong passphrase; `.integrityViolation` for a damaged
    ///   header; `.invalidParameter` for a file that is not a backup.
    public static func checkBackupPassphrase(of url: URL, passphrase: String) throws(KeychainError) {
        let input = try BackupInput(path: url.path)
        _ = try BackupReader(header: input.read(BackupFormat.headerSize), passphrase: passphrase, source: url.path)
    }

    /// Restores the items of a backup made by ``exportBackup(to:passphrase:replacingExisting:progress:)``,
    /// on this or another device, keeping each item's class, accessibility, access group and dates.
    ///
    /// The whole import is one transaction: a wrong passphrase, a damaged or truncated file, a
    /// locked class or a duplicate under ``BackupDuplicatePolicy/fail`` leaves the keychain unchanged.
    /// While it runs, other writers wait (up to their busy timeout, 5 s by default): import large
    /// backups while nothing else writes.
    ///
    /// - Parameters:
    ///   - url: the backup file to read.
    ///   - passphrase: the passphrase the backup was exported with.
    ///   - policy: what to do with an item that already exists.
    ///   - progress: called with (bytes read, file size) after each chunk.
    /// - Throws: `.authFailed` for a wrong passphrase; `.integrityViolation` for a damaged or
    ///   tampered file; `.invalidParameter` for a file that is not a backup; `.duplicateItem`
    ///   under ``BackupDuplicatePolicy/fail``; `.interactionNotAllowed` when a class is locked.
    @discardableResult
    public func importBackup(
        from url: URL, passphrase: String, onDuplicate policy: BackupDuplicatePolicy = .keepExisting,
        progress: ((Int, Int) -> Void)? = nil
    ) throws(KeychainError) -> BackupImportSummary {
        let source = url.path
        let input = try BackupInput(path: source)
        var backup = try BackupReader(
            header: input.read(BackupFormat.headerSize), passphrase: passphrase, source: source)
        let now = Date()
        let counts = try write { db -> (added: Int, replaced: Int, kept: Int, skipped: BackupTrailer.Skipped) in
            var added = 0
            var replaced = 0
            var kept = 0
            var seen: UInt64 = 0
            var fingerprints: [[UInt8]] = []  // folded into the state digest once, at the end
            while true {
                let (sealed, isLast) = try input.nextChunk(source: source)
                let (records, trailer) = try backup.openChunk(sealed, isLast: isLast, source: source)
                seen += UInt64(records.count)
                for record in records where !ItemAttributes.accessibility(of: record.attributes).isThisDeviceOnly {
                    let attributes = try restorable(record, now: now)
                    let primaryKey = ItemIndexes(
                        itemClass: record.itemClass, attributes: attributes, indexer: keys.indexer
                    ).primaryKey
                    if let existing = try existingRow(primaryKey, db) {
                        switch policy {
                        case .keepExisting:
                            kept += 1
                            continue
                        case .fail:
                            throw KeychainError.backupItemExists(itemClass: record.itemClass.rawValue)
                        case .replace:
                            let current = try open(row(id: existing, db), includingData: false)
                            if current.isTokenKey || current.accessPolicy?.requiresAuthentication == true {
                                kept += 1  // replacing it would change its protection without the user
                                continue
                            }
                            try self.recordRemoval(of: [existing], db)
                            try ItemTable.delete(in: db, id: existing)
                            replaced += 1
                        }
                    } else {
                        added += 1
                    }
                    let sealed = try seal(
                        record.itemClass, attributes: attributes, data: record.data, rowID: try ItemTable.nextID(in: db)
                    )
                    try store(sealed, db)
                    fingerprints.append(sealed.fingerprint)
                }
                progress?(input.bytesRead, input.size)
                if let trailer {
                    guard trailer.itemCount == seen else {
                        throw KeychainError.backupItemCountMismatch(
                            source: source, seen: seen, trailerCount: trailer.itemCount)
                    }
                    try keys.stateDigest.record(adding: fingerprints, db)
                    return (added, replaced, kept, trailer.skipped)
                }
            }
        }
        checkpoint()
        logger.info(
            "imported a backup",
            metadata: ["added": "\(counts.added)", "replaced": "\(counts.replaced)", "kept": "\(counts.kept)"])
        return BackupImportSummary(
            archiveID: backup.archiveID, created: backup.created, addedItems: counts.added,
            replacedItems: counts.replaced, keptExistingItems: counts.kept,
            skippedAtExport: Int(counts.skipped.thisDeviceOnly + counts.skipped.nonExtractableKeys))
    }

    /// A backup record's attributes as an add would store them: a key claiming the token ID
    /// (key material chosen by whoever made the file) is refused, and an access control is
    /// checked and sealed as on an add.
    private func restorable(_ record: BackupRecord, now: Date) throws(KeychainError) -> [AttributeKey: AttributeValue] {
        if record.attributes[LibraryOwner.attribute] != nil {
            throw KeychainError.backupHoldsLibraryOwnedItem()
        }
        let attributes = try ItemAttributes.forRestoredItem(
            record, defaultAccessGroup: options.defaultAccessGroup, now: now)
        if TokenKeys.isTokenKey(record.itemClass, attributes) {
            throw KeychainError.backupHoldsTokenKey()
        }
        return try sealingAccessPolicy(attributes, isTokenKey: false)
    }
}

/// Reads a backup file piece by piece: the header, then one framed chunk at a time, knowing
/// whether the file ends after it.
final class BackupInput {
    private let handle: FileHandle
    private var lookahead: Data?
    /// The file's size, and how much of it was read.
    let size: Int
    private(set) var bytesRead = 0

    init(path: String) throws(KeychainError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw KeychainError.backupFileMissing(path: path)
        }
        self.handle = handle
        size = Int((try? handle.seekToEnd()) ?? 0)
        do { try handle.seek(toOffset: 0) } catch {
            throw KeychainError.backupUnreadable(path: path, reason: error.localizedDescription)
        }
    }

    deinit { try? handle.close() }

    func read(_ count: Int) throws(KeychainError) -> Data {
        var result = lookahead ?? Data()
        lookahead = nil
        while result.count < count {
            let piece: Data?
            do { piece = try handle.read(upToCount: count - result.count) } catch {
                throw KeychainError.backupReadFailed(reason: error.localizedDescription)
            }
            guard let piece, !piece.isEmpty else { break }
            bytesRead += piece.count
            result.append(piece)
        }
        return result
    }

    /// The next sealed chunk, and whether no byte follows it.
    func nextChunk(source: String) throws(KeychainError) -> (sealed: Data, isLast: Bool) {
        var reader = ByteReader(try read(4))
        guard let length = reader.readBigEndian(UInt32.self) else {
            throw KeychainError.backupTruncatedBeforeLastChunk(source: source)
        }
        guard Int(length) <= BackupFormat.maximumChunkBytes else {
            throw KeychainError.backupChunkLength(source: source, length: length)
        }
        let sealed = try read(Int(length))
        guard sealed.count == Int(length) else { throw KeychainError.backupTruncatedInsideChunk(source: source) }
        let next = try read(1)
        lookahead = next.isEmpty ? nil : next
        return (sealed, next.isEmpty)
    }
}
