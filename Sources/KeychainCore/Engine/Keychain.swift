import Crypto
import Foundation
import SecureStorageFoundation
import GRDB
import Logging
import CSQLiteHardening

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
    let keys: KeyRing
    /// The ``deviceBinding``; changed by ``bindToTPM(pcrs:passphrase:)`` and ``unbindFromTPM(passphrase:)``.
    let binding: Locked<DeviceBinding>
    /// The ``authenticator``.
    let authenticatorSlot = Locked<(any Authenticator)?>(nil)
    /// The database path for error messages, computed once (`URL.path` costs a few µs per call).
    let databasePath: String
    /// The `PRAGMA schema_version` at which the schema was last found exact.
    let checkedSchemaVersion = Locked<Int64?>(nil)
    /// Set when a delete could not put the writer back at `synchronous = FULL`
    /// (``writeThenScrub(_:)``): the next write does it first.
    let synchronousToRestore = Locked(false)
    /// Where the engine logs: the application's logger (``LibraryLogging``), else nowhere.
    var logger: Logger { LibraryLogging.logger(component: "KeychainCore") }

    /// Opens (creating if needed) the keychain at `location`.
    ///
    /// A new keychain has no passphrase and opens unlocked. One with a passphrase opens in
    /// ``LockState/beforeFirstUnlock``: only `always` items are available until ``unlock(passphrase:)-9dovi``.
    ///
    /// - Throws: `.keychainUnavailable` for unsafe permissions or a missing/wrong device key,
    ///   `.invalidKeychain` for a file that is not a keychain, `.unsupportedVersion` for a newer
    ///   format, `.integrityViolation` for a tampered one, `.busy` when another process holds the
    ///   keychain directory's lock past the busy timeout (at least 10 s).
    public convenience init(location: KeychainLocation = .default, options: KeychainOptions = KeychainOptions())
        throws(KeychainError)
    {
        try self.init(location: location, options: options, mustCreate: false)
    }

    /// Opens or, with `mustCreate`, creates a keychain (`.duplicateKeychain` when the file
    /// exists; decided under the directory lock, so two creators cannot both succeed). A new
    /// keychain gets `initialPassphrase` in the transaction that creates it: no keybag without
    /// the passphrase is ever committed.
    init(location: KeychainLocation, options: KeychainOptions, mustCreate: Bool, initialPassphrase: String? = nil)
        throws(KeychainError)
    {
        self.location = location
        self.options = options
        databasePath = location.databaseURL.path
        let directory = location.databaseURL.deletingLastPathComponent()
        if options.readOnly && !mustCreate {
            guard PlatformIO.fileExists(location.databaseURL.path) else { throw Self.noSuchKeychain(at: location) }
            try PlatformIO.requirePrivateDirectory(directory, role: "data directory")
        } else {
            try PlatformIO.makePrivateDirectory(directory, role: "data directory")
        }
        if let network = FileSystemKind.networkFileSystem(at: directory.path), !options.allowsNetworkFileSystem {
            throw KeychainError.networkFileSystem(directory: directory.path, network: network)
        }
        let changeRolledBack: Bool
        let deviceBinding: DeviceBinding
        // Bounded: a process holding the lock for ever gives `.busy`, never a hang (at least 10 s,
        // for a creator running scrypt or an upgrade; longer when the busy timeout is).
        (database, keys, deviceBinding, changeRolledBack) = try PlatformIO.withExclusiveLock(
            onDirectory: directory, waitingAtMost: max(options.busyTimeout, .seconds(10))
        ) { () throws(KeychainError) in
            if options.readOnly && !mustCreate,
                let opened = try Self.openForReading(location: location, options: options)
            {
                return opened
            }
            return try Self.openLocked(
                location: location, options: options, mustCreate: mustCreate, initialPassphrase: initialPassphrase)
        }
        binding = Locked(deviceBinding)
        // After a lock whose process died before it settled the anchor, the file's session
        // record may be one that was put back: the session is not resumed (unlock again).
        if options.resumesUnlockSession && hasPassphrase && keys.lockState != .unlocked && !changeRolledBack {
            resumeUnlockSession()
        }
        logger.debug(
            "opened keychain", metadata: ["path": "\(location.databaseURL.path)", "state": "\(keys.lockState)"])
    }

    /// Runs under the directory lock, so concurrent creators initialise the file once and
    /// concurrent openers upgrade it once.
    ///
    /// Order matters: the schema is checked exactly before anything else reads the file; the
    /// anchor beside the device key decides whether an old format may be upgraded; the header
    /// and keybag MAC and the KDF bounds are checked before any key is unwrapped or derived.
    /// - Returns: the database, the keys, what keeps the device secret, and whether a header
    ///   change (a lock, a passphrase change) was found not to have committed.
    private static func openLocked(
        location: KeychainLocation, options: KeychainOptions, mustCreate: Bool,
        initialPassphrase: String?
    ) throws(KeychainError) -> (DatabasePool, KeyRing, DeviceBinding, Bool) {
        let path = location.databaseURL.path
        for suffix in ["", "-wal", "-shm"] {
            try FilePermissions.requirePrivate(path + suffix, role: "keychain file")
        }
        if try !PlatformIO.createPrivateFileIfMissing(path) && mustCreate {
            throw KeychainError.keychainExists(path: path)
        }
        let database = try openDatabase(path: path, busyTimeout: options.busyTimeout)
        let contents = try perform(path: path) { try database.read { db in try SchemaGuard.inspect(db, path: path) } }
        if contents != .new && mustCreate {
            throw KeychainError.keychainExists(path: path)
        }
        // A rotation of the device secret that a killed process left, finished or rolled back
        // before the device key is loaded (DeviceSecretRotationFiles).
        try DeviceSecretRotationFiles.settleInterrupted(
            location: location, database: database, options: options, isNew: contents == .new)
        let (deviceKey, deviceBinding) = try DeviceKeyFile.load(
            at: location.deviceKeyURL, mayCreate: contents == .new, options: options)
        // Anchors being written when a process was killed, of this or an uncommitted keychain.
        PlatformIO.removeAbandonedTemporaryFiles(in: location.deviceKeyURL.deletingLastPathComponent().path) {
            $0.hasPrefix("keychain-") && $0.hasSuffix(".anchor")
        }
        var createdKEK: SymmetricKey?
        try perform(path: path) { () throws in
            switch contents {
            case .new:
                let passphrase = try initialPassphrase.map { passphrase throws(KeychainError) in
                    try NewPassphrase(passphrase, hardening: options.passphraseHardening)
                }
                try KeychainSchema.migrator(deviceKey: deviceKey, location: nil).migrate(database)
                let vaultID = UUID()
                createdKEK = passphrase.map {
                    KeyHierarchy.userKEK(deviceKey: deviceKey, passphraseKey: $0.key, vaultID: vaultID)
                }
                try database.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try createKeybag(
                            db, vaultID: vaultID, deviceKey: deviceKey,
                            passphrase: passphrase.map { ($0.salt, $0.parameters, createdKEK!) },
                            location: location)
                        return .commit
                    }
                }
            case .keychain(let applied):
                try upgradeIfNeeded(
                    database, location: location, deviceKey: deviceKey,
                    fileFormat: KeychainSchema.migrations[applied - 1].format)
            }
        }
        var changeRolledBack = false
        let (header, keybag) = try perform(path: path) {
            try database.writeWithoutTransaction { db in
                var verified: (VaultHeader, [KeybagSlot: Data])!
                try db.inTransaction(.immediate) {
                    verified = try HeaderAuthenticator.fetchVerified(db, deviceKey: deviceKey, location: location)
                    // A change that committed (or not) before its writer settled the anchor.
                    changeRolledBack = try HeaderAuthenticator.settleAnchor(
                        db, location: location, deviceKey: deviceKey)
                    return .commit
                }
                return verified
            }
        }
        let keyStore = try KeyRing(header: header, deviceKey: deviceKey, keybag: keybag, location: location)
        if let createdKEK { try keyStore.unlock(userKEK: createdKEK, keybag: keybag) }
        return (database, keyStore, deviceBinding, changeRolledBack)
    }

    /// The read-only opening (``KeychainOptions/readOnly``), under the directory lock: the same
    /// checks as ``openLocked(location:options:mustCreate:initialPassphrase:)`` (permissions, exact
    /// schema, device key, format anchor, header and keybag MAC) through a read-only SQLite
    /// connection, in one read transaction. Returns nil, having written nothing, when the
    /// keychain must first be written to: created, upgraded, or its anchor settled after an
    /// interrupted header change (the caller then opens it for writing).
    private static func openForReading(location: KeychainLocation, options: KeychainOptions) throws(KeychainError) -> (
        DatabasePool, KeyRing, DeviceBinding, Bool
    )? {
        let path = location.databaseURL.path
        for suffix in ["", "-wal", "-shm"] {
            try FilePermissions.requirePrivate(path + suffix, role: "keychain file")
        }
        guard PlatformIO.fileExists(path) else { throw noSuchKeychain(at: location) }
        let database = try openDatabase(path: path, busyTimeout: options.busyTimeout, readOnly: true)
        let contents = try perform(path: path) { try database.read { db in try SchemaGuard.inspect(db, path: path) } }
        // An interrupted rotation of the device secret is settled by the writing path.
        guard contents == .keychain(appliedMigrations: KeychainSchema.migrations.count),
            PlatformIO.fileExists(location.deviceKeyURL.path),
            !DeviceSecretRotationFiles(location: location).hasPendingKey
        else { return nil }
        let (deviceKey, deviceBinding) = try DeviceKeyFile.load(
            at: location.deviceKeyURL, mayCreate: false, options: options)
        let verified: (VaultHeader, [KeybagSlot: Data])? = try perform(path: path) {
            try database.read { db -> (VaultHeader, [KeybagSlot: Data])? in
                // An anchor that must be rewritten (older format, two header MACs) or is missing
                // takes the writing path, which also gives the precise error for a missing one.
                guard let header = try VaultHeader.fetch(db),
                    let anchor = try? FormatAnchor.read(for: location, vaultID: header.vaultID, deviceKey: deviceKey),
                    anchor.formatVersion == KeychainSchema.formatVersion, anchor.headerMACs.count == 1
                else { return nil }
                do {
                    return try HeaderAuthenticator.fetchVerified(db, deviceKey: deviceKey, location: location)
                } catch is UnrecordedHeader {
                    return nil  // a header change between reading the anchor and the header: settle it by writing
                }
            }
        }
        guard let (header, keybag) = verified else { return nil }
        return (
            database, try KeyRing(header: header, deviceKey: deviceKey, keybag: keybag, location: location),
            deviceBinding, false
        )
    }

    static func noSuchKeychain(at location: KeychainLocation) -> KeychainError {
        KeychainError.noKeychainToOpen(path: location.databaseURL.path)
    }

    /// Brings an existing keychain to the current format, as its anchor allows.
    ///
    /// - With an anchor, a file older than the anchor says is refused (`.integrityViolation`):
    ///   its format records were stripped or it was replaced by an older copy.
    /// - Without one, the file must predate format 4 (every keychain of format 4 or later is created or
    ///   upgraded together with its anchor) and open with this device key: it is then upgraded
    ///   with its rows as they are, once, and logged. Nothing is written under a device key that
    ///   is not this keychain's (its index key must unwrap: an AES-GCM open, no KDF).
    private static func upgradeIfNeeded(
        _ database: DatabasePool, location: KeychainLocation, deviceKey: SymmetricKey, fileFormat: Int
    ) throws {
        guard
            let (header, keybag) = try database.read({ db in
                try VaultHeader.fetch(db).map { ($0, try KeyRing.fetchKeybag(db)) }
            })
        else {
            throw KeychainError.tamperedHeaderMissing()
        }
        let vaultID = header.vaultID
        let path = location.databaseURL.path
        let recorded: FormatAnchor?
        do {
            recorded = try FormatAnchor.read(for: location, vaultID: vaultID, deviceKey: deviceKey)
        } catch {
            // Not a damaged anchor but a device key that is not this keychain's (another
            // keychain's file, a forged one), which verifies neither.
            if !KeybagSlot.indexOpens(keybag, deviceKey: deviceKey, vaultID: vaultID) {
                throw KeychainError.wrongDeviceKey()
            }
            throw error
        }
        if let anchor = recorded {
            guard fileFormat >= anchor.formatVersion else {
                throw KeychainError.formatDowngraded(
                    path: path, fileFormat: fileFormat, formatVersion: anchor.formatVersion)
            }
        } else {
            guard KeybagSlot.indexOpens(keybag, deviceKey: deviceKey, vaultID: vaultID) else {
                throw KeychainError.wrongDeviceKey()
            }
            guard fileFormat < KeychainSchema.formatVersion else {
                throw KeychainError.formatAnchorMissing(
                    path: path, fileFormat: fileFormat,
                    anchorFile: FormatAnchor.url(for: location, vaultID: vaultID).lastPathComponent)
            }
            LibraryLogging.logger(component: "KeychainCore").notice(
                "upgrading keychain from format \(fileFormat) to \(KeychainSchema.formatVersion); its rows are accepted as they are (run verify to check them)",
                metadata: ["path": "\(path)"])
        }
        try KeychainSchema.migrator(deviceKey: deviceKey, location: location).migrate(database)
        if let anchor = try FormatAnchor.read(for: location, vaultID: vaultID, deviceKey: deviceKey),
            anchor.formatVersion < KeychainSchema.formatVersion
        {
            // The upgrade committed: the anchor now says the current format (header MACs as they were).
            try FormatAnchor(
                vaultID: vaultID, formatVersion: KeychainSchema.formatVersion, headerMACs: anchor.headerMACs
            ).write(for: location, deviceKey: deviceKey)
        }
    }

    /// Opens the pool of SQLite connections, each hardened. `readOnly` opens every connection
    /// with `SQLITE_OPEN_READONLY`: GRDB then skips its write-ahead-log set-up (which writes a
    /// table into an empty log), and nothing can change the file through them.
    private static func openDatabase(path: String, busyTimeout: Duration, readOnly: Bool = false) throws(KeychainError)
        -> DatabasePool
    {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(
            TimeInterval(busyTimeout.components.seconds) + TimeInterval(busyTimeout.components.attoseconds) / 1e18)
        configuration.label = "SecureStorage.Keychain"
        configuration.prepareDatabase { db in
            guard let connection = db.sqliteConnection else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed")
            }
            try ConnectionSettings.harden(connection: connection)
        }
        return try perform(path: path) { () throws -> DatabasePool in
            let database = try DatabasePool(path: path, configuration: configuration)
            // GRDB switches the writer to synchronous=NORMAL with WAL; an acknowledged write must
            // survive power loss, so set FULL (one fsync per commit) and check that it holds.
            try database.writeWithoutTransaction { db in
                try ConnectionSettings.setFullSynchronous(in: db)
                let reported = try ConnectionSettings.reported(in: db)
                guard reported.synchronous == 2, reported.secureDelete == 1, reported.journalMode == "wal",
                    reported.trustedSchema == 0
                else {
                    throw KeychainError.sqliteRefusedDurabilitySettings(
                        synchronous: reported.synchronous ?? -1, secureDelete: reported.secureDelete ?? -1,
                        journalMode: reported.journalMode ?? "?", trustedSchema: reported.trustedSchema ?? -1)
                }
            }
            return database
        }
    }

    /// Creates the header and keybag of a new keychain: random index and class keys, wrapped
    /// under the device KEK (index, `always` classes) and the user KEK — of the passphrase when
    /// one is given (the passcode-set class then exists too), else of the device key alone —
    /// with the header MAC and the initial state record, all in the caller's transaction.
    /// The anchor is written before the transaction commits: killed in between, the file has no
    /// header and is created afresh (under a new vault id) at the next open, so a format-4-or-later file
    /// never exists without its anchor.
    private static func createKeybag(
        _ db: Database, vaultID: UUID, deviceKey: SymmetricKey,
        passphrase: (salt: Data, parameters: ScryptParameters, kek: SymmetricKey)?, location: KeychainLocation
    ) throws {
        var header = VaultHeader(
            formatVersion: KeychainSchema.formatVersion, vaultID: vaultID, keybagGeneration: 1, passphrase: nil)
        if let passphrase { header.passphrase = (passphrase.salt, passphrase.parameters) }
        try header.insert(db)
        let deviceKEK = KeyHierarchy.deviceKEK(deviceKey: deviceKey, vaultID: vaultID)
        let userKEK =
            passphrase?.kek ?? KeyHierarchy.userKEK(deviceKey: deviceKey, passphraseKey: nil, vaultID: vaultID)
        var keybag: [KeybagSlot: Data] = [:]
        var slots: [KeybagSlot] = [.index]
        slots += Accessibility.allCases.filter { $0 != .whenPasscodeSetThisDeviceOnly || passphrase != nil }.map(
            KeybagSlot.classKey)
        for slot in slots {
            keybag[slot] = try slot.wrap(
                SymmetricKey(size: .bits256), with: slot.tier == .device ? deviceKEK : userKEK, vaultID: vaultID)
        }
        try KeybagTable.write(in: db, keybag)
        let authenticator = HeaderAuthenticator(deviceKey: deviceKey, vaultID: vaultID)
        try authenticator.store(header, keybag: keybag, db)
        try StateDigest(deviceKey: deviceKey, vaultID: vaultID).initialize(db)
        try FormatAnchor(
            vaultID: vaultID, formatVersion: KeychainSchema.formatVersion,
            headerMACs: [authenticator.code(for: header, keybag: keybag)]
        )
        .write(for: location, deviceKey: deviceKey)
    }

    // MARK: - State

    /// The current lock state of this instance.
    public var lockState: LockState { keys.lockState }

    /// Whether a passphrase protects the keychain (a device "with a passcode").
    public var hasPassphrase: Bool { keys.header.hasPassphrase }

    deinit {
        // A read-only instance cannot checkpoint through its own connections (LogCheckpoint).
        if options.readOnly { LogCheckpoint.finishIfTheLogHoldsFrames(databasePath: databasePath) }
    }

    /// The scrypt parameters of the current passphrase, if one is set.
    public var passphraseParameters: ScryptParameters? { keys.header.passphrase?.parameters }

    /// The random identifier of this keychain, bound into every ciphertext.
    public var vaultID: UUID { keys.header.vaultID }

    // MARK: - Transactions

    /// Runs a write in one `BEGIN IMMEDIATE` transaction after reloading a changed keybag and,
    /// when the schema changed since it was last checked, checking it is still exactly ours (a
    /// trigger added to an open keychain must never run inside our writes).
    func write<T>(_ body: (Database) throws -> T) throws(KeychainError) -> T {
        try requireWritable()
        return try Self.perform(path: databasePath) {
            try database.writeWithoutTransaction { db in
                try restoreFullSynchronousIfNeeded(db)
                return try CachedTransaction.run(.immediate, in: db) {
                    try requireExactSchema(db)
                    try keys.refresh(db)
                    return try body(db)
                }
            }
        }
    }

    /// `.readOnly` when this instance was opened read-only (``KeychainOptions/readOnly``); checked
    /// before anything is derived, prompted or written.
    func requireWritable() throws(KeychainError) {
        guard options.readOnly else { return }
        throw KeychainError.openedReadOnly()
    }

    /// Runs a read on a consistent snapshot after reloading a changed keybag. A snapshot that
    /// predates a header change whose anchor has since settled is retried on a fresh one
    /// (``UnrecordedHeader``); only a header the anchor still rejects then is tampering.
    func read<T>(_ body: (Database) throws -> T) throws(KeychainError) -> T {
        try Self.perform(path: databasePath) {
            var attempts = 0
            while true {
                do {
                    return try database.unsafeRead { db in
                        try CachedTransaction.run(.deferred, in: db) {
                            try keys.refresh(db)
                            return try body(db)
                        }
                    }
                } catch is UnrecordedHeader where attempts < 3 {
                    attempts += 1
                }
            }
        }
    }

    func requireExactSchema(_ db: Database) throws {
        let version = try ConnectionSettings.schemaVersion(in: db)
        guard checkedSchemaVersion.withLock({ $0 }) != version else { return }
        guard
            try SchemaGuard.inspect(db, path: databasePath)
                == .keychain(appliedMigrations: KeychainSchema.migrations.count)
        else {
            throw KeychainError.tamperedTablesGone()
        }
        checkedSchemaVersion.withLock { $0 = version }
    }

    static func perform<T>(path: String, _ body: () throws -> T) throws(KeychainError) -> T {
        do { return try body() } catch { throw SQLiteErrorMapping.map(error, path: path) }
    }
}
