/// Settings of an opened ``Keychain``.
public struct KeychainOptions: Sendable, Hashable {
    /// How passphrases are stretched when set or changed (default: scrypt calibrated to 0.5 s).
    public var passphraseHardening: PassphraseHardening
    /// How long a write waits for another process holding the database before failing with `.busy`.
    public var busyTimeout: Duration
    /// The access group of items added without `kSecAttrAccessGroup`.
    public var defaultAccessGroup: String
    /// Whether opening a keychain with a passphrase resumes a valid unlock session
    /// (``Keychain/unlock(passphrase:keepingSessionFor:)``), so it opens unlocked. Default `true`.
    public var resumesUnlockSession: Bool
    /// Whether a keychain on a network file system (NFS, SMB, …) may be opened. Default `false`:
    /// SQLite's write-ahead log is unsafe there when several machines or processes write. Set it
    /// only when a single process ever uses the keychain.
    public var allowsNetworkFileSystem: Bool
    /// The TPM 2.0 that seals new keychains' device secrets and holds their token keys, and
    /// that opens keychains bound to it; `nil` for none. Default: ``TPMDevice/discovered(environment:)``
    /// (`SECURE_STORAGE_TPM_TCTI`, else `/dev/tpmrm0` when this user may use it).
    public var tpm: TPMDevice?
    /// Whether a keychain created by this instance is bound to ``tpm``. Default:
    /// ``NewKeychainBinding/fromEnvironment(_:)`` (`.automatic` unless `SECURE_STORAGE_TPM_BINDING` says otherwise).
    public var newKeychainBinding: NewKeychainBinding
    /// Whether the keychain is opened for reading only. Default `false`.
    ///
    /// A read-only instance writes nothing of its own to the keychain's files, its anchor or its
    /// device key: SQLite opens the file read-only, so finding items leaves the files byte for
    /// byte and works on a read-only mount. Adding, updating, deleting, passphrase changes and locking throw
    /// `.readOnly` (errSecReadOnly); unlocking works (in memory, for this instance). A keychain
    /// that does not exist is `.noSuchKeychain`. One that must first be written to — a format
    /// upgrade, a creation or a header change a killed process left unsettled — is opened for
    /// writing once to do that, then used for reading. And when the instance goes while the
    /// write-ahead log holds pages a writer could not move into the file (a reader was in the
    /// way of the checkpoint after a passphrase change or a delete), it moves them if no reader is
    /// in the way now — without waiting — so that the file alone does not keep an old keybag or a
    /// deleted item because a reader closed last.
    ///
    /// ```swift
    /// var options = KeychainOptions()
    /// options.readOnly = true
    /// let keychain = try Keychain(options: options)
    /// let token = try keychain.findFirst(Query(.genericPassword, [.service: "api"]), returning: .data)
    /// ```
    public var readOnly = false

    /// Creates options; the default access group is the current application's (``ApplicationIdentity``).
    public init(
        passphraseHardening: PassphraseHardening = .calibrated(),
        busyTimeout: Duration = .seconds(5),
        defaultAccessGroup: String? = nil,
        resumesUnlockSession: Bool = true,
        allowsNetworkFileSystem: Bool = false,
        tpm: TPMDevice? = TPMDevice.discovered(),
        newKeychainBinding: NewKeychainBinding = .fromEnvironment()
    ) {
        self.tpm = tpm
        self.newKeychainBinding = newKeychainBinding
        self.resumesUnlockSession = resumesUnlockSession
        self.allowsNetworkFileSystem = allowsNetworkFileSystem
        self.passphraseHardening = passphraseHardening
        self.busyTimeout = busyTimeout
        self.defaultAccessGroup = defaultAccessGroup ?? ApplicationIdentity.current.defaultAccessGroup
    }
}
