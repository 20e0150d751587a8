import ArgumentParser
import Foundation
import KeychainCore
import Logging
import SecureStorageFoundation

/// `keychaind run` (the default): hardens the process, opens the user's keychain, unlocks it
/// unattended when it can, serves the agent socket (and, when a session bus is present, the
/// Secret Service) until SIGTERM or SIGINT.
///
/// With `--foreground` (as the systemd unit and a container's entry point run it) it serves in
/// this process and logs to standard error; without, it starts itself detached (``Detaching``)
/// and returns once the agent serves. Shutdown ends the unlock session the agent kept (its ticket lived only in this
/// process; the header's session record goes with it) and leaves the keychain and its items as
/// they are; clients that resumed the session keep their own unlocked state until they exit.
struct RunAgent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Serve the keychain agent until SIGTERM or SIGINT (the default command).",
        discussion: """
            The keychain is the default one (SECURE_STORAGE_HOME, else the XDG directories) or \
            --keychain's. At start keychaind unlocks it without a prompt when it can: from \
            --passphrase-file (yours, mode 0600 or 0400), else from the systemd credential \
            secure-storage-passphrase (LoadCredential=); a keychain without a passphrase (a \
            TPM-bound one, say) is always unlocked. Otherwise it starts locked: `keychain unlock` \
            sends the passphrase to it. Clients find it on the abstract socket \
            @secure-storage/agent/<uid>/<vault id>, and both sides check that the other runs as \
            the same user (SO_PEERCRED).
            """)

    @Option(name: .customLong("keychain"), help: ArgumentHelp("The keychain's directory.", valueName: "path"))
    var path: String?

    @Option(
        name: .customLong("passphrase-file"),
        help: ArgumentHelp("Unlock at start with the passphrase in this file (yours, 0600).", valueName: "file"))
    var passphraseFile: String?

    @Flag(
        name: .customLong("foreground"),
        help: "Stay in the foreground and log what the agent does (no secrets) to standard error.")
    var foreground = false

    @Flag(name: .customLong("detached-child"), help: .hidden)
    var detachedChild = false

    func run() throws {
        guard foreground || detachedChild else {
            var arguments: [String] = []
            if let path { arguments += ["--keychain", URL(fileURLWithPath: path).path] }
            if let passphraseFile { arguments += ["--passphrase-file", URL(fileURLWithPath: passphraseFile).path] }
            let status = try Detaching.startChild(arguments: arguments)
            if status != 0 { throw ExitCode(status) }
            return
        }
        if detachedChild { Detaching.leaveSession() }
        let signals = TerminationSignals.block()  // before any thread starts, so sigwait gets them
        let hardening = AgentHardening.apply()
        bootstrapLogging()
        let logger = Logger(label: "keychaind")
        logger.info("hardened", metadata: ["steps": "\(hardening.joined(separator: ", "))"])
        let agent = try failing { () throws(KeychainError) in try openAgent(logger: logger) }
        let server = try failing { () throws(KeychainError) in try KeychainAgentServer.start(serving: agent) }
        logger.info(
            "serving",
            metadata: [
                "socket": "\(server.rendezvous)", "keychain": "\(agent.keychain.location.databaseURL.path)",
                "lockState": "\(agent.keychain.lockState)"
            ])
        // The Secret Service starts when a session bus is present; its failure is logged and the
        // socket goes on serving.
        var secretService: (any RunningSecretService)?
        if let bus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty {
            do {
                secretService = try secretServiceStartup(logger: logger).start(agent: agent, sessionBusAddress: bus)
            } catch {
                logger.error("the Secret Service did not start", metadata: ["error": "\(error)"])
            }
        }
        if detachedChild { Detaching.reportReady() }
        let signal = signals.wait()
        logger.info("stopping", metadata: ["signal": "\(signal)"])
        secretService?.stop()
        server.stop()
        agent.shutDown()
    }

    /// Opens the keychain, becomes its agent and unlocks it unattended when it can.
    private func openAgent(logger: Logger) throws(KeychainError) -> KeychainAgent {
        let location = path.map { KeychainLocation(directory: URL(fileURLWithPath: $0, isDirectory: true)) } ?? .default
        guard Keychain.exists(at: location) else {
            throw KeychainError.agentNoKeychain(path: location.databaseURL.path)
        }
        var options = KeychainOptions()
        options.resumesUnlockSession = false  // the agent keeps its own session
        let agent = KeychainAgent(keychain: try Keychain(location: location, options: options))
        if let source = PassphraseSource.unattended(file: passphraseFile) {
            guard agent.keychain.hasPassphrase else {
                throw KeychainError.agentPassphraseForUnprotectedKeychain(
                    source: source, path: location.databaseURL.path)
            }
            try agent.unlock(passphrase: source.read(), for: nil)
            logger.info("unlocked at start", metadata: ["from": "\(source)"])
        }
        return agent
    }

    /// swift-log to standard error: informational messages with --foreground (or
    /// KEYCHAIN_LOG_LEVEL), warnings and errors otherwise. The libraries log to it too.
    private func bootstrapLogging() {
        let level =
            ProcessInfo.processInfo.environment["KEYCHAIN_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
            ?? (foreground ? .info : .warning)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        LibraryLogging.logger = Logger(label: "keychaind")
    }

    /// Runs `body`; a keychain error is printed and becomes keychaind's exit status.
    private func failing<T>(_ body: () throws(KeychainError) -> T) throws -> T {
        do { return try body() } catch {
            printError(error.message)
            throw ExitCode(AgentExitStatus.of(error.code))
        }
    }
}
