import KeychainCore
import Logging

/// What keychaind starts next to its socket when a session bus is present: the freedesktop
/// Secret Service provider (the `SecretService` module), over the same ``KeychainAgent``, so
/// that D-Bus clients and socket clients share one lock state. The provider asks the agent
/// through its in-process API: ``KeychainAgent/isUnlocked``,
/// ``KeychainAgent/unlock(passphrase:for:)``, ``KeychainAgent/lock()`` and
/// ``KeychainAgent/waitForUnlock(timeout:)``; items through ``KeychainAgent/keychain``.
protocol SecretServiceStartup: Sendable {
    /// Starts serving on the session bus at `sessionBusAddress` (`DBUS_SESSION_BUS_ADDRESS`);
    /// returns what ``RunningSecretService/stop()`` stops at shutdown.
    func start(agent: KeychainAgent, sessionBusAddress: String) throws -> any RunningSecretService
}

/// A started Secret Service provider.
protocol RunningSecretService: Sendable {
    /// Leaves the bus (releases `org.freedesktop.secrets`).
    func stop()
}

/// The Secret Service provider keychaind starts when a session bus is present.
func secretServiceStartup(logger: Logger) -> any SecretServiceStartup { SecretServiceOnSessionBus(logger: logger) }
