import Foundation

extension PassphraseSource {
    /// Where an unattended unlock takes its passphrase, as the `keychain` tool and `keychaind`
    /// both decide it: the passphrase file `file` when one is named (`--passphrase-file`), else
    /// the systemd credential ``credentialName`` when the process has one, else `nil` (a person
    /// must type it, or the keychain stays locked).
    package static func unattended(
        file: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PassphraseSource? {
        if let file { return .file(URL(fileURLWithPath: file)) }
        return hasSystemdCredential(environment: environment) ? .systemdCredential() : nil
    }

    /// Whether the process has the systemd credential ``credentialName``
    /// (`$CREDENTIALS_DIRECTORY/secure-storage-passphrase` exists).
    package static func hasSystemdCredential(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        guard let path = try? PassphraseSource.systemdCredential().path(environment: environment) else { return false }
        return FileManager.default.fileExists(atPath: path)
    }
}
