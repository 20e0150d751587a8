import Foundation
import Logging
import SecureStorageFoundation

/// The agent's listening socket on the keychain's ``AgentRendezvous``, serving ``KeychainAgent``.
///
/// Before it binds the name it connects to it: a live agent of the same uid means another
/// `keychaind` serves this keychain already (``KeychainError/agentAlreadyRunning(_:rendezvous:)``,
/// code `.duplicateKeychain`: it does not take over); a listener of another uid is a squatter
/// (``KeychainError/agentNameSquatted(_:rendezvous:)``, naming its uid and pid). Either way it
/// does not start. Each accepted connection is checked with `SO_PEERCRED` first: a peer of another
/// uid is closed at once, read from and sent nothing. A connection carries one request, read
/// within ``KeychainAgentClient/replyTimeout``; a malformed or oversized one gets a failure reply
/// and the agent goes on serving others. At most ``maximumConnections`` are served at once.
///
/// Two requests keep their connection: `servePrompts`, which makes the client the prompter for
/// as long as it stays (``AgentPrompterSession``), and `requestUnlock`, answered when the
/// prompter has had its say, and withdrawn if the client closes first.
package final class KeychainAgentServer: Sendable {
    /// The rendezvous it listens on.
    package let rendezvous: AgentRendezvous
    private let agent: KeychainAgent
    private let listener: Int32
    private let active = Locked<Int>(0)
    private let stopped = Locked<Bool>(false)

    /// The most connections served at the same time (more wait in the kernel's queue, then are refused).
    package static let maximumConnections = 64

    private init(rendezvous: AgentRendezvous, agent: KeychainAgent, listener: Int32) {
        self.rendezvous = rendezvous
        self.agent = agent
        self.listener = listener
    }

    /// Binds the rendezvous of `agent`'s keychain and starts serving on a thread of its own.
    ///
    /// - Throws: `.duplicateKeychain` when an agent of this uid already serves the keychain;
    ///   `.keychainUnavailable` when another uid holds the name, or a socket call fails.
    package static func start(serving agent: KeychainAgent) throws(KeychainError) -> KeychainAgentServer {
        let rendezvous = AgentRendezvous(vaultID: agent.keychain.vaultID)
        if let existing = try AgentConnection.connect(
            to: rendezvous, deadline: ContinuousClock.now + KeychainAgentClient.replyTimeout)
        {
            guard let peer = existing.peer else { throw KeychainError.agentNameInUse(rendezvous) }
            if peer.isSameUser { throw KeychainError.agentAlreadyRunning(peer, rendezvous: rendezvous) }
            throw KeychainError.agentNameSquatted(peer, rendezvous: rendezvous)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw KeychainError.agentSocketFailed(step: "socket", errno: errno) }
        let bound = rendezvous.withAddress { address, length in bind(descriptor, address, length) }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            // Taken between the check and the bind, or bound by a socket that does not listen.
            if code == EADDRINUSE { throw KeychainError.agentNameInUse(rendezvous) }
            throw KeychainError.agentSocketFailed(step: "bind", errno: code)
        }
        guard listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            throw KeychainError.agentSocketFailed(step: "listen", errno: code)
        }
        let server = KeychainAgentServer(rendezvous: rendezvous, agent: agent, listener: descriptor)
        Thread.detachNewThread { server.acceptLoop() }
        return server
    }

    /// Stops accepting connections and releases the name (requests being answered finish).
    package func stop() {
        guard
            stopped.withLock({ stopped in
                defer { stopped = true }
                return !stopped
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accept loop, which closes the socket
    }

    private var logger: Logger { LibraryLogging.logger(component: "keychaind") }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if stopped.withLock({ $0 }) { break }
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    usleep(50_000)  // out of descriptors: let connections finish
                    continue
                }
                break
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // keychaind starts no programs; close-on-exec all the same
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            let connection = AgentConnection(descriptor: client)
            guard let peer = connection.peer, peer.isSameUser else {
                logger.warning(
                    "refused a connection from another user",
                    metadata: ["peer": "\(connection.peer.map { "\($0)" } ?? "unknown")"])
                continue  // released: closed without a byte read or written
            }
            let admitted = active.withLock { count in
                guard count < Self.maximumConnections else { return false }
                count += 1
                return true
            }
            guard admitted else { continue }
            Thread.detachNewThread { [self] in
                serve(connection, peer: peer)
                active.withLock { $0 -= 1 }
            }
        }
        close(listener)
    }

    /// Reads one request (within the reply timeout), answers it and closes.
    private func serve(_ connection: AgentConnection, peer: AgentPeer) {
        let reply: AgentReply
        do {
            let payload = try connection.receive(
                maximumSize: AgentMessage.maximumFrameSize,
                deadline: ContinuousClock.now + KeychainAgentClient.replyTimeout)
            switch try AgentRequest.decode(payload) {
            case .servePrompts:
                AgentPrompterSession(agent: agent, connection: connection).run(pid: peer.pid)
                return
            case .requestUnlock(let reason, let milliseconds):
                let asking = reason.isEmpty ? "a program (pid \(peer.pid))" : reason
                reply = .unlocked(
                    agent.requestUnlock(
                        reason: asking, timeout: .milliseconds(Int64(milliseconds)), watching: connection))
            case let request: reply = agent.answer(request)
            }
        } catch {
            logger.notice("refused a request", metadata: ["reason": "\(error.message)"])
            reply = .failure(code: error.code.rawValue, message: error.message)
        }
        var encoded = reply.encoded()
        defer { encoded.wipe() }
        try? connection.send(encoded.data, deadline: ContinuousClock.now + KeychainAgentClient.replyTimeout)
    }
}
