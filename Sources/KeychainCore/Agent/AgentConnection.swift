import Foundation
import SecureStorageFoundation

/// One connection between the agent and a client: a non-blocking Unix stream socket whose every
/// read and write has a deadline, so a stalled or silent peer costs a bounded wait, never a hang.
///
/// Frames are a 32-bit big-endian length and that many bytes (``AgentMessage`` says what they
/// hold), at most ``AgentMessage/maximumFrameSize``: a larger length is refused before anything
/// is read or allocated for it.
final class AgentConnection: Sendable {
    /// The socket; closed when the connection is released.
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// What the kernel says of the peer.
    var peer: AgentPeer? { AgentPeer.of(descriptor) }

    /// A new non-blocking, close-on-exec Unix stream socket.
    static func makeSocket() throws(KeychainError) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw KeychainError.agentSocketFailed(step: "socket", errno: errno) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }

    /// Connects to `rendezvous`; `nil` when nothing listens there (the usual case: no agent).
    /// A listener whose queue is full is retried until `deadline`.
    static func connect(to rendezvous: AgentRendezvous, deadline: ContinuousClock.Instant) throws(KeychainError)
        -> AgentConnection?
    {
        let connection = AgentConnection(descriptor: try makeSocket())
        while true {
            let result = rendezvous.withAddress { address, length in
                SecureStorageFoundation.connect(connection.descriptor, address, length)
            }
            if result == 0 { return connection }
            let code = errno
            switch code {
            case ECONNREFUSED, ENOENT: return nil
            case EINTR: continue
            case EAGAIN, EINPROGRESS:
                guard ContinuousClock.now < deadline else { throw KeychainError.agentNotAnswering(rendezvous) }
                usleep(10_000)
            default: throw KeychainError.agentSocketFailed(step: "connect", errno: code)
            }
        }
    }

    /// Sends one frame: its length, then `payload`.
    func send(_ payload: Data, deadline: ContinuousClock.Instant) throws(KeychainError) {
        var frame = ByteWriter(capacity: 4 + payload.count)
        frame.appendLengthPrefixed(payload)
        defer { frame.wipe() }
        let bytes = frame.data
        var sent = 0
        while sent < bytes.count {
            try wait(for: Int16(POLLOUT), until: deadline)
            let result = bytes.withUnsafeBytes { buffer in
                SecureStorageFoundation.send(
                    descriptor, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if result > 0 {
                sent += result
            } else if result < 0, errno == EAGAIN || errno == EINTR {
                continue
            } else {
                throw KeychainError.agentConnectionLost()
            }
        }
    }

    /// Receives one frame's payload, refusing a length over `maximumSize` before reading it.
    func receive(maximumSize: Int, deadline: ContinuousClock.Instant) throws(KeychainError) -> Data {
        var header = ByteReader(try read(4, deadline: deadline))
        guard let length = header.readBigEndian(UInt32.self) else { throw KeychainError.agentConnectionLost() }
        guard Int(length) <= maximumSize else {
            throw KeychainError.agentFrameTooLarge(size: Int(length), maximum: maximumSize)
        }
        return try read(Int(length), deadline: deadline)
    }

    /// Exactly `count` bytes, or an error when the peer closes or the deadline passes first.
    private func read(_ count: Int, deadline: ContinuousClock.Instant) throws(KeychainError) -> Data {
        var buffer = [UInt8](repeating: 0, count: count)
        defer { SecretWiping.wipe(&buffer) }
        var received = 0
        while received < count {
            try wait(for: Int16(POLLIN), until: deadline)
            let result = buffer.withUnsafeMutableBytes { bytes in
                recv(descriptor, bytes.baseAddress! + received, count - received, 0)
            }
            if result > 0 {
                received += result
            } else if result < 0, errno == EAGAIN || errno == EINTR {
                continue
            } else {
                throw KeychainError.agentConnectionLost()
            }
        }
        return Data(buffer)
    }

    /// Whether the peer sent something or hung up within `milliseconds` (a frame to read, or the
    /// end of the connection, which the next ``receive(maximumSize:deadline:)`` reports).
    func isReadable(within milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, milliseconds)
        return ready > 0 || (ready < 0 && errno != EINTR)
    }

    /// Waits until the socket is ready for `events`, or throws when `deadline` passes first.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) throws(KeychainError) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw KeychainError.agentTimedOut() }
            let milliseconds = Int32(
                clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
                    + 1)
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw KeychainError.agentConnectionLost() }
        }
    }
}
