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

// MARK: - Serving unlock prompts

extension KeychainError {
    /// `.invalidParameter`: `unlock --serve-prompts` without a terminal on standard input.
    static func promptsNeedATerminal() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "`keychain unlock --serve-prompts` needs a terminal on standard input: its prompts need someone at a terminal to type the passphrase. Run it in a terminal you keep open (a tmux or screen window, say)."
        )
    }

    /// `.keychainUnavailable`: `unlock --serve-prompts` and no agent serves the keychain at `path`.
    static func promptsNeedAnAgent(path: String) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "No keychain agent serves \(path), so there is nothing to answer prompts for. Start keychaind (`keychaind`, or `systemctl --user start keychaind`), then run `keychain unlock --serve-prompts` again."
        )
    }

    /// `.keychainUnavailable`: the agent went away while prompts were served.
    static func promptsAgentGone() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain agent closed the connection (keychaind stopped): no more prompts. Start keychaind, then `keychain unlock --serve-prompts` again."
        )
    }
}
