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
    /// The steps a run goes through (for progress and for tests that stop a run midway).
    public enum Step: String, Sendable, CaseIterable { case planned, imported, verified, scrubbed, done }

    /// The source file.
    public let file: URL
    /// Its format; `nil` detects it from the contents and name.
    public let format: SourceFormat?
    /// Which keys move.
    public let selection: KeySelection
    /// Where they go: the service of the values (default: the file's name without extension).
    public let service: String
    /// The protection they get (default ``Sensitivity/private``: readable in the background, never leaves the device).
    public let sensitivity: Sensitivity
    /// The access group, if any.
    public let accessGroup: String?
    /// Called after each recorded step; a test throws here to simulate a crash.
    var afterStep: (@Sendable (Step) throws -> Void)?

    /// Describes a migration; nothing is read until ``plan()`` or ``run(keepSource:keepBackupCopy:progress:)``.
    public init(file: URL, format: SourceFormat? = nil, selection: KeySelection = KeySelection(), service: String? = nil,
                sensitivity: Sensitivity = .private, accessGroup: String? = nil) {
        self.file = file.standardizedFileURL
        self.format = format
        self.selection = selection
        self.service = service ?? file.deletingPathExtension().lastPathComponent
        self.sensitivity = sensitivity
        self.accessGroup = accessGroup
    }

    private var path: String { file.path }
    private var storage: SecureStorage { SecureStorage(service: service, accessGroup: accessGroup, defaultSensitivity: sensitivity) }

    // MARK: - Plan

    /// Parses the source and lists what would move. Changes nothing.
    /// - Throws: ``MigrationError`` for an unreadable, malformed or unsupported file, or a named
    ///   key that is missing.
    public func plan() throws(MigrationError) -> MigrationPlan {
        let (_, document, format) = try read()
        return try plan(document, format: format, keys: nil)
    }

    private func read() throws(MigrationError) -> (Data, any SourceDocument, SourceFormat) {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw .fileError(file: path, reason: "cannot be read (missing, or no permission)")
        }
        guard let format = format ?? SourceFormat.detect(contents: contents, fileName: file.lastPathComponent) else {
            throw .unsupportedSource(file: path, reason: "its format is not recognised; pass the format (plist, shared-prefs, env, json)")
        }
        return (contents, try SourceParser.parse(contents, format: format, file: path), format)
    }

    private func plan(_ document: any SourceDocument, format: SourceFormat, keys: [String]?) throws(MigrationError) -> MigrationPlan {
        let available = Set(document.entries.map(\.key))
        for name in keys ?? selection.names where !available.contains(name) {
            throw .unknownKey(file: path, key: name, reason: "not in the file, or its value is a dictionary or date, which cannot be migrated")
        }
        let chosen = document.entries.compactMap { entry -> MigrationPlan.Item? in
            let reason = keys.map { $0.contains(entry.key) ? "resumed" : nil } ?? selection.reason(for: entry)
            return reason.map { MigrationPlan.Item(key: entry.key, type: entry.value.typeName, reason: $0, account: entry.key) }
        }
        return MigrationPlan(file: path, format: format, service: service, sensitivity: sensitivity, items: chosen,
                             untouchedKeys: document.entries.count - chosen.count)
    }

    // MARK: - Run

    /// Runs (or resumes) the migration.
    ///
    /// - Parameters:
    ///   - keepSource: leave the source file as it is (it still holds the secrets).
    ///   - keepBackupCopy: before scrubbing, copy the source to `<file>.pre-migration` (0600).
    ///     Off by default: a copy is one more plaintext file to forget.
    ///   - progress: called with (values done, total) while importing and verifying.
    /// - Throws: ``MigrationError``. Whatever fails, the source is untouched unless every value
    ///   was verified in the keychain first.
    @discardableResult
    public func run(keepSource: Bool = false, keepBackupCopy: Bool = false,
                    progress: ((Int, Int) -> Void)? = nil) throws(MigrationError) -> MigrationReport {
        let journals = MigrationJournalStore(accessGroup: accessGroup)
        let (contents, document, format) = try read()
        let hash = MigrationJournal.hash(contents)
        var journal = try journals.load(path)
        if let record = journal, record.state == .done {
            if record.scrubbedHash == hash {
                return MigrationReport(plan: try plan(document, format: format, keys: []), migratedKeys: [], sourceScrubbed: true, resumed: false)
            }
            journal = nil   // done earlier with the source kept, or the file changed since: plan again
        }
        if let record = journal, record.sourceHash != hash {
            if record.scrubbedHash == hash {
                // Scrubbed before the crash, not yet recorded: only the bookkeeping is left.
                journal?.state = .done
                try journals.save(journal!, for: path)
                return MigrationReport(plan: try plan(document, format: format, keys: []), migratedKeys: record.keys, sourceScrubbed: true, resumed: true)
            }
            journal = nil   // the file changed since: plan again
        }
        let resumed = journal != nil
        let plan = try plan(document, format: format, keys: journal?.keys)
        let values = Dictionary(document.entries.map { ($0.key, $0.value.storedValue) }, uniquingKeysWith: { $1 })
        let storage = self.storage
        var record = journal ?? MigrationJournal(state: .planned, sourceHash: hash, scrubbedHash: nil,
                                                  keys: plan.items.map(\.key), service: service, updated: Date())
        if !resumed {
            try checkConflicts(plan, values: values, storage: storage)
            if !keepSource {
                do { record.scrubbedHash = MigrationJournal.hash(try document.removing(Set(record.keys))) } catch {
                    throw .fileError(file: path, reason: "cannot compute the scrubbed file: \(error)")
                }
            }
            try journals.save(record, for: path)
            try reached(.planned)
        }
        if record.state < .imported {
            for (index, item) in plan.items.enumerated() {
                do { try storage.store(values[item.key]!, for: item.account, sensitivity: sensitivity) } catch { throw .keychain(error) }
                progress?(index + 1, plan.items.count * 2)
            }
            try advance(&record, to: .imported, journals)
        }
        if record.state < .verified {
            for (index, item) in plan.items.enumerated() {
                let stored: StoredValue?
                do { stored = try storage.storedValue(for: item.account) } catch { throw .keychain(error) }
                guard let stored, Self.constantTimeEqual(stored, values[item.key]!) else { throw .verificationFailed(file: path, key: item.key) }
                progress?(plan.items.count + index + 1, plan.items.count * 2)
            }
            try advance(&record, to: .verified, journals)
        }
        var scrubbed = false
        if record.state < .scrubbed, let target = record.scrubbedHash, !keepSource {
            let cleaned: Data
            do { cleaned = try document.removing(Set(record.keys)) } catch {
                throw .fileError(file: path, reason: "cannot compute the scrubbed file: \(error)")
            }
            guard MigrationJournal.hash(cleaned) == target else {
                throw .fileError(file: path, reason: "the scrubbed file differs from the one planned; nothing was removed")
            }
            if keepBackupCopy { try SourceFileRewriter.copy(path, to: path + ".pre-migration") }
            try SourceFileRewriter.replace(path, with: cleaned)
            if format == .sharedPreferences { SourceFileRewriter.remove(path + ".bak") }
            scrubbed = true
            try advance(&record, to: .scrubbed, journals)
        }
        try advance(&record, to: .done, journals)
        return MigrationReport(plan: plan, migratedKeys: record.keys, sourceScrubbed: scrubbed || record.scrubbedHash != nil && !keepSource,
                               resumed: resumed)
    }

    private func advance(_ record: inout MigrationJournal, to state: MigrationJournal.State, _ journals: MigrationJournalStore) throws(MigrationError) {
        record.state = state
        try journals.save(record, for: path)
        try reached(Step(rawValue: state.rawValue)!)
    }

    private func reached(_ step: Step) throws(MigrationError) {
        do { try afterStep?(step) } catch let error as MigrationError { throw error } catch {
            throw .fileError(file: path, reason: "stopped after \(step.rawValue): \(error)")
        }
    }

    /// Refuses to overwrite a different value already in the keychain under a target account.
    private func checkConflicts(_ plan: MigrationPlan, values: [String: StoredValue], storage: SecureStorage) throws(MigrationError) {
        for item in plan.items {
            let existing: StoredValue?
            do { existing = try storage.storedValue(for: item.account) } catch { throw .keychain(error) }
            if let existing, !Self.constantTimeEqual(existing, values[item.key]!) {
                throw .conflict(file: path, key: item.key, account: item.account)
            }
        }
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

    /// The honest advice after moving secrets out of plaintext.
    public var recommendation: String {
        "Rotate the migrated credentials: their plaintext may survive in backups, snapshots, editor swap files and SSD blocks that rewriting a file does not erase."
    }
}
