import CoreData
import RealmSwift

// A Realm opened with a key is encrypted; the Core Data store beside it is not.
final class Vault: Object { @Persisted var password = "" }
func save(key: Data, context: NSManagedObjectContext, password: String) throws {
    let realm = try Realm(configuration: Realm.Configuration(encryptionKey: key))
    realm.add(Vault())
    let object = NSEntityDescription.insertNewObject(forEntityName: "User", into: context)
    object.setValue(password, forKey: "password") // expect: unencrypted-database
}
