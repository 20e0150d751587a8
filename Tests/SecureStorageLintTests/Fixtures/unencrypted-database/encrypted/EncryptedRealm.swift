import RealmSwift

// A realm opened with an encryption key: credentials in it are encrypted.
final class StoredToken: Object { @Persisted var token = "" }
func openEncrypted(key: Data, token: String) throws {
    let configuration = Realm.Configuration(encryptionKey: key)
    let realm = try Realm(configuration: configuration)
    let stored = StoredToken()
    try realm.write {
        stored.token = token
        realm.add(stored)
    }
}
