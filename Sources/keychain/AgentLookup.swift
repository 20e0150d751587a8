import Foundation
import KeychainCore

/// Whether a keychain agent (`keychaind`) serves the keychain a command works on, for `unlock`,
/// `lock` and `status` to say so. The engine itself already prefers a verified agent
/// (unlocking through it, resuming its session, locking through it) and ignores one it refuses.
enum AgentLookup {
    /// No agent runs for this keychain.
    case none
    /// A verified agent of this user serves it.
    case agent(KeychainAgentClient)
    /// Something holds the agent's name but is not used (another uid, not answering): why.
    case refused(KeychainError)

    /// The agent of `keychain`, if any.
    static func of(_ keychain: Keychain) -> AgentLookup {
        do {
            guard
                let agent = try KeychainAgentClient.locate(
                    vaultID: keychain.vaultID, databasePath: keychain.location.databaseURL.path)
            else { return .none }
            return .agent(agent)
        } catch {
            return .refused(error)
        }
    }

    /// Prints why an agent is not used, when one was refused (the command goes on without it).
    func reportRefusal() {
        if case .refused(let error) = self { printError("keychain: warning: \(error.message)") }
    }

    /// `keychaind (pid N)` for messages, when an agent serves the keychain.
    var agentName: String? {
        guard case .agent(let agent) = self else { return nil }
        return "keychaind (pid \(agent.status.pid))"
    }
}
