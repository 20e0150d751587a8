import Foundation

/// Moves secrets out of an insecure store — UserDefaults property lists, Android
/// SharedPreferences, `.env` or JSON files — into the keychain: plan → import → verify (read
/// back and compare) → scrub the source → done, each step recorded in the keychain so that a run
/// killed at any point finishes when started again. No secret is lost (the source is scrubbed only
/// after every value was read back), none is duplicated (writes are upserts).
///
/// ```swift
/// let migration = SourceMigration(file: URL(fileURLWithPath: "Library/Preferences/com.acme.app.plist"),
///                                 selection: KeySelection(names: ["authToken"], patterns: ["*password*"]))
/// let plan = try migration.plan()          // show it: keys, types, target accounts; no values
/// let report = try migration.run()
/// print(report.recommendation)             // rotate the migrated credentials
/// ```
public struct SourceMigration: Sendable {
    /// The service of the journal items that record each source's progress (one per source path,
    /// key names and hashes only). `keychain list` hides them unless asked for this service.
    public static let journalService = "SecureStorage.migrations"

    /// Whether an item with this service and account is a journal record (the service and a
    /// `source:<SHA-256 of the path>` account), not a value of the user's.
    public static func isJournalItem(service: String?, account: String?) -> Bool {
        service == journalService && account.map(MigrationJournalStore.isJournalAccount) == true
    }

    /// The steps a run goes through (for progress and for tests that stop a run midway).
    public enum Step: String, Sendable, CaseIterable {
        /// The plan is recorded in the journal; nothing is in the keychain yet.
        case planned
        /// The values are in the keychain.
        case imported
        /// Every value was read back and matches the source.
        case verified
        /// The values are removed from the source file.
        case scrubbed
        /// The run finished; its journal record is removed.
        case done
    }

    /// The source file.
    public let file: URL
    /// Its format; `nil` detects it from the contents and name.
    public let format: SourceFormat?
    /// Which keys move.
    public let selection: KeySelection
    /// Where they go: the service of the values (default: the file's name; without `.plist` or `.xml`).
    public let service: String
    /// The protection they get (default ``Sensitivity/private``: readable in the background, never leaves the device).
    public let sensitivity: Sensitivity
    /// The access group, if any.
    public let accessGroup: String?
    /// Where the values go instead of the keychain, or `nil` for the keychain.
    public let destination: (any MigrationDestination)?
    /// Called after each step is recorded in the journal, for progress reports or to stop a run
    /// midway (a test simulating a crash throws here; the next run resumes from that step).
    public var afterStep: (@Sendable (Step) throws -> Void)?

    /// Describes a migration; nothing is read until ``plan()`` or ``run(keepSource:keepBackupCopy:progress:)``.
    public init(
        file: URL, format: SourceFormat? = nil, selection: KeySelection = KeySelection(), service: String? = nil,
        sensitivity: Sensitivity = .private, accessGroup: String? = nil
    ) {
        self.file = file.standardizedFileURL
        self.format = format
        self.selection = selection
        // `com.acme.app.plist` → `com.acme.app`, `auth.xml` → `auth`; `.env.production` and
        // `config.json` keep their whole name, so sibling files never share a service.
        let name = file.lastPathComponent
        self.service =
            service
            ?? ([".plist", ".xml"].contains { name.lowercased().hasSuffix($0) }
                ? file.deletingPathExtension().lastPathComponent : name)
        self.sensitivity = sensitivity
        self.accessGroup = accessGroup
        destination = nil
    }

    /// Describes a migration into `destination` instead of the keychain (the journal stays in
    /// the keychain, under `destination:` and its ``MigrationDestination/identifier``, in
    /// `accessGroup`; ``service`` reads the same); nothing is read until
    /// ``plan()`` or ``run(keepSource:keepBackupCopy:progress:)``.
    public init(
        file: URL, format: SourceFormat? = nil, selection: KeySelection = KeySelection(),
        destination: any MigrationDestination, accessGroup: String? = nil
    ) {
        self.file = file.standardizedFileURL
        self.format = format
        self.selection = selection
        // Its own namespace in the journal: never confused with a keychain service of that name.
        service = "destination:" + destination.identifier
        sensitivity = .private
        self.accessGroup = accessGroup
        self.destination = destination
    }

