import ArgumentParser
import Foundation
import KeychainCore

/// `--keychain PATH` and `--unlock`: which keychain a command works on, and whether to unlock it first.
struct KeychainSelection: ParsableArguments {
    @Option(
        name: .customLong("keychain"),
        help: ArgumentHelp(
            "Use the keychain in this directory (data/keychain.db and state/device.key, as SECURE_STORAGE_HOME lays them out) instead of the default keychain.",
            valueName: "path"))
    var path: String?

    @Flag(
        name: .customLong("unlock"),
        help:
            "Unlock with the passphrase first, for this command only: from --passphrase-file, else the systemd credential secure-storage-passphrase, else prompted (or one line of standard input, refused when the command reads another value there). `keychain unlock` unlocks for later commands too."
    )
    var unlock = false

    @Option(
        name: .customLong("passphrase-file"),
        help: ArgumentHelp(
            "Read the passphrase from this file (yours, mode 0600 or 0400, one trailing newline ignored) instead of prompting or reading standard input; implies --unlock. For create and set-passphrase: the passphrase to set.",
            valueName: "file"))
    var passphraseFile: String?

    /// The same choice as plain values, for code that does not parse arguments.
    var choice: KeychainChoice { KeychainChoice(path: path, unlock: unlock, passphraseFile: passphraseFile) }

    var location: KeychainLocation { choice.location }

    /// Whether the keychain exists already. Commands that create it read their input first
    /// when it does not, so that a refused or empty input leaves no keychain behind.
    var exists: Bool { Keychain.exists(at: location) }

    /// Whether the command works on the default keychain and none was created yet (a fresh
    /// machine): reading commands then answer as an empty keychain does, as macOS `security` does.
    var isFreshDefault: Bool { choice.isFreshDefault }

    /// How a command opens the keychain.
    typealias Opening = KeychainChoice.Opening

    /// Opens the keychain, unlocking it when asked and not already unlocked by a session;
    /// `unlocking: false` for commands that read the passphrase themselves.
    func open(_ opening: Opening = .existing, unlocking: Bool = true) throws -> Keychain {
        try choice.open(opening, unlocking: unlocking)
    }

    /// The passphrase for unlocking (``KeychainChoice/passphrase(for:)``).
    func passphrase(for keychain: Keychain) throws -> String { try choice.passphrase(for: keychain) }

    /// The passphrase's claim on standard input when it is read (``KeychainChoice/passphraseInput(reading:)``).
    func passphraseInput(reading: Bool? = nil) -> StandardInputUse? { choice.passphraseInput(reading: reading) }
}

/// Which keychain a command works on and whether to unlock it first (``KeychainSelection``'s
/// values), with the opening every command shares.
struct KeychainChoice {
    var path: String?
    var unlock = false
    var passphraseFile: String?

    /// Computed once: resolving the default location reads the whole environment.
    let location: KeychainLocation

    init(path: String?, unlock: Bool = false, passphraseFile: String? = nil) {
        self.path = path
        self.unlock = unlock
        self.passphraseFile = passphraseFile
        if let path {
            let directory = URL(fileURLWithPath: path, isDirectory: true)
            location = KeychainLocation(
                databaseURL: directory.appendingPathComponent("data/keychain.db"),
                deviceKeyURL: directory.appendingPathComponent("state/device.key"))
        } else {
            location = .default
        }
    }

    /// Whether the command works on the default keychain and none was created yet (a fresh
    /// machine): reading commands then answer as an empty keychain does, as macOS `security` does.
    var isFreshDefault: Bool { path == nil && !Keychain.exists(at: location) }

