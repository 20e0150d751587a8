import Foundation
import KeychainCore

/// keychaind's exit statuses (`keychaind --help`), aligned with the `keychain` tool's.
enum AgentExitStatus {
    /// Another keychaind of this user serves this keychain already: this one did not take over.
    static let alreadyRunning: Int32 = 45
    /// The passphrase (file or credential) is wrong.
    static let authFailed: Int32 = 50
    /// No keychain, or it cannot be used; the agent's name is held by another user.
    static let unavailable: Int32 = 53
    /// Usage error; a file `install` would replace is not its own.
    static let usage: Int32 = 64

    /// The help text that lists them.
    static let help = """
        Exit status: 0 stopped by SIGTERM or SIGINT (or install/uninstall done); 45 another \
        keychaind of this user already serves this keychain (this one does not take over); \
        50 the passphrase from --passphrase-file or the systemd credential is wrong; 53 no \
        keychain, or it cannot be used, or another user holds the agent's socket name; 64 usage \
        error, or install/uninstall found a file it did not write; 1 any other error.
        """

    /// The status for a keychain error.
    static func of(_ code: KeychainError.Code) -> Int32 {
        switch code {
        case .duplicateKeychain: alreadyRunning
        case .authFailed: authFailed
        case .invalidParameter, .invalidState: usage
        default: unavailable
        }
    }
}

/// Writes `keychaind: message` to standard error (messages never hold a secret).
func printError(_ message: String) {
    FileHandle.standardError.write(Data("keychaind: \(message)\n".utf8))
}
