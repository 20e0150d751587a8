import Foundation
import SecureStorageFoundation

/// The agent's side of a keychain, in the agent process (`keychaind`): it holds the keychain
/// open, unlocks and locks it, keeps the unlock session's ticket in memory
/// (``AgentTicketHolder``) and hands that ticket to verified clients (``KeychainAgentServer``).
///
/// This is also the in-process API for what `keychaind` hosts next to the socket (the Secret
/// Service): ``isUnlocked``, ``unlock(passphrase:for:)``, ``lock()`` and
/// ``waitForUnlock(timeout:)`` answer exactly as the socket's requests do, without a socket;
/// ``hasPrompter`` and ``requestUnlock(reason:timeout:)`` ask the user, through the prompter
/// (``AgentPrompts``: `keychain unlock --serve-prompts` on a terminal), to unlock it.
///
/// An unlock here is an unlock session (``Keychain/unlock(passphrase:keepingSessionFor:)``):
/// the header gets the session record, the agent's memory the ticket, so every process of the
/// user that opens the keychain resumes it through the agent; when the session's duration
/// passes, the agent locks. ``lock()`` ends the session for every process at once.
package final class KeychainAgent: Sendable {
    /// The keychain the agent holds.
    package let keychain: Keychain
    /// When the agent started.
    package let since: Date
    private let holder: AgentTicketHolder
    /// The prompter and the unlock requests waiting for it.
    let prompts: AgentPrompts
    /// Counts unlocks and locks, so an expiry timer only locks the session it was set for.
    private let generation = Locked<UInt64>(0)

    /// Becomes the agent of `keychain` in this process: from now on its unlock sessions keep
    /// their ticket in this process's memory. Open the keychain without resuming a session
    /// (``KeychainOptions/resumesUnlockSession`` `false`) before.
    package init(keychain: Keychain, since: Date = Date()) {
        self.keychain = keychain
        self.since = since
        holder = AgentTicketHolder.host(keychain.vaultID)
        prompts = AgentPrompts(isUnlocked: { keychain.lockState == .unlocked })
    }

    /// Whether the keychain is unlocked (always, when it has no passphrase).
    package var isUnlocked: Bool { keychain.lockState == .unlocked }

    /// The agent's status, as ``AgentRequest/status`` answers it.
    package var status: AgentStatus {
        AgentStatus(
            pid: getpid(), since: since, lockState: keychain.lockState, sessionExpiry: keychain.unlockSession?.expiry,
            databasePath: keychain.location.databaseURL.path)
    }

    /// The session's ticket for a verified client, `nil` when there is no session.
    package var ticket: Data? { holder.bytes }

    /// Unlocks with `passphrase` and keeps the session for `duration` (`nil`: until ``lock()``).
    ///
    /// - Throws: what ``Keychain/unlock(passphrase:keepingSessionFor:)`` throws: `.authFailed`
    ///   for a wrong passphrase, `.invalidState` for a keychain without one.
    package func unlock(passphrase: String, for duration: Duration?) throws(KeychainError) {
        try keychain.unlock(passphrase: passphrase, keepingSessionFor: duration)
        let current = generation.withLock { value in
            value &+= 1
            return value
        }
        if let duration { scheduleLock(after: duration, generation: current) }
    }

    /// Locks the keychain and ends the session: every process that resumes from the agent sees it locked.
    package func lock() throws(KeychainError) {
        generation.withLock { $0 &+= 1 }
        try keychain.lock()
    }

    /// Waits until the keychain is unlocked or `timeout` passes (at most
    /// ``AgentMessage/maximumWait``); returns whether it is unlocked.
    package func waitForUnlock(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + min(max(timeout, .zero), AgentMessage.maximumWait)
        while !isUnlocked {
            guard ContinuousClock.now < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// Ends the agent: the session it keeps is ended (its ticket lived only here, so no process
    /// could resume it anyway; the header's record goes too) and the keychain stops being hosted.
    /// Items and the keychain itself are untouched.
    package func shutDown() {
        if keychain.hasPassphrase, holder.bytes != nil, keychain.currentSession() != nil {
            try? keychain.lock()
        }
        AgentTicketHolder.stopHosting(keychain.vaultID)
    }

    /// Locks when the session set by unlock number `generation` expires, unless another unlock
    /// or lock came in between.
    private func scheduleLock(after duration: Duration, generation expected: UInt64) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            guard generation.withLock({ $0 == expected }) else { return }
            try? lock()
        }
    }

    /// Answers one client request (the server calls it after the peer check).
    func answer(_ request: AgentRequest) -> AgentReply {
        do throws(KeychainError) {
            switch request {
            case .status: return .status(status)
            case .unlock(let passphrase, let seconds):
                try unlock(passphrase: passphrase, for: seconds.map { .seconds(Int64(clamping: $0)) })
                return .done
            case .lock:
                try lock()
                return .done
            case .ticket: return .ticket(ticket)
            case .waitForUnlock(let milliseconds):
                return .unlocked(waitForUnlock(timeout: .milliseconds(Int64(milliseconds))))
            case .promptAnswer, .promptDecline: throw KeychainError.agentPromptAnswerOutsidePrompter()
            case .servePrompts, .requestUnlock:  // served by the server, which watches their connection
                throw KeychainError.agentMalformedMessage(what: "request without its connection")
            }
        } catch {
            return .failure(code: error.code.rawValue, message: error.message)
        }
    }
}
