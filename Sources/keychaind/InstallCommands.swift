import ArgumentParser
import Foundation
import KeychainCore

/// `keychaind install`: the systemd user unit and the D-Bus activation file (``ServiceFiles``).
struct InstallAgent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install keychaind as a systemd user service, started by D-Bus for the Secret Service.",
        discussion: """
            Writes ~/.config/systemd/user/keychaind.service and \
            ~/.local/share/dbus-1/services/org.freedesktop.secrets.service (0644; XDG_CONFIG_HOME and \
            XDG_DATA_HOME are honoured), each naming this keychaind by its absolute path. A file \
            there that keychaind did not write is left alone (status 64). Then: \
            systemctl --user daemon-reload && systemctl --user enable --now keychaind.
            """)

    @Option(name: .customLong("keychain"), help: ArgumentHelp("The keychain's directory.", valueName: "path"))
    var path: String?

    @Option(
        name: .customLong("passphrase-file"),
        help: ArgumentHelp("Have the service unlock at start from this file (its path is written).", valueName: "file"))
    var passphraseFile: String?

    func run() throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var arguments: [String] = []
        if let path { arguments += ["--keychain", URL(fileURLWithPath: path).path] }
        if let passphraseFile { arguments += ["--passphrase-file", URL(fileURLWithPath: passphraseFile).path] }
        let home = ProcessInfo.processInfo.environment["SECURE_STORAGE_HOME"]
        let files = ServiceFiles()
        do {
            try ServiceFiles.write(
                ServiceFiles.unit(executable: executable, arguments: arguments, keychainHome: home), to: files.unitURL)
            try ServiceFiles.write(
                ServiceFiles.activation(executable: executable, arguments: arguments, keychainHome: home),
                to: files.activationURL)
        } catch {
            printError(error.message)
            throw ExitCode(AgentExitStatus.of(error.code))
        }
        print("installed \(files.unitURL.path)")
        print("installed \(files.activationURL.path)")
        print("next: systemctl --user daemon-reload && systemctl --user enable --now keychaind")
    }
}

/// `keychaind uninstall`: removes what `install` wrote (and nothing else).
struct UninstallAgent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove the files `keychaind install` wrote (files it did not write are left alone).")

    func run() throws {
        let files = ServiceFiles()
        do {
            for url in [files.unitURL, files.activationURL] {
                print(try ServiceFiles.remove(url) ? "removed \(url.path)" : "not installed: \(url.path)")
            }
        } catch {
            printError(error.message)
            throw ExitCode(AgentExitStatus.of(error.code))
        }
    }
}
