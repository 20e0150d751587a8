import KeychainCore
import Logging
import SecretService
import SecureStorageDBus
import SecureStorageFoundation

/// keychaind's Secret Service: the `SecretService` provider over the agent's keychain and lock
/// state, on the session bus. It connects and takes `org.freedesktop.secrets` in the background,
/// and connects again when the connection closes (a bus restart, a connection the bus dropped);
/// when another program holds the name (gnome-keyring-daemon, another keychaind) it never takes it
/// over, logs that once, and asks again every ``longestPause``. The agent's socket goes on serving
/// throughout.
struct SecretServiceOnSessionBus: SecretServiceStartup {
    /// The largest message the provider reads: attribute maps and secrets are bounded far below it.
    static let maximumIncomingMessageLength = 4 << 20

    /// The wait before connecting again after the connection closed or a connect failed; it
    /// doubles up to ``longestPause`` while connects keep failing (the session bus ended, say).
    static let firstPause: Duration = .seconds(1)
    /// The longest wait between two connects.
    static let longestPause: Duration = .seconds(30)

    let logger: Logger

    func start(agent: KeychainAgent, sessionBusAddress: String) throws -> any RunningSecretService {
        let running = RunningProvider()
        let provider = SecretServiceProvider(
            keychain: agent.keychain, unlocker: AgentSecretServiceUnlocker(agent: agent))
        let logger = self.logger
        running.serving.withLock {
            $0.task = Task {
                var pause = Self.firstPause
                var toldNameTaken = false
                while !Task.isCancelled {
                    var current: DBusConnection?
                    do {
                        let connection = try await DBusConnection.connect(
                            to: sessionBusAddress, maximumIncomingMessageLength: Self.maximumIncomingMessageLength)
                        current = connection
                        guard running.adopt(connection) else { return }
                        try await provider.serve(on: connection) {
                            logger.info("serving the Secret Service", metadata: ["bus": "\(connection.uniqueName)"])
                        }
                        pause = Self.firstPause
                        toldNameTaken = false
                        if Task.isCancelled { return }
                        logger.warning(
                            "the connection to the session bus closed; connecting again",
                            metadata: ["reason": "\(connection.closeReason.map { "\($0)" } ?? "the bus closed it")"])
                    } catch SecretServiceError.Code.nameTaken {
                        // Never taken over; asked for again now and then, so that a name another
                        // program took during a reconnect comes back once that program leaves.
                        if !toldNameTaken {
                            logger.error("the Secret Service is provided by another program; asking again every 30 s")
                            toldNameTaken = true
                        }
                        pause = Self.longestPause
                    } catch {
                        logger.error("the Secret Service is not served", metadata: ["error": "\(error)"])
                    }
                    current?.close()
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, Self.longestPause)
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
