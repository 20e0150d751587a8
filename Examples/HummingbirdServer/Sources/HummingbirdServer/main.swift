import Configuration
import Hummingbird
import SecureStorage
import SecureStorageConfiguration

// Once, as the service's user:
//   keychain add-generic-password -s com.acme.api -a database.password -w
// With a passphrase-protected keychain, run under systemd with
//   LoadCredential=secure-storage-passphrase:/etc/acme/keychain-passphrase
// (or unlock explicitly with SecureStorage.unlock(from: .file(...))).

#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
_ = try SecureStorage.unlockFromCredentialsIfPresent()  // before the event loops start
#endif

let config = ConfigReader(providers: [
    KeychainConfigProvider(service: "com.acme.api"),  // database.password → account database.password
    EnvironmentVariablesProvider()  // HTTP_PORT, DATABASE_HOST, …
])
let databasePassword = try await config.fetchRequiredString(forKey: "database.password")
let databaseHost = config.string(forKey: "database.host", default: "localhost")
let port = config.int(forKey: "http.port", default: 8080)

// A real server would open its connection pool here with databasePassword.
let router = Router()
router.get("health") { _, _ -> String in
    "ok: database \(databaseHost), password from the keychain (\(databasePassword.isEmpty ? "empty" : "set"))\n"
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
