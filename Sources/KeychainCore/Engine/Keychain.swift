import Crypto
import Foundation
import GRDB
import Logging

/// An encrypted keychain file with Apple's data model: the engine behind `KeychainServices`.
///
/// Items are stored in SQLite (WAL, `synchronous=FULL`, `secure_delete=ON`), each row encrypted
/// with its own metadata and secret keys, wrapped by per-class keys that the lock state makes
/// available or not. Every operation runs in one transaction; several instances and several
/// processes may share one file.
///
/// ```swift
/// let keychain = try Keychain()                       // the default keychain
/// try keychain.add(NewItem(.genericPassword,
///                          attributes: [.service: "api.example.com", .account: "alice"],
///                          data: Data("s3cret".utf8)))
/// let found = try keychain.find(Query(.genericPassword, [.service: "api.example.com"], limit: .one),
///                               returning: .data)
/// ```
///
/// Instances are thread-safe. Errors are ``KeychainError``s carrying Apple's OSStatus.
public final class Keychain: Sendable {
    /// Where this keychain's files are.
    public let location: KeychainLocation
    /// The options it was opened with.
    public let options: KeychainOptions

    let database: DatabasePool
    let keys: KeyStore
    /// The ``authenticator``.
    let authenticatorSlot = Locked<(any Authenticator)?>(nil)
    /// The database path for error messages, computed once (`URL.path` costs a few µs per call).
    let databasePath: String
    let logger = Logger(label: "SecureStorage.KeychainCore")

    /// Opens (creating if needed) the keychain at `location`.
    ///
    /// A new keychain has no passphrase and opens unlocked. One with a passphrase opens in
    /// ``LockState/beforeFirstUnlock``: only `always` items are available until ``unlock(passphrase:)``.
    ///
    /// - Throws: `.keychainUnavailable` for unsafe permissions or a missing/wrong device key,
    ///   `.invalidKeychain` for a file that is not a keychain, `.unsupportedVersion` for a newer format.
    public convenience init(location: KeychainLocation = .default, options: KeychainOptions = KeychainOptions()) throws(KeychainError) {
        try self.init(location: location, options: options, mustCreate: false)
    }

    /// Opens or, with `mustCreate`, creates a keychain (`.duplicateKeychain` when the file
    /// exists; decided under the directory lock, so two creators cannot both succeed).
    init(location: KeychainLocation, options: KeychainOptions, mustCreate: Bool) throws(KeychainError) {
        self.location = location
        self.options = options
        databasePath = location.databaseURL.path
        let directory = location.databaseURL.deletingLastPathComponent()
        try PlatformIO.makePrivateDirectory(directory)
        if let network = FileSystemKind.networkFileSystem(at: directory.path), !options.allowsNetworkFileSystem {
            throw KeychainError(.keychainUnavailable, "The keychain directory \(directory.path) is on a network file system (\(network)). SQLite's write-ahead log needs shared memory and locks that network file systems do not provide reliably, so concurrent writers could corrupt it. Move the keychain to a local disk, or set KeychainOptions.allowsNetworkFileSystem if only one process ever uses it.")
        }
        (database, keys) = try PlatformIO.withExclusiveLock(onDirectory: directory) { () throws(KeychainError) in
            try Self.openLocked(location: location, options: options, mustCreate: mustCreate)
        }
        if options.resumesUnlockSession && hasPassphrase { resumeUnlockSession() }
        logger.debug("opened keychain", metadata: ["path": "\(location.databaseURL.path)", "state": "\(keys.lockState)"])
    }

    /// Runs under the directory lock, so concurrent creators initialise the file once.
    private static func openLocked(location: KeychainLocation, options: KeychainOptions, mustCreate: Bool) throws(KeychainError) -> (DatabasePool, KeyStore) {
        let path = location.databaseURL.path
        for suffix in ["", "-wal", "-shm"] {
            try FilePermissions.requirePrivate(path + suffix, role: "keychain file")
        }
        if try !PlatformIO.createPrivateFileIfMissing(path) && mustCreate {
            throw KeychainError(.duplicateKeychain, "A keychain already exists at \(path). Use it, or choose another location.")
        }
        let database = try openDatabase(path: path, busyTimeout: options.busyTimeout)
        return try perform(path: path) { () throws -> (DatabasePool, KeyStore) in
            try requireKeychainSchema(database, path: path)
            let upgradingToStateDigest = try database.read { db in
                try db.tableExists("vault_header") && !KeychainSchema.migrator.appliedIdentifiers(db).contains(KeychainSchema.stateDigestMigration)
            }
            try KeychainSchema.migrator.migrate(database)
            let (header, keybag, deviceKey) = try database.writeWithoutTransaction { db in
                var result: (VaultHeader, [KeybagSlot: Data], SymmetricKey)!
                try db.inTransaction(.immediate) {
                    if let header = try VaultHeader.fetch(db) {
                        guard header.formatVersion <= KeychainSchema.formatVersion else {
                            throw KeychainError(.unsupportedVersion, "The keychain at \(path) has format \(header.formatVersion); this library reads format \(KeychainSchema.formatVersion) and older. Upgrade SecureStorage to open it.")
                        }
                        let deviceKey = try DeviceKeyFile.load(at: location.deviceKeyURL, mayCreate: false)
                        result = (header, try KeyStore.fetchKeybag(db), deviceKey)
                        if upgradingToStateDigest {   // written before the digest existed: record its rows once
                            try StateDigest(deviceKey: deviceKey, vaultID: header.vaultID).initialize(db)
                        }
                    } else {
                        let deviceKey = try DeviceKeyFile.load(at: location.deviceKeyURL, mayCreate: true)
                        result = try createKeybag(db, deviceKey: deviceKey)
                        try StateDigest(deviceKey: deviceKey, vaultID: result.0.vaultID).initialize(db)
                    }
                    return .commit
                }
                return result
            }
            return (database, try KeyStore(header: header, deviceKey: deviceKey, keybag: keybag))
        }
    }

