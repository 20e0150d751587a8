/// Why the agent closed a prompt it had sent its prompter (the `promptClosed` frame, ``AgentMessage``).
package enum AgentPromptClosing: UInt8, Sendable, Equatable {
    /// The prompter's passphrase unlocked the keychain.
    case unlocked = 1
    /// The keychain was unlocked another way (`keychain unlock` elsewhere, say) while the prompt was open.
    case unlockedElsewhere = 2
    /// Every program that asked withdrew its request, gave up waiting, or went away.
    case withdrawn = 3
    /// The prompter declined.
    case declined = 4
    /// Three wrong passphrases: the agent declined for the prompter.
    case tooManyAttempts = 5
}
