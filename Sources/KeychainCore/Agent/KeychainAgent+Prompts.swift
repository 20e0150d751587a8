import Foundation
import SecureStorageFoundation

// Asking the user to unlock, through the agent's prompter (``AgentPrompts``): the in-process API
// of the Secret Service's `Unlock` prompts, and the socket's `requestUnlock`.

extension KeychainAgent {
    /// Whether a prompter (`keychain unlock --serve-prompts` on a terminal) is connected, so that
    /// ``requestUnlock(reason:timeout:)`` can ask someone.
    package var hasPrompter: Bool { prompts.hasPrompter }

    /// Asks the prompter to have the keychain unlocked, on behalf of `reason` (who asks, e.g.
    /// `python3 (pid 4242)`; cut to ``AgentMessage/maximumReasonSize`` bytes; the prompter escapes
    /// it before printing it). Returns `true` at once when the keychain is unlocked and `false` at
    /// once when no prompter serves. Otherwise it returns `true` when the keychain gets unlocked
    /// (by the prompter's passphrase or any other unlock), and `false` when the prompter declines
    /// (or types three wrong passphrases) or disconnects, when `timeout` (at most
    /// ``AgentMessage/maximumWait``) passes, or when the calling task is cancelled: cancelling
    /// withdraws the request (the prompter is told when no other request waits).
    package func requestUnlock(reason: String, timeout: Duration) async -> Bool {
        let registered = Locked<UInt64?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let id = prompts.request(reason: reason, timeout: timeout) { continuation.resume(returning: $0) }
                guard let id else { return }
                registered.withLock { $0 = id }
                if Task.isCancelled { prompts.withdraw(id) }
            }
        } onCancel: {
            if let id = registered.withLock({ $0 }) { prompts.withdraw(id) }
        }
    }

    /// The socket's `requestUnlock` from a same-user client: like ``requestUnlock(reason:timeout:)``,
    /// and withdrawn when the client closes `connection` (or sends anything more) before the answer.
    func requestUnlock(reason: String, timeout: Duration, watching connection: AgentConnection) -> Bool {
        let answer = Locked<Bool?>(nil)
        guard
            let id = prompts.request(
                reason: reason, timeout: timeout, completion: { result in answer.withLock { $0 = result } })
        else { return answer.withLock { $0 } ?? false }
        while true {
            if let result = answer.withLock({ $0 }) { return result }
            if connection.isReadable(within: AgentPrompts.tick) {
                prompts.withdraw(id)
                return answer.withLock { $0 } ?? false
            }
        }
    }
}
