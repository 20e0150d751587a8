import Foundation
import SecureStorageFoundation

extension KeychainAgentClient {
    /// Asks the agent to have its keychain unlocked through its prompter, on behalf of `reason`
    /// (who asks; cut to ``AgentMessage/maximumReasonSize`` bytes; empty: the agent names this
    /// process by pid). A legitimate operation of any program of the agent's user (the keychain
    /// tool itself does not send it): it returns `true` once the keychain is unlocked, `false`
    /// at once without a prompter, or when the prompter declines or `timeout` (at most
    /// ``AgentMessage/maximumWait``) passes. Nothing secret crosses: the passphrase goes from the
    /// prompter to the agent only.
    package func requestUnlock(reason: String, timeout: Duration) throws(KeychainError) -> Bool {
        let wait = min(max(timeout, .zero), AgentMessage.maximumWait)
        let milliseconds = UInt32(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        guard
            case .unlocked(let unlocked) = try request(
                .requestUnlock(reason: reason, milliseconds: milliseconds), timeout: wait + Self.unlockTimeout)
        else { throw KeychainError.agentMalformedMessage(what: "requestUnlock reply") }
        return unlocked
    }

    /// Becomes the agent's prompter (``AgentPrompts``) for as long as the returned link is kept.
    ///
    /// - Throws: `.duplicateKeychain` when another prompter serves
    ///   (``KeychainError/agentPrompterAlreadyServing(pid:)``), `.keychainUnavailable` when the
    ///   agent is gone or its name is held by another uid.
    package func servePrompts() throws(KeychainError) -> AgentPrompterLink {
        let deadline = ContinuousClock.now + Self.replyTimeout
        guard let connection = try Self.connectVerified(to: rendezvous, deadline: deadline) else {
            throw KeychainError.agentGone(rendezvous)
        }
        let link = AgentPrompterLink(connection: connection)
        var payload = AgentRequest.servePrompts.encoded()
        defer { payload.wipe() }
        try connection.send(payload.data, deadline: deadline)
        switch try link.next(timeout: Self.replyTimeout) {
        case .registered: return link
        case .failed(let error): throw error
        default: throw KeychainError.agentMalformedMessage(what: "servePrompts reply")
        }
    }
}
