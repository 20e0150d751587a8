import ArgumentParser

/// `keychain`: the command-line tool for the SecureStorage keychain, modelled on macOS `security`.
@main
struct KeychainTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain",
        abstract: "Manage items in the SecureStorage keychain (an encrypted, Apple-compatible keychain).",
        discussion: """
            Works on the default keychain: $SECURE_STORAGE_HOME if set, else \
            $XDG_DATA_HOME/secure-storage (data) and $XDG_STATE_HOME/secure-storage (device key).

            Examples:
              keychain add-generic-password -s api.example.com -a alice -w 's3cret'
              keychain find-generic-password -s api.example.com -a alice -w
              keychain find-generic-password -s api.example.com --json
              keychain set-passphrase            # prompts; makes the keychain lockable
              keychain show-keychain-info --json

            Exit status: 0 success, 44 item not found, 45 duplicate item, 50 wrong passphrase or \
            passcode required, 51 keychain locked (use --unlock), 52 integrity violation, \
            53 keychain unavailable, 64 usage error, 1 other error.
            """,
        subcommands: [
            AddGenericPassword.self, FindGenericPassword.self, DeleteGenericPassword.self,
            AddInternetPassword.self, FindInternetPassword.self, DeleteInternetPassword.self,
            DumpKeychain.self, ShowKeychainInfo.self,
            SetPassphrase.self, ChangePassphrase.self, RemovePassphrase.self,
        ]
    )
}
