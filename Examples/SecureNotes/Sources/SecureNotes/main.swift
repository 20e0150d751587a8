// SecureNotes: a notes app moving from plaintext preferences to an encrypted store.
//
//   secure-notes v1-add TITLE BODY   version 1: appends a note to notes.plist, in plaintext
//   secure-notes migrate             version 2: moves the notes into notes.sqlite (sealed bodies),
//                                    behind a keychain passphrase and a PIN; scrubs the plist
//   secure-notes list                the titles (no PIN)
//   secure-notes show N              note N's body (asks for the passphrase and the PIN)
//
// NOTES_HOME is where the notes live (default ~/.local/share/secure-notes). The keychain is one of
// the example's own, in NOTES_HOME/keychain, so that trying it changes nothing of yours; set
// SECURE_STORAGE_HOME to use another (the default keychain of a real app).
import Foundation
import GRDB
import SecureStorage
import SecureStorageGRDB
#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import KeychainCore
import KeychainServices

_ = SecureStorage.hardenProcess()  // no core dumps: the process holds the passphrase, the PIN and the notes
let home = URL(
    fileURLWithPath: ProcessInfo.processInfo.environment["NOTES_HOME"]
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/secure-notes").path)
if ProcessInfo.processInfo.environment["SECURE_STORAGE_HOME"] == nil {
    setenv("SECURE_STORAGE_HOME", home.appendingPathComponent("keychain").path, 1)
}
let preferences = home.appendingPathComponent("notes.plist")
let storage = SecureStorage(service: "com.example.secure-notes")

/// Version 1's format: a flat property list, `note.<n>.title` and `note.<n>.body`.
func addVersion1Note(title: String, body: String) throws {
    guard !NotesDatabase.exists(in: home) else {
        throw NotesError("the notes were migrated to version 2 already; version 1 is retired")
    }
    try NotesDatabase.makePrivateDirectory(home)
    var notes =
        (try? PropertyListSerialization.propertyList(from: Data(contentsOf: preferences), format: nil))
        as? [String: String] ?? [:]
    let next = (notes.keys.compactMap { Int($0.split(separator: ".").dropFirst().first ?? "") }.max() ?? 0) + 1
    notes["note.\(next).title"] = title
    notes["note.\(next).body"] = body
    try PropertyListSerialization.data(fromPropertyList: notes, format: .xml, options: 0).write(to: preferences)
    print("note \(next) saved (version 1, plaintext)")
}

/// Unlocks the keychain, giving it a passphrase first when it has none.
func unlockKeychain() throws {
    let keychain = try SecItemEnvironment.keychain()
    if !keychain.hasPassphrase {
        try keychain.setPassphrase(try TerminalInput.newSecret("keychain passphrase"))
    } else if keychain.lockState != .unlocked {
        try keychain.unlock(passphrase: try TerminalInput.secret("Keychain passphrase: "))
    }
}

/// The PIN that note bodies need, as the keychain's user-presence authenticator.
func usePIN(enrollingIfNeeded: Bool) throws {
    let keychain = try SecItemEnvironment.keychain()
    let pin = try PINAuthenticator(keychain: keychain.location) { _ in
        try? TerminalInput.secret("PIN to open the notes: ")
    }
    if !pin.isPINSet {
        guard enrollingIfNeeded else { throw NotesError("no PIN is set; run secure-notes migrate first") }
        try pin.setPIN(try TerminalInput.newSecret("PIN for the notes"), in: keychain)
    }
    SecItemEnvironment.authenticator = pin
}

func migrate() throws {
    guard FileManager.default.fileExists(atPath: preferences.path) else {
        throw NotesError("no version 1 notes at \(preferences.path)")
    }
    try unlockKeychain()
    try usePIN(enrollingIfNeeded: true)
    let database = try NotesDatabase(directory: home)
    // Created without asking; reading it later needs the PIN.
    let sealer = try storage.databaseSealer(key: "notes.db-key", sensitivity: .secret, requireUserPresence: true)
    try database.queue.write { db in try sealer.prepare(db) }
    var migration = SourceMigration(
        file: preferences, selection: KeySelection(patterns: ["note.*.title", "note.*.body"]),
        destination: NotesDestination(database: database, sealer: sealer))
    if let stop = ProcessInfo.processInfo.environment["SECURE_NOTES_STOP_AFTER"] {
        // For the crash test: die right after the step, as a power cut would.
        migration.afterStep = { step in if step.rawValue == stop { kill(getpid(), SIGKILL) } }
    }
    let report = try migration.run()
    let notes = Set(report.migratedKeys.map { $0.split(separator: ".").dropFirst().first ?? "" }).count
    guard notes > 0 else { return print("no notes to move: notes.plist holds none") }
    print(
        "\(notes) notes moved to \(home.appendingPathComponent("notes.sqlite").path)\(report.resumed ? " (resumed)" : "")"
    )
    if report.sourceScrubbed {
        print("notes.plist no longer holds them (copies may survive in backups and on disk blocks).")
    }
}

func show(_ id: Int64) throws {
    try unlockKeychain()
    try usePIN(enrollingIfNeeded: false)
    guard NotesDatabase.exists(in: home), try DatabaseSealer.keyExists(in: storage, key: "notes.db-key") else {
        throw NotesError("no version 2 notes here; run secure-notes migrate first")
    }
    let database = try NotesDatabase(directory: home)
    let sealer = try storage.databaseSealer(key: "notes.db-key", sensitivity: .secret, requireUserPresence: true)
    try database.queue.write { db in try sealer.prepare(db) }  // a key that is not the database's says so
    guard let note = try database.queue.read({ db in try sealer.fetchOne(db, Note.filter(key: id)) }) else {
        throw NotesError("no note \(id)")
    }
    print(note.title ?? "")
    print(note.body ?? "")
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "v1-add" where arguments.count == 3: try addVersion1Note(title: arguments[1], body: arguments[2])
    case "migrate" where arguments.count == 1: try migrate()
    case "list" where arguments.count == 1:
        for (id, title) in try NotesDatabase(directory: home).titles() { print("\(id)  \(title)") }
    case "show" where arguments.count == 2:
        guard let id = Int64(arguments[1]) else { throw NotesError("show takes a note number") }
        try show(id)
    default:
        FileHandle.standardError.write(Data("usage: secure-notes v1-add TITLE BODY | migrate | list | show N\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("secure-notes: \(error)\n".utf8))
    exit(1)
}
#else
FileHandle.standardError.write(
    Data(
        "secure-notes shows the Linux keychain (passphrase and PIN); on Apple platforms the system keychain and Face ID take their place.\n"
            .utf8))
exit(69)
#endif
