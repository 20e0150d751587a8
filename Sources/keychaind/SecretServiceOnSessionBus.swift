import KeychainCore
import Logging
import SecretService
import SecureStorageDBus
import SecureStorageFoundation

/// keychaind's Secret Service: the `SecretService` provider over the agent's keychain and lock
/// state, on the session bus. It connects and takes `org.freedesktop.secrets` in the background;
/// a failure (no bus, the name held by gnome-keyring-daemon or another keychaind) is logged and the
/// agent's socket goes on serving.
struct SecretServiceOnSessionBus: SecretServiceStartup {
    /// The largest message the provider reads: attribute maps and secrets are bounded far below it.
    static let maximumIncomingMessageLength = 4 << 20

    let logger: Logger

    func start(agent: KeychainAgent, sessionBusAddress: String) throws -> any RunningSecretService {
        let running = RunningProvider()
        let provider = SecretServiceProvider(
            keychain: agent.keychain, unlocker: AgentSecretServiceUnlocker(agent: agent))
        let logger = self.logger
        running.serving.withLock {
            $0.task = Task {
                do {
                    let connection = try await DBusConnection.connect(
                        to: sessionBusAddress, maximumIncomingMessageLength: Self.maximumIncomingMessageLength)
                    guard running.adopt(connection) else { return }
                    logger.info("serving the Secret Service", metadata: ["bus": "\(connection.uniqueName)"])
                    try await provider.serve(on: connection)
                    if !Task.isCancelled { logger.warning("the session bus closed: the Secret Service stopped") }
                } catch {
                    logger.error("the Secret Service did not start", metadata: ["error": "\(error)"])
                }
            }
        }
        return running
    }
}

/// The provider's task and connection, for ``stop()`` at shutdown.
private final class RunningProvider: RunningSecretService {
    struct Serving {
        var task: Task<Void, Never>?
        var connection: DBusConnection?
        var stopped = false
    }

    let serving = Locked(Serving())

    /// Keeps `connection` for ``stop()``; closes it and answers `false` when stop came first.
    func adopt(_ connection: DBusConnection) -> Bool {
        let stopped = serving.withLock { serving -> Bool in
            if !serving.stopped { serving.connection = connection }
            return serving.stopped
        }
        if stopped { connection.close() }
        return !stopped
    }

    func stop() {
        let serving = serving.withLock { serving -> Serving in
            serving.stopped = true
            return serving
        }
        serving.task?.cancel()
        serving.connection?.close()
    }
}