    private var path: String { file.path }
    private var storage: any MigrationDestination {
        destination
            ?? KeychainDestination(
                storage: SecureStorage(service: service, accessGroup: accessGroup, defaultSensitivity: sensitivity),
                sensitivity: sensitivity)
    }

    // MARK: - Plan

    /// Parses the source and lists what would move. Changes nothing.
    /// - Throws: ``MigrationError`` for an unreadable, malformed or unsupported file, or a named
    ///   key that is missing.
    public func plan() throws(MigrationError) -> MigrationPlan {
        guard service != Self.journalService else { throw .reservedService(service) }
        let (_, document, format) = try read()
        return try plan(document, format: format, keys: nil)
    }

    private func read() throws(MigrationError) -> (Data, any SourceDocument, SourceFormat) {
        try SourceFileRewriter.requireSingleRegularFile(path)
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw .fileError(file: path, reason: "cannot be read (missing, or no permission)")
        }
        guard let format = format ?? SourceFormat.detect(contents: contents, fileName: file.lastPathComponent) else {
            throw .unsupportedSource(
                file: path, reason: "its format is not recognised; pass the format (plist, shared-prefs, env, json)")
        }
        if format == .sharedPreferences && FileManager.default.fileExists(atPath: path + ".bak") {
            throw .unsupportedSource(
                file: path,
                reason:
                    "\(file.lastPathComponent).bak exists: Android restores it over this file on the next load, so this file may not hold the current values. Open the app once (Android resolves the backup), or check and remove the .bak, then migrate again"
            )
        }
        return (contents, try SourceParser.parse(contents, format: format, file: path), format)
    }

    private func plan(
        _ document: any SourceDocument, format: SourceFormat, keys: [String]?,
        checkingNames: Bool = true
    ) throws(MigrationError) -> MigrationPlan {
        var seen = Set<String>()
        let duplicated = Set(document.entries.map(\.key).filter { !seen.insert($0).inserted })
        if checkingNames {
            for name in keys ?? selection.names where !seen.contains(name) {
                throw .unknownKey(
                    file: path, key: name,
                    reason: "not in the file, or its value is a dictionary or date, which cannot be migrated")
            }
        }
        var chosen: [MigrationPlan.Item] = []
        for entry in document.entries {
            guard let reason = keys.map({ $0.contains(entry.key) ? "resumed" : nil }) ?? selection.reason(for: entry),
                !chosen.contains(where: { $0.key == entry.key })
            else { continue }
            if duplicated.contains(entry.key) {
                throw .unknownKey(
                    file: path, key: entry.key,
                    reason: "appears more than once, so removing it could remove a value that was not stored")
            }
            chosen.append(
                MigrationPlan.Item(key: entry.key, type: entry.value.typeName, reason: reason, account: entry.key))
        }
        return MigrationPlan(
            file: path, format: format, service: service, sensitivity: sensitivity, items: chosen,
            untouchedKeys: seen.count - chosen.count)
    }

    // MARK: - Run

    /// Runs (or resumes) the migration.
    ///
    /// - Parameters:
    ///   - keepSource: leave the source file as it is (it still holds the secrets).
    ///   - keepBackupCopy: before scrubbing, copy the source to `<file>.pre-migration`, mode 0600
    ///     from its first byte and owned by the source's owner. Another user's file (or anything
    ///     but an earlier copy) at that name stops the run before the scrub. Off by default: a copy
    ///     is one more plaintext file to forget.
    ///   - progress: called with (values done, total) while importing and verifying.
    /// - Throws: ``MigrationError``. Whatever fails, the source is untouched unless every value
    ///   was verified in the keychain first.
    @discardableResult
    public func run(
        keepSource: Bool = false, keepBackupCopy: Bool = false,
        progress: ((Int, Int) -> Void)? = nil
    ) throws(MigrationError) -> MigrationReport {
        let journals = MigrationJournalStore(accessGroup: accessGroup)
        let (contents, document, format) = try read()
        let hash = MigrationJournal.hash(contents)
        let loaded = try journals.load(path)
        var journal = loaded
        if var record = journal, record.state >= .verified, record.state < .done, record.scrubbedHash == hash {
            // The scrub happened but was not recorded: only the bookkeeping is left.
            record.state = .done
            try journals.save(record, for: path)
            return MigrationReport(
                plan: try plan(document, format: format, keys: record.keys, checkingNames: false),
                migratedKeys: record.keys, sourceScrubbed: true, resumed: true, alreadyMigrated: false)
        }
        if let record = journal, record.state < .done, record.sourceHash == hash {
            guard record.service == service, record.accessGroup == accessGroup else {
                throw .interruptedMigrationPending(file: path, service: record.service)
            }
        } else {
            journal = nil  // finished earlier, or the file changed since: plan anew
        }
        let resumed = journal != nil
        let plan = try plan(document, format: format, keys: journal?.keys)
        guard !plan.items.isEmpty else {
            let finished = loaded?.state == .done && loaded?.scrubbedHash == hash
            return MigrationReport(
                plan: plan, migratedKeys: [], sourceScrubbed: finished, resumed: false, alreadyMigrated: finished)
        }
        let values = Dictionary(document.entries.map { ($0.key, $0.value.storedValue) }, uniquingKeysWith: { $1 })
        let storage = self.storage
        var record =
            journal
            ?? MigrationJournal(
                state: .planned, sourceHash: hash, scrubbedHash: nil, keys: plan.items.map(\.key),
                service: service, accessGroup: accessGroup, updated: Date())
        if record.state < .imported {
            try checkConflicts(plan, values: values, storage: storage)  // equal values (our own earlier writes) pass
        }
        if journal == nil {
            try journals.save(record, for: path)
            try reached(.planned)
        }
        if record.state < .imported {
            for (index, item) in plan.items.enumerated() {
                do { try storage.store(values[item.key]!, for: item.account) } catch {
                    throw failure(error, key: item.key)
                }
                progress?(index + 1, plan.items.count * 2)
            }
            try advance(&record, to: .imported, journals)
        }
        if record.state < .verified {
            do {
                try verify(plan, values: values, storage: storage, progress: progress)
            } catch  where error.code == .verificationFailed && resumed {
                // Imported by an earlier run, then lost or changed at the destination (a restored
                // backup, a deleted database): store again rather than fail forever.
                for item in plan.items {
                    do { try storage.store(values[item.key]!, for: item.account) } catch {
                        throw failure(error, key: item.key)
                    }
                }
                try verify(plan, values: values, storage: storage, progress: progress)
            }
            try advance(&record, to: .verified, journals)
        }
        var scrubbed = false
        if record.state < .scrubbed && !keepSource {
            // Verify again right before removing anything: the keychain may have changed since an
            // earlier run verified it.
            try verify(plan, values: values, storage: storage, progress: nil)
            let cleaned: Data
            do { cleaned = try document.removing(Set(record.keys)) } catch {
                throw .fileError(file: path, reason: "cannot compute the scrubbed file: \(error)")
            }
            guard let current = FileManager.default.contents(atPath: path),
                MigrationJournal.hash(current) == record.sourceHash
            else {
                throw .fileError(
                    file: path,
                    reason: "the file changed while it was being migrated; nothing was removed. Run the migration again"
                )
            }
            // recorded first, so a crash after the rename is recognised
            record.scrubbedHash = MigrationJournal.hash(cleaned)
            try journals.save(record, for: path)
            // The copy holds exactly the bytes just checked; it is private from its first byte.
            if keepBackupCopy { try SourceFileRewriter.copy(current, of: path, to: path + ".pre-migration") }
            try SourceFileRewriter.replace(path, with: cleaned)
            scrubbed = true
            try advance(&record, to: .scrubbed, journals)
        }
        try advance(&record, to: .done, journals)
        return MigrationReport(
            plan: plan, migratedKeys: record.keys, sourceScrubbed: scrubbed, resumed: resumed, alreadyMigrated: false)
    }

    /// Reads every planned value back and compares it with the source, in constant time.
    private func verify(
        _ plan: MigrationPlan, values: [String: StoredValue], storage: any MigrationDestination,
        progress: ((Int, Int) -> Void)?
    ) throws(MigrationError) {
        for (index, item) in plan.items.enumerated() {
            let stored: StoredValue?
            do { stored = try storage.storedValue(for: item.account) } catch { throw failure(error, key: item.key) }
            guard let stored, Self.constantTimeEqual(stored, values[item.key]!) else {
                throw .verificationFailed(file: path, key: item.key)
            }
            progress?(plan.items.count + index + 1, plan.items.count * 2)
        }
    }

    private func advance(
        _ record: inout MigrationJournal, to state: MigrationJournal.State, _ journals: MigrationJournalStore
    ) throws(MigrationError) {
        record.state = state
        try journals.save(record, for: path)
        try reached(Step(rawValue: state.rawValue)!)
    }

    private func reached(_ step: Step) throws(MigrationError) {
        do { try afterStep?(step) } catch let error as MigrationError { throw error } catch {
            throw .fileError(file: path, reason: "stopped after \(step.rawValue) (a \(type(of: error)))")
        }
    }

    /// Refuses to overwrite a different value already in the keychain under a target account.
    private func checkConflicts(_ plan: MigrationPlan, values: [String: StoredValue], storage: any MigrationDestination)
        throws(MigrationError)
    {
        for item in plan.items {
            let existing: StoredValue?
            do { existing = try storage.storedValue(for: item.account) } catch { throw failure(error, key: item.key) }
            if let existing, !Self.constantTimeEqual(existing, values[item.key]!) {
                throw .conflict(file: path, key: item.key, account: item.account)
            }
        }
    }

    /// The migration error for a destination's error: the keychain's as ``MigrationError/keychain(_:)``;
    /// any other by its type and, when it gives one, its `LocalizedError.failureReason`, never its
    /// description (which for decoding or parsing errors often quotes the value).
    private func failure(_ error: any Error, key: String) -> MigrationError {
        if let error = error as? SecureStorageError { return .keychain(error) }
        if let error = error as? MigrationError { return error }
        let reason = (error as? LocalizedError)?.failureReason.map { ": \($0)" } ?? ""
        return .destination(file: path, key: key, reason: "a \(type(of: error)) error\(reason)")
    }

    static func constantTimeEqual(_ lhs: StoredValue, _ rhs: StoredValue) -> Bool {
        guard lhs.kind == rhs.kind, lhs.data.count == rhs.data.count else { return false }
        return zip(lhs.data, rhs.data).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// What a migration did. Holds no values.
public struct MigrationReport: Sendable, Hashable {
    /// The plan that ran (its keys are the ones migrated now or earlier).
    public let plan: MigrationPlan
    /// The keys now in the keychain thanks to this run (empty when an earlier run finished).
    public let migratedKeys: [String]
    /// Whether the source no longer holds them.
    public let sourceScrubbed: Bool
    /// Whether this run finished an interrupted one.
    public let resumed: Bool
    /// Whether an earlier run had already migrated everything selected.
    public let alreadyMigrated: Bool

    /// The honest advice after moving secrets out of plaintext.
    public var recommendation: String {
        "Rotate the migrated credentials: their plaintext may survive in backups, snapshots, editor swap files and SSD blocks that rewriting a file does not erase."
    }
}
