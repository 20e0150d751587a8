import KeychainCore
import SecretService

/// The Secret Service's view of the agent's lock state: D-Bus clients and socket clients share one
/// unlock, one lock and one prompter (`keychain unlock --serve-prompts`).
struct AgentSecretServiceUnlocker: SecretServiceUnlocker {
    /// How long an `Unlock` prompt waits for the person at the prompter's terminal.
    static let promptTimeout: Duration = .seconds(120)
    /// How often ``lockStateChanges()`` reads the lock state. Locks and unlocks made through the
    /// agent, by the tool, a socket client or the session's expiry, show within this time.
    static let pollInterval: Duration = .milliseconds(200)

    let agent: KeychainAgent

    var isLocked: Bool { !agent.isUnlocked }

    func lock() async throws { try agent.lock() }

    /// Asks the prompter, naming the caller; `false` at once when no terminal serves prompts.
    func requestUnlock(for caller: SecretServiceCaller) async -> Bool {
        await agent.requestUnlock(reason: caller.promptReason, timeout: Self.promptTimeout)
    }

    func lockStateChanges() -> AsyncStream<Bool> {
        let agent = self.agent
        return AsyncStream { continuation in
            let watcher = Task {
                var wasUnlocked = agent.isUnlocked
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.pollInterval)
                    let unlocked = agent.isUnlocked
                    if unlocked != wasUnlocked { continuation.yield(!unlocked) }
                    wasUnlocked = unlocked
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in watcher.cancel() }
        }
    }
}

extension SecretServiceCaller {
    /// Who asks, as the prompter shows it: `python3 (pid 4242, app-foo.scope)`, or the Flatpak app id.
    /// The prompter escapes it before printing; the executable's name is the caller's to choose.
    var promptReason: String {
        let program =
            flatpakAppID ?? executable.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "a program"
        let details = [pid.map { "pid \($0)" }, systemdUnit].compactMap { $0 }
        return details.isEmpty ? program : "\(program) (\(details.joined(separator: ", ")))"
    }
}
