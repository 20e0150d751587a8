/// What the Secret Service provider needs from the agent that holds the keychain's lock state
/// (keychaind implements it; tests use ``InMemorySecretServiceUnlocker``).
///
/// The provider never waits on a locked keychain for longer than the unlocker takes to say no:
/// ``requestUnlock(for:)`` must answer `false` at once when no prompter is available (no terminal
/// `keychain unlock` waiting, no graphical prompter), so a client gets the spec's dismissed prompt
/// within 2 s instead of a stall.
package protocol SecretServiceUnlocker: Sendable {
    /// Whether the keychain's items are unavailable (locked, or not unlocked since it was opened).
    var isLocked: Bool { get }

    /// Locks the keychain for every process the agent serves.
    func lock() async throws

    /// Asks a prompter to unlock the keychain for `caller`. Answers `true` once it is unlocked,
    /// `false` when the user declined or no prompter exists (then at once).
    func requestUnlock(for caller: SecretServiceCaller) async -> Bool

    /// A new stream of lock-state changes (`true` = locked) caused by anyone: this provider, the
    /// `keychain` tool, another process of the agent. The stream ends when the unlocker goes.
    func lockStateChanges() -> AsyncStream<Bool>
}
