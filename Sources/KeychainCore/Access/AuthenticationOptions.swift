/// How a keychain call may authenticate the user for items with an ``AccessPolicy``
/// (`kSecUseAuthenticationContext`, `kSecUseAuthenticationUI`, `kSecUseOperationPrompt`).
public struct AuthenticationOptions: Sendable, Hashable {
    /// Whether the call may prompt (`kSecUseAuthenticationUI`).
    public enum Interaction: Sendable, Hashable {
        /// Prompt when needed (`kSecUseAuthenticationUIAllow`, the default).
        case allow
        /// Fail with `errSecInteractionNotAllowed` instead of prompting (`kSecUseAuthenticationUIFail`).
        case fail
        /// Leave out the items that would need a prompt (`kSecUseAuthenticationUISkip`; finds only).
        case skip
    }

    /// An authentication to reuse and record into, like an `LAContext`.
    public var context: AuthenticationContext?
    /// Whether prompting is allowed.
    public var interaction: Interaction
    /// Why the app asks, shown by the authenticator.
    public var reason: String

    /// Creates options.
    public init(context: AuthenticationContext? = nil, interaction: Interaction = .allow, reason: String = "") {
        self.context = context
        self.interaction = interaction
        self.reason = reason
    }
}
