import ArgumentParser

/// `keychaind`: the per-user keychain agent (`keychaind run`, the default), and its installation
/// as a systemd user service with D-Bus activation (`keychaind install` / `uninstall`).
@main
struct KeychainAgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychaind",
        abstract: "The per-user keychain agent: one unlock for every process, and the Secret Service.",
        discussion: AgentExitStatus.help,
        subcommands: [RunAgent.self, InstallAgent.self, UninstallAgent.self],
        defaultSubcommand: RunAgent.self
    )
}
