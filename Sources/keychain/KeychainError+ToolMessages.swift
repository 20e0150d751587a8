// Every message of a KeychainError that the keychain tool raises itself, in one place. Factories
// take only paths.

import KeychainCore

extension KeychainError {
    // MARK: - General

    /// `.noSuchKeychain`: There is no keychain at `path`.
    static func noKeychain(path: String, keychainOption: String?) -> KeychainError {
        KeychainError(
            .noSuchKeychain,
            "There is no keychain at \(path). Create it with `keychain create\(keychainOption.map { " --keychain \($0)" } ?? "")` or by adding an item."
        )
    }

    /// `.noSuchKeychain`: There is no keychain at `path` for the passphrase in `passphraseFile`;
    /// nothing was created.
    static func noKeychainForPassphraseFile(path: String, passphraseFile: String, keychainOption: String?)
        -> KeychainError
    {
        KeychainError(
            .noSuchKeychain,
            "There is no keychain at \(path) for the passphrase in \(passphraseFile); nothing was created. Create it with that passphrase first: `keychain create --passphrase-file \(passphraseFile)\(keychainOption.map { " --keychain \($0)" } ?? "")`."
        )
    }

    /// `.invalidState`: The keychain at `path` has no passphrase, so the one in `passphraseFile`
    /// protects nothing here; nothing was changed.
    static func passphraseFileForUnprotectedKeychain(path: String, passphraseFile: String) -> KeychainError {
        KeychainError(
            .invalidState,
            "The keychain at \(path) has no passphrase, so the one in \(passphraseFile) protects nothing here; nothing was changed. Protect the keychain with it (`keychain set-passphrase --passphrase-file \(passphraseFile)`), or leave out --passphrase-file."
        )
    }

    /// `.itemNotFound`: The specified item could not be found in the keychain (no keychain yet at
    /// `path`).
    static func noKeychainForFind(path: String) -> KeychainError {
        KeychainError(
            .itemNotFound, "The specified item could not be found in the keychain (no keychain yet at \(path)).")
    }
}
