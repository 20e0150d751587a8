import ArgumentParser
import SecureStorageFoundation

/// `keychaind`: the per-user keychain agent.
@main
struct KeychainAgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychaind",
        abstract: "The per-user keychain agent: one unlock for every process, and the Secret Service."
    )

    func run() throws {
        throw ValidationError("keychaind is being assembled in this change; run `keychain` for now")
    }
}
