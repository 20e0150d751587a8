import Foundation
import SecureStorageFoundation

/// The agent's prompter and the unlock requests waiting for it.
///
/// A prompter is a client of the agent's user that keeps a `servePrompts` connection open
/// (`keychain unlock --serve-prompts` on a terminal); ``AgentPrompterSession`` serves that
/// connection. There is at most one at a time: a second is refused with a failure naming the
/// first's pid, rather than replacing it, so that the person at the first terminal is not
/// silently cut off, and the one starting the second learns where prompts go now. (A prompter
/// that exits or is killed is noticed within ``tick`` and its place is free again.)
///
/// Requests (``request(reason:timeout:completion:)``) are answered at once when the keychain is
/// unlocked (`true`) or no prompter serves (`false`: never a wait). Otherwise the prompter is sent
/// one prompt, and every request that comes while it is open joins it (they coalesce): all of
/// them complete `true` when the keychain is unlocked, by the prompter's passphrase or any other
/// unlock, and `false` when the prompter declines (or types three wrong passphrases) or goes
/// away. Each request also completes `false` when its own timeout passes or it is withdrawn
/// (``withdraw(_:)``); when the last one goes, the prompt is withdrawn from the prompter.
package final class AgentPrompts: Sendable {
    /// How often a prompter's connection is checked for frames, hang-ups, new prompts and unlocks.
    static let tick: Int32 = 50
    /// Wrong passphrases a prompt accepts before the agent declines it.
    package static let maximumAttempts = 3

    private struct State {
        var prompterPID: pid_t?
        var outbox: [AgentReply] = []
        var lastID: UInt64 = 0
        var promptID: UInt64?
        var attempts = 0
        var waiters: [UInt64: @Sendable (Bool) -> Void] = [:]

        mutating func nextID() -> UInt64 {
            lastID &+= 1
            return lastID
        }

        /// Closes the open prompt with `closing` and hands back its waiters, to complete outside the lock.
        mutating func closePrompt(_ closing: AgentPromptClosing) -> [@Sendable (Bool) -> Void] {
            guard let id = promptID else { return [] }
            outbox.append(.promptClosed(id: id, closing))
            promptID = nil
            defer { waiters = [:] }
            return Array(waiters.values)
        }
    }

    private let state = Locked(State())
    private let isUnlocked: @Sendable () -> Bool

    /// Prompts for the keychain whose lock state `isUnlocked` reports.
    init(isUnlocked: @escaping @Sendable () -> Bool) { self.isUnlocked = isUnlocked }

    /// Whether a prompter is connected.
    package var hasPrompter: Bool { state.withLock { $0.prompterPID != nil } }

    /// Asks for an unlock on behalf of `reason` (cut to ``AgentMessage/maximumReasonSize`` bytes).
    /// `completion` is called exactly once, with whether the keychain is unlocked: at once (before
    /// this returns `nil`) when it is, or when no prompter serves; otherwise later, and the
    /// returned id withdraws the request (``withdraw(_:)``). `timeout` is capped at
    /// ``AgentMessage/maximumWait``.
    package func request(reason: String, timeout: Duration, completion: @escaping @Sendable (Bool) -> Void)
        -> UInt64?
    {
        if isUnlocked() {
            completion(true)
            return nil
        }
        let bounded = AgentMessage.boundedReason(reason)
        let id: UInt64? = state.withLock { state in
            guard state.prompterPID != nil else { return nil }
            let id = state.nextID()
            state.waiters[id] = completion
            if state.promptID == nil {
                let promptID = state.nextID()
                state.promptID = promptID
                state.attempts = 0
                state.outbox.append(.prompt(id: promptID, reason: bounded))
            }
            return id
        }
        guard let id else {
            completion(false)
            return nil
        }
        let wait = min(max(timeout, .zero), AgentMessage.maximumWait)
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in withdraw(id) }
        return id
    }

    /// Withdraws request `id`, which completes `false` (nothing happens when it completed already).
    /// When it was the last one waiting, the prompter is told the prompt was withdrawn.
    package func withdraw(_ id: UInt64) {
        let completion: (@Sendable (Bool) -> Void)? = state.withLock { state in
            guard let completion = state.waiters.removeValue(forKey: id) else { return nil }
            if state.waiters.isEmpty { _ = state.closePrompt(.withdrawn) }
            return completion
        }
        completion?(false)
    }

    // MARK: The prompter's side (``AgentPrompterSession``)

    /// Makes the process `pid` the prompter.
    ///
    /// - Throws: ``KeychainError/agentPrompterAlreadyServing(pid:)`` when one serves already.
    func register(pid: pid_t) throws(KeychainError) {
        let current: pid_t? = state.withLock { state in
            if let current = state.prompterPID { return current }
            state.prompterPID = pid
            state.outbox = []
            return nil
        }
        if let current { throw KeychainError.agentPrompterAlreadyServing(pid: current) }
    }

    /// The prompter went away: every waiting request completes `false`.
    func unregister() {
        let waiting = state.withLock { state in
            defer {
                state.prompterPID = nil
                state.outbox = []
            }
            return state.closePrompt(.withdrawn)
        }
        for completion in waiting { completion(false) }
    }

    /// The frames to send the prompter now; when the keychain was unlocked another way while a
    /// prompt is open, that prompt is closed first (and its requests complete `true`).
    func takeOutbox() -> [AgentReply] {
        let unlocked = isUnlocked()
        let (frames, satisfied) = state.withLock { state in
            let satisfied = unlocked ? state.closePrompt(.unlockedElsewhere) : []
            defer { state.outbox = [] }
            return (state.outbox, satisfied)
        }
        for completion in satisfied { completion(true) }
        return frames
    }

    /// The prompter answered prompt `id` with a passphrase, which `unlock` tries. A stale `id` (a
    /// prompt closed meanwhile) is ignored. A wrong passphrase gets a failure frame and the prompt
    /// stays open, until the ``maximumAttempts``th, which closes it as declined.
    func answer(id: UInt64, unlock: () throws(KeychainError) -> Void) {
        guard state.withLock({ $0.promptID == id }) else { return }
        do {
            try unlock()
            let satisfied = state.withLock { $0.promptID == id ? $0.closePrompt(.unlocked) : [] }
            for completion in satisfied { completion(true) }
        } catch {
            let declined = state.withLock { state -> [@Sendable (Bool) -> Void] in
                guard state.promptID == id else { return [] }
                state.attempts += 1
                if state.attempts >= Self.maximumAttempts { return state.closePrompt(.tooManyAttempts) }
                state.outbox.append(.failure(code: error.code.rawValue, message: error.message))
                return []
            }
            for completion in declined { completion(false) }
        }
    }

    /// The prompter declined prompt `id` (a stale `id` is ignored): its requests complete `false`.
    func decline(id: UInt64) {
        let declined = state.withLock { $0.promptID == id ? $0.closePrompt(.declined) : [] }
        for completion in declined { completion(false) }
    }
}
