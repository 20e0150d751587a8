import Foundation
import SecureStorageFoundation

/// A client of a keychain's agent (`keychaind`), verified: ``locate(vaultID:databasePath:)``
/// returns one only after the kernel confirmed that the process listening on the keychain's
/// ``AgentRendezvous`` runs as this process's effective uid, and holds this keychain (not a copy).
///
/// Each request is a connection of its own, checked again with `SO_PEERCRED` before a byte is
/// sent (an agent that died and a squatter that took its name in between get nothing). Every
/// wait is bounded: ``replyTimeout`` for most requests, longer only while the agent runs the
/// passphrase KDF (``unlockTimeout``) or while the caller asked to wait for an unlock.
package struct KeychainAgentClient: Sendable {
    /// Where the agent listens.
    package let rendezvous: AgentRendezvous
    /// What the agent said when it was located.
    package let status: AgentStatus

    /// The longest wait for a connection and a reply: 2 s.
    package static let replyTimeout: Duration = .seconds(2)
    /// The longest wait for an `unlock` reply, which includes the agent's KDF run.
    package static let unlockTimeout: Duration = .seconds(120)

    /// The agent of keychain `vaultID` at `databasePath`, or `nil` when none runs (nothing
    /// listens on the rendezvous, or the agent there holds another copy of the keychain).
    ///
    /// - Throws: `.keychainUnavailable` when a process of another uid holds the name
    ///   (``KeychainError/agentImpersonated(_:rendezvous:)``: it was sent nothing), or the agent
    ///   does not answer within ``replyTimeout``.
    package static func locate(vaultID: UUID, databasePath: String) throws(KeychainError) -> KeychainAgentClient? {
        let rendezvous = AgentRendezvous(vaultID: vaultID)
        guard case .status(let status)? = try exchange(.status, with: rendezvous, timeout: replyTimeout) else {
            return nil
        }
        guard Self.samePath(status.databasePath, databasePath) else { return nil }
        return KeychainAgentClient(rendezvous: rendezvous, status: status)
    }

    /// The agent's current status.
    package func currentStatus() throws(KeychainError) -> AgentStatus {
        guard case .status(let status) = try request(.status, timeout: Self.replyTimeout) else {
            throw KeychainError.agentMalformedMessage(what: "status reply")
        }
        return status
    }

    /// Asks the agent to unlock with `passphrase` and keep an unlock session for `duration`
    /// (`nil`: until lock). The passphrase goes only to the verified agent.
    package func unlock(passphrase: String, duration: Duration?) throws(KeychainError) {
        let seconds = duration.map { UInt64(max(1, $0.components.seconds + ($0.components.attoseconds > 0 ? 1 : 0))) }
        try expectDone(request(.unlock(passphrase: passphrase, seconds: seconds), timeout: Self.unlockTimeout))
    }

    /// Asks the agent to lock: it ends the session, so every ticket stops working at once.
    package func lock() throws(KeychainError) {
        try expectDone(request(.lock, timeout: Self.replyTimeout))
    }

    /// The agent's session ticket (`nil` when it has no session).
    package func ticket() throws(KeychainError) -> Data? {
        guard case .ticket(let bytes) = try request(.ticket, timeout: Self.replyTimeout) else {
            throw KeychainError.agentMalformedMessage(what: "ticket reply")
        }
        return bytes
    }

    /// Waits until the agent's keychain is unlocked or `timeout` (at most
    /// ``AgentMessage/maximumWait``) passes; returns whether it is unlocked.
    package func waitForUnlock(timeout: Duration) throws(KeychainError) -> Bool {
        let wait = min(max(timeout, .zero), AgentMessage.maximumWait)
        let milliseconds = UInt32(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        guard
            case .unlocked(let unlocked) = try request(
                .waitForUnlock(milliseconds: milliseconds), timeout: wait + Self.replyTimeout)
        else { throw KeychainError.agentMalformedMessage(what: "waitForUnlock reply") }
        return unlocked
    }

    func request(_ request: AgentRequest, timeout: Duration) throws(KeychainError) -> AgentReply {
        guard let reply = try Self.exchange(request, with: rendezvous, timeout: timeout) else {
            throw KeychainError.agentGone(rendezvous)
        }
        return reply
    }

    private func expectDone(_ reply: AgentReply) throws(KeychainError) {
        guard case .done = reply else { throw KeychainError.agentMalformedMessage(what: "reply") }
    }

    /// Connects, verifies the peer, sends `request` and reads the reply; a failure reply is
    /// thrown as the agent's ``KeychainError``. `nil` when nothing listens.
    private static func exchange(_ request: AgentRequest, with rendezvous: AgentRendezvous, timeout: Duration)
        throws(KeychainError) -> AgentReply?
    {
        let connected = ContinuousClock.now + replyTimeout
        guard let connection = try connectVerified(to: rendezvous, deadline: connected) else { return nil }
        var payload = request.encoded()
        defer { payload.wipe() }
        try connection.send(payload.data, deadline: connected)
        let reply = try AgentReply.decode(
            connection.receive(maximumSize: AgentMessage.maximumFrameSize, deadline: ContinuousClock.now + timeout))
        if case .failure(let code, let message) = reply {
            throw KeychainError(KeychainError.Code(rawValue: code), message)
        }
        return reply
    }

    /// A connection to `rendezvous` whose peer the kernel says runs as this user; `nil` when
    /// nothing listens.
    static func connectVerified(to rendezvous: AgentRendezvous, deadline: ContinuousClock.Instant)
        throws(KeychainError) -> AgentConnection?
    {
        guard let connection = try AgentConnection.connect(to: rendezvous, deadline: deadline) else { return nil }
        guard let peer = connection.peer else {
            throw KeychainError.agentSocketFailed(step: "SO_PEERCRED", errno: errno)
        }
        guard peer.isSameUser else { throw KeychainError.agentImpersonated(peer, rendezvous: rendezvous) }
        return connection
    }

    /// Whether two paths name the same file (symbolic links resolved).
    private static func samePath(_ first: String, _ second: String) -> Bool {
        func canonical(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return canonical(first) == canonical(second)
    }
}
