import CoreData
import RealmSwift

// A variable of the app's own crypto named `encryptionKey` does not encrypt a database, and a
// Realm key does not encrypt a Core Data store.
final class Vault: Object { @Persisted var password = "" }
var encryptionKey = "k"
func save(realm: Realm, context: NSManagedObjectContext, password: String) throws {
    let keyData = encryptionKey.data(using: .utf8)
    _ = keyData
    let vault = Vault()
    realm.add(vault) // expect: unencrypted-database
    let object = NSEntityDescription.insertNewObject(forEntityName: "User", into: context)
    object.setValue(password, forKey: "password") // expect: unencrypted-database
}
