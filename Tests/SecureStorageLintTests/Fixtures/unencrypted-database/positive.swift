import CoreData
import Foundation
import RealmSwift
import SQLite3
import SwiftData

// Core Data: key-value coding and @NSManaged properties.
final class Account: NSManagedObject {
    @NSManaged var email: String
    @NSManaged var password: String
}
func saveAccount(context: NSManagedObjectContext, email: String, password: String, token: String) throws {
    let object = NSEntityDescription.insertNewObject(forEntityName: "User", into: context)
    object.setValue(password, forKey: "password") // expect: unencrypted-database
    object.setValue(token, forKey: "value") // expect: unencrypted-database
    let account = Account(context: context)
    account.email = email
    account.password = password
    try context.save() // expect: unencrypted-database
}

// SwiftData: a credential-named stored property of a model.
@Model final class StoredLogin {
    var username: String
    var authToken: String // expect: unencrypted-database
    init(username: String, authToken: String) { self.username = username; self.authToken = authToken }
}

// SQLite: bound values and SQL naming credential columns.
func insert(db: OpaquePointer?, statement: OpaquePointer?, password: String, name: String) {
    sqlite3_bind_text(statement, 2, password, -1, nil) // expect: unencrypted-database
    sqlite3_exec(db, "INSERT INTO users (name, password) VALUES ('a', 'b')", nil, nil, nil) // expect: unencrypted-database
    let sql = "UPDATE users SET api_key = ? WHERE id = 1"
    sqlite3_prepare_v2(db, sql, -1, nil, nil) // expect: unencrypted-database
}
func grdb(db: Database, fmdb: FMDatabase, token: String) throws {
    try db.execute(sql: "INSERT INTO session (id, token) VALUES (?, ?)", arguments: [1, token]) // expect: unencrypted-database
    fmdb.executeUpdate("INSERT INTO creds (user, secret) VALUES (?, ?)", withArgumentsIn: ["a", token]) // expect: unencrypted-database
}

// Realm: objects holding credentials in a realm without an encryption key.
final class RealmCredential: Object {
    @Persisted var user = ""
    @Persisted var password = ""
}
func realmSave(password: String) throws {
    let realm = try Realm()
    let record = RealmCredential()
    realm.add(record) // expect: unencrypted-database
    let stored = RealmCredential()
    try realm.write {
        stored.password = password // expect: unencrypted-database
        realm.add(stored) // expect: unencrypted-database
    }
}

// Couchbase Lite and YapDatabase.
func documents(database: CBLDatabase, transaction: YapDatabaseReadWriteTransaction, password: String, token: String) throws {
    let document = MutableDocument(id: "user")
    document.setString(password, forKey: "pw") // expect: unencrypted-database
    document.setString("a", forKey: "refresh_token") // expect: unencrypted-database
    try database.saveDocument(document)
    transaction.setObject(token, forKey: "k", inCollection: "auth") // expect: unencrypted-database
}

// A Realm object of a type declared elsewhere, given a credential before it is added.
func realmUser(realm: Realm, field: UITextField) throws {
    let user = OtherFileUser()
    user.password = field.text
    try realm.write {
        realm.add(user) // expect: unencrypted-database
    }
}

// Several credential attributes set in one block without a save: one finding.
extension Account {
    static func make(in context: NSManagedObjectContext, token: String, secret: String) -> Account {
        let account = Account(context: context)
        account.accessToken = token // expect: unencrypted-database
        account.clientSecret = secret
        return account
    }
}
