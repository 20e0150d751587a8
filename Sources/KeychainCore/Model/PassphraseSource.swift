import Foundation
import SecureStorageFoundation

/// Where an unattended service finds its keychain passphrase, so that it can unlock without a
/// person at a terminal and without the passphrase on its command line or in its environment.
///
/// ```swift
/// let keychain = try Keychain()
/// try keychain.unlock(from: .systemdCredential())            // LoadCredential=secure-storage-passphrase:…
/// try keychain.unlock(from: .file(URL(fileURLWithPath: "/run/secrets/keychain-passphrase")))
/// ```
///
/// A file must be a regular file of the current user, readable by nobody else (mode 0600 or
/// 0400), at most 4 KiB; one trailing newline is ignored. A systemd credential
/// (`LoadCredential=`, `LoadCredentialEncrypted=`) lives in `$CREDENTIALS_DIRECTORY`, which only
/// the service can read; systemd may leave it owned by root and grant the service user read
/// access with an ACL, so there it must be the user's or root's, with no access for others.
public enum PassphraseSource: Sendable, Hashable, CustomStringConvertible {
    /// A file holding the passphrase.
    case file(URL)
    /// The systemd credential `name` in `$CREDENTIALS_DIRECTORY`.
    case systemdCredential(name: String = PassphraseSource.credentialName)

    /// The credential name the keychain tool and ``Keychain/unlockFromCredentialsIfPresent(environment:)``
    /// look for: `secure-storage-passphrase`.
    public static let credentialName = "secure-storage-passphrase"

    /// The largest passphrase file read.
    static let maximumSize = 4096

    /// Reads the passphrase.
    ///
    /// - Throws: `.keychainUnavailable` when the file is missing, not a regular file, not the
    ///   user's, readable by others or too large, or when `$CREDENTIALS_DIRECTORY` is not set
    ///   for a credential; `.invalidParameter` when it is empty. Messages name the file, never
    ///   its contents.
    public func read(environment: [String: String] = ProcessInfo.processInfo.environment) throws(KeychainError)
        -> String
    {
        let path = try self.path(environment: environment)
        var bytes: Data
        do {
            bytes = try PlatformIO.readFile(path, maximumSize: Self.maximumSize, access: access)
        } catch  where error.code == .ioError && !FileManager.default.fileExists(atPath: path) {
            throw missingFile(path)
        }
        defer { SecretWiping.wipe(&bytes) }
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else {
            throw KeychainError.passphraseFileEmpty(path: path)
        }
        guard let passphrase = String(data: bytes, encoding: .utf8) else {
            throw KeychainError.passphraseFileNotUTF8(path: path)
        }
        return passphrase
    }

    /// The error for a passphrase file that does not exist: where it was looked for and how to
    /// provide it.
    private func missingFile(_ path: String) -> KeychainError {
        switch self {
        case .file:
            KeychainError.passphraseFileMissing(path: path)
        case .systemdCredential(let name):
            KeychainError.systemdCredentialMissing(name: name, path: path)
        }
    }

    /// What the file's owner and mode must be.
    private var access: PlatformIO.SecretFileAccess {
        switch self {
        case .file: .ownerOnly
        case .systemdCredential: .systemdCredential
        }
    }

    /// The file's path.
    public func path(environment: [String: String] = ProcessInfo.processInfo.environment) throws(KeychainError)
        -> String
    {
        switch self {
        case .file(let url):
            return url.path
        case .systemdCredential(let name):
            guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
                throw KeychainError.credentialsDirectoryNotSet(name: name)
            }
            return URL(fileURLWithPath: directory).appendingPathComponent(name).path
        }
    }

    /// `file(/path)` or `systemdCredential(name)`.
    public var description: String {
        switch self {
        case .file(let url): "file(\(url.path))"
        case .systemdCredential(let name): "systemdCredential(\(name))"
        }
    }
}

extension Keychain {
    /// Unlocks with the passphrase read from `source`, for this process (see
    /// ``unlock(passphrase:)-9dovi``), or, with `keepingSessionFor`, for later processes of this user
    /// too (see ``unlock(passphrase:keepingSessionFor:)``).
    ///
    /// - Throws: what ``PassphraseSource/read(environment:)`` throws, then `.authFailed` for a
    ///   wrong passphrase and `.invalidState` when the keychain has none.
    public func unlock(
        from source: PassphraseSource, keepingSessionFor duration: Duration? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(KeychainError) {
        let passphrase = try source.read(environment: environment)
        do {
            if let duration {
                try unlock(passphrase: passphrase, keepingSessionFor: duration)
            } else {
                try unlock(passphrase: passphrase)
            }
        } catch  where error.code == .authFailed {
            let path = (try? source.path(environment: environment)) ?? "\(source)"
            throw KeychainError.wrongPassphraseInFile(path: path, databasePath: databasePath)
        }
    }

    /// Unlocks from the systemd credential ``PassphraseSource/credentialName`` when the process
    /// has one (`$CREDENTIALS_DIRECTORY/secure-storage-passphrase` exists) and the keychain is
    /// not unlocked yet.
    ///
    /// - Returns: whether a credential was found and used.
    /// - Throws: as ``unlock(from:keepingSessionFor:environment:)-7fq9k`` when the credential exists
    ///   but cannot be used.
    @discardableResult
    public func unlockFromCredentialsIfPresent(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(KeychainError) -> Bool
    {
        let source = PassphraseSource.systemdCredential()
        guard let path = try? source.path(environment: environment), PlatformIO.ownerAndMode(of: path) != nil else {
            return false
        }
        guard hasPassphrase else {
            // A passphrase was given for a keychain that has none: not the keychain it protects.
            throw KeychainError.credentialForUnprotectedKeychain(path: path, databasePath: databasePath)
        }
        guard lockState != .unlocked else { return false }
        try unlock(from: source, environment: environment)
        return true
    }
}
