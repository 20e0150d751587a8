import Crypto
import Foundation

/// The state of one source's migration, kept in the keychain itself (service
/// `SecureStorage.migrations`, one item per source path, in the library-owned namespace so no
/// app, import or sync can plant a journal that skips a step), so a run killed at any step resumes.
/// Holds key names and hashes, never values.
struct MigrationJournal: Codable, Equatable {
    /// The steps, in order; each is recorded only after it completed.
    enum State: String, Codable, Comparable {
        case planned, imported, verified, scrubbed, done

        private var rank: Int { [.planned, .imported, .verified, .scrubbed, .done].firstIndex(of: self)! }
        static func < (lhs: State, rhs: State) -> Bool { lhs.rank < rhs.rank }
    }

    var state: State
    /// SHA-256 of the source as planned.
    var sourceHash: String
    /// SHA-256 of the scrubbed source, recorded just before it replaces the file; `nil` until then.
    var scrubbedHash: String?
    var keys: [String]
    var service: String
    var accessGroup: String?
    var updated: Date

    static func hash(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}

/// Reads and writes journal records through the facade (so the same code runs on Apple platforms).
struct MigrationJournalStore {
    let storage: SecureStorage

    init(accessGroup: String?) {
        storage = SecureStorage(
            service: SourceMigration.journalService, accessGroup: accessGroup, defaultSensitivity: .private
        )
        .libraryOwned(by: .migrationJournal)
    }

    static func key(for path: String) -> String { "source:" + MigrationJournal.hash(Data(path.utf8)) }

    /// Whether `account` names a journal record (`source:` and a SHA-256 in hex).
    static func isJournalAccount(_ account: String) -> Bool {
        account.count == 71 && account.hasPrefix("source:")
            && account.dropFirst(7).allSatisfy { "0123456789abcdef".contains($0) }
    }

    func load(_ path: String) throws(MigrationError) -> MigrationJournal? {
        do { return try storage.value(MigrationJournal.self, for: Self.key(for: path)) } catch {
            throw .keychain(error)
        }
    }

    func save(_ journal: MigrationJournal, for path: String) throws(MigrationError) {
        var journal = journal
        journal.updated = Date()
        do { try storage.set(journal, for: Self.key(for: path), sensitivity: .private) } catch {
            throw .keychain(error)
        }
    }
}
