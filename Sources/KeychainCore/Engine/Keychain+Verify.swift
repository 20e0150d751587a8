import Foundation
import GRDB

extension Keychain {
    /// Checks the whole keychain: SQLite's structural check, the exact schema, the header and
    /// keybag MAC, then every item — its row seal (its clear columns and tags as written), the
    /// authenticity of its attributes and secret, and that its lookup indexes match its
    /// attributes — and finally the state digest over all rows. Damaged items are reported, not
    /// thrown; nothing is changed.
    ///
    /// The data of a protected item is sealed to the presence key, which needs the user: for it,
    /// verify checks that its class wrap opens to a well-formed presence wrap, not the data.
    ///
    /// Items of locked classes cannot be decrypted and are counted in
    /// ``IntegrityReport/lockedItems`` (their row seals are still checked): unlock first for a
    /// complete check.
    ///
    /// - Parameter progress: called with (items checked, total) as the check goes.
    /// - Throws: only when the keychain cannot be read at all.
    public func verify(progress: ((Int, Int) -> Void)? = nil) throws(KeychainError) -> IntegrityReport {
        // The header check runs on its own (retried) snapshot, so that a passphrase change or an
        // unlock session committed by another process while verify runs is not taken for damage.
        var headerProblem: String?
        do {
            _ = try read { db in
                try HeaderAuthenticator.fetchVerified(db, deviceKey: keys.deviceKey, location: location)
            }
        } catch {
            headerProblem =
                "the header or keybag fails its authentication check, or is not the one recorded beside the device key (edited, or replaced by an older copy)"
        }
        return try read { db in
            var report = IntegrityReport()
            if let headerProblem { report.databaseProblems.append(headerProblem) }
            let problems = try ConnectionSettings.integrityCheck(in: db)
            if problems != ["ok"] { report.databaseProblems = problems }
            let orphans = try ItemTable.orphanTagCount(in: db)
            if orphans > 0 {
                report.databaseProblems.append("\(orphans) lookup tag(s) point to no item (the file was edited)")
            }
            report.databaseProblems += try SchemaGuard.problems(db)
            let total = try ItemTable.count(in: db)
            let rows = try ItemTable.cursorOverAllRows(in: db)
            var checked = 0
            var digest = StateDigest.zero
            while let row = try rows.next() {
                digest = StateDigest.adding(digest, keys.stateDigest.fingerprint(row))
                try verifyRow(row, db, into: &report)
                checked += 1
                if checked % 256 == 0 || checked == total { progress?(checked, total) }
            }
            if total == 0 { progress?(0, 0) }
            report.stateProblem = try stateProblem(recomputed: digest, db)
            return report
        }
    }

    private func verifyRow(_ raw: Row, _ db: Database, into report: inout IntegrityReport) throws {
        let rowID: Int64 = (try? raw.checked(0, "id", in: "items")) ?? -1
        let storedClass = (raw[2] as String?) ?? "?"
        var parsed: ItemRow?
        func damaged(_ problem: String, _ reference: PersistentReference?) {
            let names = parsed.flatMap(names(of:))
            report.damagedItems.append(
                DamagedItem(
                    rowID: rowID, persistentReference: reference, itemClass: storedClass, problem: problem,
                    service: names?.service, account: names?.account))
        }
        let row: ItemRow
        do { row = try ItemRow(row: raw) } catch {
            damaged(Self.problem(error), nil)
            return
        }
        parsed = row
        guard try keys.rowSealer.isValid(row, db) else {
            damaged(
                "its row seal does not hold (its clear columns, lookup tags or row id were edited)",
                row.persistentReference)
            return
        }
        if row.sealed.isPresenceSealed && !keys.presence.isEstablished {
            damaged(
                "its data is sealed to a presence key, but the keybag holds none (its presence slots were removed)",
                row.persistentReference)
            return
        }
        do {
            // Data sealed to the presence key opens only after user authentication: verify checks
            // its class wrap and that it is a well-formed presence wrap.
            let opened = try open(row, includingData: !row.sealed.isPresenceSealed)
            if row.sealed.isPresenceSealed {
                try ItemCipher.checkPresenceWrap(
                    row.sealed, binding: row.binding(vaultID: keys.header.vaultID),
                    keys: keys.classKeys(for: row.accessibility))
            }
            let expected = ItemIndexes(itemClass: row.itemClass, attributes: opened.attributes, indexer: keys.indexer)
            guard expected.group == row.indexes.group, expected.service == row.indexes.service,
                expected.account == row.indexes.account, expected.server == row.indexes.server,
                expected.identityLink == row.indexes.identityLink, expected.primaryKey == row.indexes.primaryKey
            else {
                damaged(
                    "its lookup indexes do not match its attributes (the row's clear columns were edited)",
                    row.persistentReference)
                return
            }
            let storedTags = try ItemTable.tags(in: db, ofItem: row.rowID)
            // Items written before format 3 may also hold the tags of the attributes no longer tagged.
            let legacy = expected.tags.union(
                ItemIndexes.legacyTags(attributes: opened.attributes, indexer: keys.indexer))
            // Items present when the keychain was upgraded to format 6 carry one more tag until rewritten.
            let beforeOwnership = keys.indexer.writtenBeforeOwnershipTag
            guard
                storedTags == expected.tags || storedTags == legacy
                    || storedTags == expected.tags.union([beforeOwnership])
                    || storedTags == legacy.union([beforeOwnership])
            else {
                damaged(
                    "its lookup tags do not match its attributes (tag rows were added or removed)",
                    row.persistentReference)
                return
            }
            report.verifiedItems += 1
        } catch let error as KeychainError
            where error.code == .interactionNotAllowed
            || (error.code == .authFailed && row.accessibility == .whenPasscodeSetThisDeviceOnly)
        {
            report.lockedItems[row.accessibility, default: 0] += 1
        } catch let error as KeychainError {
            damaged(Self.problem(error), row.persistentReference)
        }
    }

    /// The service (or server) and account of a damaged row, when its attributes still decrypt
    /// (they are authenticated, so they are what was written, if perhaps for another row);
    /// `nil` when they do not or its class is locked.
    private func names(of row: ItemRow) -> (service: String?, account: String?)? {
        guard let opened = try? open(row, includingData: false) else { return nil }
        let service = opened.attributes[.service]?.stringValue ?? opened.attributes[.server]?.stringValue
        let account = opened.attributes[.account]?.stringValue
        return service == nil && account == nil ? nil : (service, account)
    }

    /// Compares the recomputed digest of all rows with the recorded one (tamper evidence beyond single rows).
    private func stateProblem(recomputed digest: [UInt8], _ db: Database) throws -> String? {
        guard let recorded = try keys.stateDigest.recorded(db) else {
            return "the keychain's state record is missing or malformed: the header was edited"
        }
        guard recorded.authentic else {
            return "the keychain's state record fails its MAC: the header was edited"
        }
        guard recorded.digest == digest else {
            return
                "the rows do not add up to the recorded state (after \(recorded.counter) changes): rows were deleted, added, edited or replaced by older versions outside this library. Rows that are missing or replayed cannot be named; restore the keychain from a backup"
        }
        return nil
    }

    private static func problem(_ error: any Error) -> String {
        guard let error = error as? KeychainError else { return "\(error)" }
        return error.code == .integrityViolation
            ? "authentication failed (edited, swapped, moved or replayed)" : error.message
    }
}
