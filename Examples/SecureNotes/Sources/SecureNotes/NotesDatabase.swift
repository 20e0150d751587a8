import Foundation
import GRDB
import SecureStorage
import SecureStorageGRDB

/// Version 2's store: `notes.sqlite` in the notes directory, with sealed note bodies.
struct NotesDatabase {
    let queue: DatabaseQueue

    init(directory: URL) throws {
        try NotesDatabase.makePrivateDirectory(directory)
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        queue = try DatabaseQueue(
            path: directory.appendingPathComponent("notes.sqlite").path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: "CREATE TABLE note (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, body BLOB NOT NULL)")
        }
        try migrator.migrate(queue)
    }

    /// Whether version 2's database exists in `directory`.
    static func exists(in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("notes.sqlite").path)
    }

    /// Creates `directory` when missing and makes it this user's alone (titles are plain).
    static func makePrivateDirectory(_ directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
    }

    /// The titles, without opening anything.
    func titles() throws -> [(id: Int64, title: String)] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, coalesce(title, '') AS title FROM note ORDER BY id").map {
                ($0["id"], $0["title"])
            }
        }
    }
}

/// The migration's destination: the preferences keys `note.<n>.title` and `note.<n>.body`
/// become the columns of note `n`.
struct NotesDestination: MigrationDestination {
    let database: NotesDatabase
    let sealer: DatabaseSealer

    /// The database file, so that an interrupted migration resumes only into the same one.
    var identifier: String { "secure-notes:" + database.queue.path }

    func store(_ value: StoredValue, for key: String) throws {
        let (id, field) = try Self.parse(key)
        guard value.kind == .string, let text = String(data: value.data, encoding: .utf8) else {
            throw NotesError("\(key) is not text (version 1 only wrote text)")
        }
        try database.queue.write { db in
            if var note = try sealer.fetchOne(db, Note.filter(key: id)) {
                if field == "title" { note.title = text } else { note.body = text }
                try sealer.update(note, db)
            } else {
                var note = Note(id: id, title: field == "title" ? text : nil, body: field == "body" ? text : nil)
                try sealer.insert(&note, db)
            }
        }
    }

    func storedValue(for key: String) throws -> StoredValue? {
        let (id, field) = try Self.parse(key)
        let note = try database.queue.read { db in try sealer.fetchOne(db, Note.filter(key: id)) }
        return (field == "title" ? note?.title : note?.body).map { StoredValue(data: Data($0.utf8), kind: .string) }
    }

    private static func parse(_ key: String) throws -> (Int64, String) {
        let parts = key.split(separator: ".")
        guard parts.count == 3, parts[0] == "note", let id = Int64(parts[1]), ["title", "body"].contains(parts[2])
        else {
            throw NotesError("not a note key: \(key)")
        }
        return (id, String(parts[2]))
    }
}

/// A failure the app reports and exits on.
struct NotesError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
