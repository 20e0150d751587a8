import KeychainCore

// The messages keychaind itself raises (the agent's socket and protocol messages are
// KeychainCore's, in KeychainError+AgentMessages.swift). No secret is ever part of them.

extension KeychainError {
    /// `.noSuchKeychain`: keychaind was started for a keychain that does not exist.
    static func agentNoKeychain(path: String) -> KeychainError {
        KeychainError(
            .noSuchKeychain,
            "There is no keychain at \(path). Create it first (`keychain create --passphrase`), then start keychaind.")
    }

    /// `.invalidParameter`: a passphrase was given for a keychain that has none.
    static func agentPassphraseForUnprotectedKeychain(source: PassphraseSource, path: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A passphrase was given (\(source)), but the keychain at \(path) has none: it is always unlocked. Start keychaind without it."
        )
    }

    /// `.invalidParameter`: `install` would replace or `uninstall` would remove a file keychaind did not write.
    static func agentForeignFile(path: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "\(path) exists and was not written by `keychaind install`, so it is left as it is. Move it away first if keychaind should replace it."
        )
    }

    /// `.ioError`: a unit or activation file could not be written or removed.
    static func agentFileFailed(path: String, reason: String) -> KeychainError {
        KeychainError(.ioError, "\(path) could not be written or removed: \(reason).")
    }

    /// `keychaind install` was given a path with a control character.
    static func agentUnprintablePath(_ path: String) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "\(PrintableText.sanitized(path)) contains a control character (a newline, a tab, …), which a unit or activation file cannot hold safely. Use a path without one."
        )
    }
}
