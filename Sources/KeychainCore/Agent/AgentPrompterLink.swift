import Foundation
import SecureStorageFoundation

/// A prompter's connection to its agent (``KeychainAgentClient/servePrompts()``): what the agent
/// sends (``Event``) and the prompter's answers. Closing it (releasing it, or the process
/// exiting) ends the prompter's service; the requests waiting for it complete `false`.
package final class AgentPrompterLink: Sendable {
    private let connection: AgentConnection

    /// What the agent sent.
    package enum Event: Sendable, Equatable {
        /// The agent accepted this prompter.
        case registered
        /// Prompt `id`: `reason` asks to unlock (text from a client: escape it before printing).
        case prompt(id: UInt64, reason: String)
        /// Prompt `id` is over.
        case closed(id: UInt64, AgentPromptClosing)
        /// The agent refused something (a wrong passphrase: the prompt stays open).
        case failed(KeychainError)
    }

    init(connection: AgentConnection) { self.connection = connection }

    /// The socket, to wait on together with a terminal (`poll`): readable when a frame or the end comes.
    package var descriptor: Int32 { connection.descriptor }

    /// The agent's next frame; `nil` when none came within `timeout`.
    ///
    /// - Throws: `.keychainUnavailable` when the agent closed the connection (it exited).
    package func next(timeout: Duration) throws(KeychainError) -> Event? {
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard connection.isReadable(within: milliseconds) else { return nil }
        let payload = try connection.receive(
            maximumSize: AgentMessage.maximumFrameSize,
            deadline: ContinuousClock.now + KeychainAgentClient.replyTimeout)
        switch try AgentReply.decode(payload) {
        case .done: return .registered
        case .prompt(let id, let reason): return .prompt(id: id, reason: reason)
        case .promptClosed(let id, let closing): return .closed(id: id, closing)
        case .failure(let code, let message): return .failed(KeychainError(KeychainError.Code(rawValue: code), message))
        default: throw KeychainError.agentMalformedMessage(what: "frame to a prompter")
        }
    }

    /// Answers prompt `id` with `passphrase`, for an unlock session of `duration` (`nil`: until lock).
    package func answer(id: UInt64, passphrase: String, duration: Duration?) throws(KeychainError) {
        let seconds = duration.map { UInt64(max(1, $0.components.seconds)) }
        try send(.promptAnswer(id: id, passphrase: passphrase, seconds: seconds))
    }

    /// Declines prompt `id`.
    package func decline(id: UInt64) throws(KeychainError) { try send(.promptDecline(id: id)) }

    private func send(_ request: AgentRequest) throws(KeychainError) {
        var payload = request.encoded()
        defer { payload.wipe() }
        try connection.send(payload.data, deadline: ContinuousClock.now + KeychainAgentClient.replyTimeout)
    }
}