    /// Refuses `--keychain` naming a file: it takes the keychain's directory.
    private func checkPathIsADirectory() throws {
        guard let path else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return
        }
        let url = URL(fileURLWithPath: path)
        let suggestion =
            url.path.hasSuffix("/data/keychain.db") || url.path.hasSuffix("/state/device.key")
            ? url.deletingLastPathComponent().deletingLastPathComponent().path : url.deletingLastPathComponent().path
        throw usageFailure(
            "--keychain takes the keychain's directory (the one holding data/ and state/), not a file. Did you mean --keychain \(suggestion)?"
        )
    }

    /// How a command opens the keychain.
    enum Opening {
        /// Fail with "no such keychain" when it does not exist, and open it read-only
        /// (`KeychainOptions.readOnly`): commands that only read leave the keychain's files as they were.
        case reading
        /// Fail with "no such keychain" when it does not exist (commands that change it).
        case existing
        /// Create it when it does not exist (adding commands).
        case creatingIfMissing
    }

    /// Opens the keychain, unlocking it when asked and not already unlocked by a session;
    /// `unlocking: false` for commands that read the passphrase themselves. Standard input
    /// belongs to the passphrase whenever `--unlock` would read it there, unlocked already or
    /// not, unless the command declared its own use of standard input first.
    func open(_ opening: Opening = .existing, unlocking: Bool = true) throws -> Keychain {
        loggingConfigured
        try StandardInput.planUnlessPlanned([unlocking ? passphraseInput() : nil])
        try checkPathIsADirectory()
        return try reportingErrors {
            let exists = Keychain.exists(at: location)
            if opening != .creatingIfMissing && !exists {
                throw KeychainError.noKeychain(path: location.databaseURL.path, keychainOption: path)
            }
            // A passphrase file names a passphrase the keychain must have: a keychain without one
            // (not created yet, or created without it) is never used or made in its place.
            if unlocking, let passphraseFile, !exists {
                throw KeychainError.noKeychainForPassphraseFile(
                    path: location.databaseURL.path, passphraseFile: passphraseFile, keychainOption: path)
            }
            var options = KeychainOptions()
            options.readOnly = opening == .reading
            let keychain = try Keychain(location: location, options: options)
            // With an enrolled PIN the authenticator is installed even when its file is gone, so
            // that a deleted PIN file is reported as the tampering it is (status 52).
            if FileManager.default.fileExists(atPath: PINAuthenticator.fileURL(for: location).path)
                || !keychain.enrolledMethods.isEmpty
            {
                keychain.authenticator = try PINAuthenticator.terminal(for: location)
            }
            if unlocking, let passphraseFile, !keychain.hasPassphrase {
                throw KeychainError.passphraseFileForUnprotectedKeychain(
                    path: location.databaseURL.path, passphraseFile: passphraseFile)
            }
            if unlocking && (unlock || passphraseFile != nil) && keychain.hasPassphrase
                && keychain.lockState != .unlocked
            {
                try keychain.unlock(passphrase: passphrase(for: keychain))
            }
            return keychain
        }
    }
}

extension KeychainChoice {
    /// The passphrase for unlocking: from `--passphrase-file`, else from the systemd credential
    /// `secure-storage-passphrase` when the process has one, else prompted (or one line of a
    /// piped standard input, when the command reads nothing else there).
    func passphrase(for keychain: Keychain) throws -> String {
        if let named = try namedPassphrase() { return named }
        return try SecretInput.read(
            prompt: "Passphrase for \(keychain.location.databaseURL.path): ", as: .keychainPassphrase)
    }

    /// The passphrase from `--passphrase-file` or the systemd credential, or `nil` when neither is given.
    /// (``PassphraseSource/unattended(file:environment:)``, which keychaind shares.)
    func namedPassphrase() throws -> String? {
        guard let source = PassphraseSource.unattended(file: passphraseFile) else { return nil }
        return try reportingErrors { try source.read() }
    }

    /// Whether the process has the systemd credential `secure-storage-passphrase`.
    var hasCredential: Bool { PassphraseSource.hasSystemdCredential() }

    /// ``StandardInputUse/keychainPassphrase`` when the passphrase would come from standard
    /// input: it is read (`reading`, by default when `--unlock` is given) and neither
    /// `--passphrase-file` nor the credential gives it. Decided from the command line and the
    /// environment only, never from whether the keychain is unlocked or has a passphrase.
    func passphraseInput(reading: Bool? = nil) -> StandardInputUse? {
        guard reading ?? unlock, passphraseFile == nil, !hasCredential else { return nil }
        return .keychainPassphrase
    }
}

/// `--json` for scripts.
struct OutputOptions: ParsableArguments {
    @Flag(name: .customLong("json"), help: "Print JSON (one document on standard output) instead of text.")
    var json = false
}
