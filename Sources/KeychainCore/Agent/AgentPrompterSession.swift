import Foundation
import Logging
import SecureStorageFoundation

/// The agent's end of a prompter's `servePrompts` connection (``AgentPrompts``), served on the
/// connection's thread for as long as it stays open.
///
/// Every ``AgentPrompts/tick`` milliseconds it sends what is due (new prompts, closings, the
/// failure of a wrong passphrase) and reads what the prompter sent: `promptAnswer` (tried as an
/// unlock of the agent, like an `unlock` request) or `promptDecline`. Any other request, a
/// malformed or oversized frame, a stalled send or the end of the connection ends the session:
/// the prompter is unregistered and the requests waiting for it complete `false`.
struct AgentPrompterSession {
    let agent: KeychainAgent
    let connection: AgentConnection

    private var logger: Logger { LibraryLogging.logger(component: "keychaind") }

    /// Registers the peer `pid` as the prompter (or replies why not) and serves it until it goes.
    func run(pid: pid_t) {
        let prompts = agent.prompts
        do { try prompts.register(pid: pid) } catch {
            send(.failure(code: error.code.rawValue, message: error.message))
            return
        }
        logger.info("a prompter serves", metadata: ["pid": "\(pid)"])
        defer {
            prompts.unregister()
            logger.info("the prompter left", metadata: ["pid": "\(pid)"])
        }
        guard send(.done) else { return }
        while true {
            for frame in prompts.takeOutbox() {
                guard send(frame) else { return }
            }
            guard connection.isReadable(within: AgentPrompts.tick) else { continue }
            do throws(KeychainError) {
                let payload = try connection.receive(
                    maximumSize: AgentMessage.maximumFrameSize,
                    deadline: ContinuousClock.now + KeychainAgentClient.replyTimeout)
                switch try AgentRequest.decode(payload) {
                case .promptAnswer(let id, let passphrase, let seconds):
                    prompts.answer(id: id) { () throws(KeychainError) in
                        try agent.unlock(passphrase: passphrase, for: seconds.map { .seconds(Int64(clamping: $0)) })
                    }
                case .promptDecline(let id): prompts.decline(id: id)
                default: throw KeychainError.agentMalformedMessage(what: "request on a prompter's connection")
                }
            } catch {
                if error.code != .keychainUnavailable {
                    logger.notice("refused a prompter's frame", metadata: ["reason": "\(error.message)"])
                    send(.failure(code: error.code.rawValue, message: error.message))
                }
                return
            }
        }
    }

    @discardableResult
    private func send(_ reply: AgentReply) -> Bool {
        var encoded = reply.encoded()
        defer { encoded.wipe() }
        do {
            try connection.send(encoded.data, deadline: ContinuousClock.now + KeychainAgentClient.replyTimeout)
            return true
        } catch { return false }
    }
}
