import ArgumentParser
import Foundation
import KeychainCore
import SecureStorage
import SecureStorageFoundation

/// `keychain`: the command-line tool for the SecureStorage keychain, modelled on macOS `security`.
@main
struct KeychainTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain",
        abstract: "Manage the SecureStorage keychain (an encrypted, Apple-compatible keychain) from a terminal.",
        discussion: """
            Works on the default keychain ($SECURE_STORAGE_HOME if set, else \
            $XDG_DATA_HOME/secure-storage with the device key in $XDG_STATE_HOME/secure-storage), \
            or on the one given with --keychain PATH. Secrets are never needed on the command line: \
            leave -w last (or out) to be prompted without echo, or pipe them in.

            Examples:
              keychain add-generic-password -s api.example.com -a alice -w
              keychain find-generic-password -s api.example.com -a alice -w
              keychain list --json
              keychain set-passphrase && keychain unlock --timeout 600
              keychain export ~/keychain.backup && keychain import ~/keychain.backup --keychain ~/other
              keychain verify --unlock
              keychain migrate --from .env            # dry run: what would move
              keychain lint Sources                    # Keychain misuse in Swift code
              keychain sync now                        # sync with your other devices

            \(ExitStatus.help)
            """,
        version:
            "keychain (SecureStorage) \(SecureStorageVersion.string), keychain format \(SecureStorageVersion.keychainFormat)",
        subcommands: [
            AddGenericPassword.self, FindGenericPassword.self, DeleteGenericPassword.self,
            AddInternetPassword.self, FindInternetPassword.self, DeleteInternetPassword.self,
            List.self, DumpKeychain.self,
            Create.self, Status.self, Lock.self, Unlock.self, Verify.self, Bind.self, Unbind.self,
            SetPassphrase.self, ChangePassphrase.self, RemovePassphrase.self, SetPIN.self,
            Export.self, Import.self, Migrate.self, Lint.self, Sync.self
        ]
    )

    /// Runs the tool; `-w` as the last argument of an add command means "prompt for it", as in
    /// macOS `security`, so it is dropped before parsing.
    static func main() {
        // Every line reaches a pipe, a file or the journal when printed, not when the tool exits.
        LineBufferedOutput.enable()
        // `keychain lint …` is keychain-lint's, options and --help included: handed over unparsed.
        if CommandLine.arguments.dropFirst().first == "lint" {
            LintLauncher.execute(Array(CommandLine.arguments.dropFirst(2)))
        }
        // Before anything is parsed or read: every command may hold a secret or a class key.
        SecureStorage.hardenProcess()
        // The libraries log only to the logger the tool gives them: every command, the facade's too.
        loggingConfigured
        let arguments = Self.promptingForTrailingSecret(Array(CommandLine.arguments.dropFirst()))
        if getenv("KEYCHAIN_NO_DIRECT_PARSE") == nil, let request = DirectFindParser.parse(arguments) {
            do {
                try request.run()
                Self.exit()
            } catch {
                Self.exit(withError: error)
            }
        }
        if let message = CommandSuggestion.unknownCommandMessage(in: arguments) {
            printError(message)
            Self.exit(withError: ExitCode(ExitStatus.usage))
        }
        // Help sent to a pipe or a file is not wrapped at 80 columns, so its example commands
        // stay whole lines that can be copied (a terminal still gets its own width).
        if isatty(STDOUT_FILENO) == 0, getenv("COLUMNS") == nil { setenv("COLUMNS", "4096", 1) }
        runParsingSafely(arguments)
    }

    /// ArgumentParser's `main`, with its messages made safe for a terminal: an error quotes the
    /// argument it refused (`Unknown option '--x…'`), which may hold escape sequences.
    static func runParsingSafely(_ arguments: [String]) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Self.exit()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }  // --help, --version: the tool's own text
            } else if !message.isEmpty {
                printError(message)
            }
            Self.exit(withError: ExitCode(code.rawValue))
        }
    }

    static func promptingForTrailingSecret(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, command.hasPrefix("add-"), arguments.last == "-w", arguments.count > 1
        else { return arguments }
        return Array(arguments.dropLast())
    }
}
