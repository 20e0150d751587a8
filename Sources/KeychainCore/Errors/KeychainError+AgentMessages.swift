import Foundation

// The messages of the keychain agent (`keychaind`) and its clients: what the rendezvous, the
// peer checks and the protocol refuse. They name uids, pids, the socket's name and sizes, never
// a passphrase or a ticket.

extension KeychainError {
    /// `.keychainUnavailable`: a socket call failed.
    package static func agentSocketFailed(step: String, errno code: Int32) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain agent's socket failed at \(step): \(String(cString: strerror(code))). The agent is not used.")
    }

    /// `.keychainUnavailable`: the agent accepted no connection in time.
    package static func agentNotAnswering(_ rendezvous: AgentRendezvous) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain agent at \(rendezvous) does not accept connections (stopped or overloaded). Restart keychaind, or stop it to work without it."
        )
    }

    /// `.keychainUnavailable`: the peer closed the connection before a whole frame.
    package static func agentConnectionLost() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The connection to the keychain agent closed before its answer was complete (the agent exited?).")
    }

    /// `.keychainUnavailable`: the peer did not answer within the deadline.
    package static func agentTimedOut() -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain agent did not answer in time. Check keychaind (`keychain status`), restart it, or stop it to work without it."
        )
    }

    /// `.invalidParameter`: a frame announced more bytes than the protocol allows.
    package static func agentFrameTooLarge(size: Int, maximum: Int) -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A keychain agent message of \(size) bytes was refused: at most \(maximum) bytes are accepted.")
    }

    /// `.unsupportedVersion`: a frame of another protocol version.
    package static func agentProtocolVersion(_ version: UInt8?) -> KeychainError {
        KeychainError(
            .unsupportedVersion,
            "A keychain agent message of protocol version \(version.map { "\($0)" } ?? "(none)") was refused: this version speaks version \(AgentMessage.version). Run keychaind and keychain of the same release."
        )
    }

    /// `.invalidParameter`: a frame that does not decode.
    package static func agentMalformedMessage(what: String) -> KeychainError {
        KeychainError(.invalidParameter, "A malformed keychain agent message was refused (\(what)).")
    }

    /// `.keychainUnavailable`: a process of another uid holds the agent's name; it was sent nothing.
    package static func agentImpersonated(_ peer: AgentPeer, rendezvous: AgentRendezvous) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The process listening on the keychain agent's name \(rendezvous) runs as \(peer), not as uid \(geteuid()): it is not your agent, so nothing was sent to it (no passphrase, no request). Working without an agent. Find it with `ss -xlp | grep secure-storage/agent` and have it stopped."
        )
    }

    /// `.keychainUnavailable`: the agent located earlier no longer listens.
    package static func agentGone(_ rendezvous: AgentRendezvous) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain agent at \(rendezvous) is gone (it exited or was killed). Start keychaind again, or work without it."
        )
    }

    /// `.invalidState`: a ticket was to be written to another process's agent.
    static func agentKeepsItsOwnTickets() -> KeychainError {
        KeychainError(
            .invalidState, "The keychain agent keeps the unlock session's ticket itself: unlock through the agent.")
    }

    /// `.keychainUnavailable`: the agent unlocked, but its session could not be resumed here.
    static func agentSessionNotResumed(pid: Int32) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain agent (pid \(pid)) unlocked the keychain, but its session could not be resumed in this process (it was locked again, or the device key file differs). Run the command again."
        )
    }

    /// `.duplicateKeychain`: another agent of this user serves this keychain already.
    package static func agentAlreadyRunning(_ peer: AgentPeer, rendezvous: AgentRendezvous) -> KeychainError {
        KeychainError(
            .duplicateKeychain,
            "keychaind is already running for this keychain (pid \(peer.pid)) at \(rendezvous); this one does not take over. Stop that one first (`kill \(peer.pid)`) to replace it."
        )
    }

    /// `.keychainUnavailable`: a process of another uid holds the agent's name.
    package static func agentNameSquatted(_ peer: AgentPeer, rendezvous: AgentRendezvous) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain agent's name \(rendezvous) is held by a process of another user (\(peer)), so keychaind does not start: clients could not tell it from that process. Have that process stopped (as root: `kill \(peer.pid)`), then start keychaind again."
        )
    }

    /// `.keychainUnavailable`: the name is bound by a socket that does not listen.
    package static func agentNameInUse(_ rendezvous: AgentRendezvous) -> KeychainError {
        KeychainError(
            .keychainUnavailable,
            "The keychain agent's name \(rendezvous) is bound by a socket that accepts no connections (another process holds it: `ss -xap | grep secure-storage/agent`), so keychaind does not start."
        )
    }
}

// MARK: - Prompts

extension KeychainError {
    /// `.duplicateKeychain`: a prompter serves already; the agent keeps one at a time.
    package static func agentPrompterAlreadyServing(pid: pid_t) -> KeychainError {
        KeychainError(
            .duplicateKeychain,
            "Another prompter (pid \(pid)) already answers this keychain's unlock requests; the agent keeps one at a time. Use that terminal, or stop it (Ctrl-C there, or `kill \(pid)`) and start this one again."
        )
    }

    /// `.invalidParameter`: a prompt answer came on a connection that is not the prompter's.
    package static func agentPromptAnswerOutsidePrompter() -> KeychainError {
        KeychainError(
            .invalidParameter,
            "A prompt answer was refused: only the prompter's own connection (`keychain unlock --serve-prompts`) answers prompts."
        )
    }
}
