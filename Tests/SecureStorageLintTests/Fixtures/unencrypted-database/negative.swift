import CoreData
import Foundation
import RealmSwift
import SQLite3
import SwiftData

// Core Data objects without credentials; defaults are another rule's.
final class Note: NSManagedObject {
    @NSManaged var title: String
    @NSManaged var isPasswordProtected: Bool
}
func saveNote(context: NSManagedObjectContext, title: String, passwordHint: String, note: Note) throws {
    let object = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
    object.setValue(title, forKey: "title")
    object.setValue(true, forKey: "hasPassword")
    object.setValue(passwordHint, forKey: "passwordHint")
    note.title = title
    note.isPasswordProtected = true
    try context.save()
}

// SwiftData models with settings and references, not secrets.
@Model final class Preferences {
    var theme: String
    var requirePasscode: Bool
    var tokenExpiry: Date
    var keychainAccount: String
    init() { theme = ""; requirePasscode = false; tokenExpiry = Date(); keychainAccount = "" }
}

// SQL that writes no credential column, or only reads one.
func sql(db: OpaquePointer?, statement: OpaquePointer?, name: String, count: Int32) {
    sqlite3_bind_text(statement, 1, name, -1, nil)
    sqlite3_bind_int(statement, 2, count)
    sqlite3_exec(db, "INSERT INTO notes (title, body) VALUES ('a', 'b')", nil, nil, nil)
    sqlite3_exec(db, "SELECT password FROM legacy", nil, nil, nil)
    sqlite3_exec(db, "UPDATE users SET last_login = 1 WHERE password_hint IS NULL", nil, nil, nil)
}

// Realm objects without credentials.
final class RealmNote: Object { @Persisted var title = "" }
func realmNote(title: String) throws {
    let realm = try Realm()
    let note = RealmNote()
    try realm.write {
        note.title = title
        realm.add(note)
    }
}

// YapDatabase and Couchbase values that are not credentials.
func other(transaction: YapDatabaseReadWriteTransaction, title: String) {
    transaction.setObject(title, forKey: "title", inCollection: "notes")
    let document = MutableDocument(id: "note")
    document.setString(title, forKey: "title")
}

// A Realm object given only harmless members.
func realmUser(realm: Realm, field: UITextField) throws {
    let user = OtherFileUser()
    user.name = field.text
    user.hasPassword = true
    try realm.write {
        realm.add(user)
    }
}

// Statements whose bound values are protected or not credentials, whatever the column is called.
func grdb(db: Database, wrappedSecretKey: Data, session: Session?, id: Int64) throws {
    try db.execute(sql: "UPDATE items SET secret_key = ? WHERE id = ?", arguments: [wrappedSecretKey, id])
    try db.execute(sql: "UPDATE vault SET session_id = ?", arguments: [session?.id])
}