    private static func openDatabase(path: String, busyTimeout: Duration) throws(KeychainError) -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(TimeInterval(busyTimeout.components.seconds) + TimeInterval(busyTimeout.components.attoseconds) / 1e18)
        configuration.label = "SecureStorage.Keychain"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            #if canImport(Darwin)
            try db.execute(sql: "PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON")
            #endif
        }
        return try perform(path: path) { () throws -> DatabasePool in
            let database = try DatabasePool(path: path, configuration: configuration)
            // GRDB switches the writer to synchronous=NORMAL with WAL; an acknowledged write must
            // survive power loss, so set FULL (one fsync per commit) and check that it holds.
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous")
                let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete")
                let journal = try String.fetchOne(db, sql: "PRAGMA journal_mode")
                guard synchronous == 2, secureDelete == 1, journal == "wal" else {
                    throw KeychainError(.keychainUnavailable, "SQLite did not accept the durability settings (synchronous=\(synchronous ?? -1), secure_delete=\(secureDelete ?? -1), journal=\(journal ?? "?")).")
                }
            }
            return database
        }
    }

    /// Refuses SQLite files that hold something other than a keychain. A file whose creation was
    /// interrupted (killed after the migrator created its empty bookkeeping table, before the
    /// first migration committed) holds exactly that table, empty, and nothing else (no index,
    /// trigger or view): it is finished, not refused.
    private static func requireKeychainSchema(_ database: DatabasePool, path: String) throws {
        let foreign = try database.read { db -> Bool in
            let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
                .map { (type: $0[0] as String? ?? "", name: $0[1] as String? ?? "") }
            if objects.contains(where: { $0.type == "table" && $0.name == "vault_header" }) { return false }
            if objects.isEmpty { return false }
            guard objects.count == 1, objects[0].type == "table", objects[0].name == "grdb_migrations" else { return true }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grdb_migrations") != 0
        }
        if foreign {
            throw KeychainError(.invalidKeychain, "\(path) is an SQLite database but not a keychain. Move it aside or choose another location.")
        }
    }

    /// Creates the header and keybag of a new keychain: random index and class keys, wrapped
    /// under the device KEK (index, `always` classes) and the passphrase-less user KEK (the rest).
    private static func createKeybag(_ db: Database, deviceKey: SymmetricKey) throws -> (VaultHeader, [KeybagSlot: Data], SymmetricKey) {
        let header = VaultHeader(formatVersion: KeychainSchema.formatVersion, vaultID: UUID(), keybagGeneration: 1, passphrase: nil)
        try header.insert(db)
        let deviceKEK = KeyHierarchy.deviceKEK(deviceKey: deviceKey, vaultID: header.vaultID)
        let userKEK = KeyHierarchy.userKEK(deviceKey: deviceKey, passphraseKey: nil, vaultID: header.vaultID)
        var keybag: [KeybagSlot: Data] = [:]
        var slots: [KeybagSlot] = [.index]
        slots += Accessibility.allCases.filter { $0 != .whenPasscodeSetThisDeviceOnly }.map(KeybagSlot.classKey)
        for slot in slots {
            keybag[slot] = try slot.wrap(SymmetricKey(size: .bits256), with: slot.tier == .device ? deviceKEK : userKEK, vaultID: header.vaultID)
        }
        try writeKeybag(keybag, db)
        return (header, keybag, deviceKey)
    }

    static func writeKeybag(_ keybag: [KeybagSlot: Data], _ db: Database) throws {
        for (slot, wrapped) in keybag {
            try db.execute(sql: "INSERT OR REPLACE INTO keybag (slot, wrapped_key) VALUES (?, ?)", arguments: [slot.name, wrapped])
        }
    }

    // MARK: - State

    /// The current lock state of this instance.
    public var lockState: LockState { keys.lockState }

    /// Whether a passphrase protects the keychain (a device "with a passcode").
    public var hasPassphrase: Bool { keys.header.hasPassphrase }

    /// The scrypt parameters of the current passphrase, if one is set.
    public var passphraseParameters: ScryptParameters? { keys.header.passphrase?.parameters }

    /// The random identifier of this keychain, bound into every ciphertext.
    public var vaultID: UUID { keys.header.vaultID }

    // MARK: - Transactions

    /// Runs a write in one `BEGIN IMMEDIATE` transaction after reloading a changed keybag.
    func write<T>(_ body: (Database) throws -> T) throws(KeychainError) -> T {
        try Self.perform(path: databasePath) {
            try database.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    try keys.refresh(db)
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        }
    }

    /// Runs a read on a consistent snapshot after reloading a changed keybag.
    func read<T>(_ body: (Database) throws -> T) throws(KeychainError) -> T {
        try Self.perform(path: databasePath) {
            try database.read { db in
                try keys.refresh(db)
                return try body(db)
            }
        }
    }

    static func perform<T>(path: String, _ body: () throws -> T) throws(KeychainError) -> T {
        do { return try body() } catch { throw DatabaseErrors.map(error, path: path) }
    }
}
