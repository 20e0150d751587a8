import Foundation
import SecureStorageFoundation

/// The agent protocol, version 1: one request and one reply per connection, each one frame
/// (``AgentConnection``): version byte ‖ kind byte ‖ body, with ``ByteWriter``'s encodings
/// (big-endian integers, 32-bit length-prefixed fields). A frame of another version, an unknown
/// kind, a short or overlong body, or trailing bytes is malformed and answered with a failure.
///
/// Requests:
/// - `status` (1): empty.
/// - `unlock` (2): passphrase (length-prefixed UTF-8) ‖ session seconds (u64, 0: until lock).
/// - `lock` (3): empty.
/// - `ticket` (4): empty.
/// - `waitForUnlock` (5): milliseconds (u32, at most ``maximumWait``).
///
/// Replies:
/// - `status` (1): ``AgentStatus``'s fields.
/// - `done` (2): empty.
/// - `ticket` (3): the unlock session's ticket (length-prefixed; empty when there is none).
/// - `unlocked` (4): one byte, 1 when the keychain is unlocked.
/// - `failure` (5): error code (text) ‖ message (text): a ``KeychainError``, which never holds a secret.
///
/// What crosses: a client may send a passphrase; the agent sends back only its status and the
/// session ticket (the sealed session key that opens the header's session record with the device
/// key the client reads itself, exactly what a ticket in `$XDG_RUNTIME_DIR` gives today). Never
/// the passphrase, the device key or a class key.
package enum AgentMessage {
    /// The protocol version both sides speak.
    static let version: UInt8 = 1
    /// The largest frame either side accepts (a passphrase of a few KiB fits many times over).
    package static let maximumFrameSize = 16 * 1024
    /// The largest passphrase a request may carry.
    static let maximumPassphraseSize = 4 * 1024
    /// The longest `waitForUnlock` the agent grants: ten minutes.
    package static let maximumWait: Duration = .seconds(600)
}

/// A client's request (``AgentMessage``).
package enum AgentRequest: Sendable, Equatable {
    /// The agent's pid, start, lock state and session.
    case status
    /// Unlock with `passphrase` and keep a session for `seconds` (`nil`: until lock).
    case unlock(passphrase: String, seconds: UInt64?)
    /// Lock the keychain and end the session (every ticket void at once).
    case lock
    /// The current session's ticket.
    case ticket
    /// Answer when the keychain is unlocked, or after `milliseconds`.
    case waitForUnlock(milliseconds: UInt32)

    /// The request's frame payload (wipe it after sending: it may hold a passphrase).
    func encoded() -> ByteWriter {
        var writer = ByteWriter(capacity: 64)
        writer.append(AgentMessage.version)
        switch self {
        case .status: writer.append(1)
        case .unlock(let passphrase, let seconds):
            writer = ByteWriter(capacity: 2 + 4 + passphrase.utf8.count + 8)
            writer.append(AgentMessage.version)
            writer.append(2)
            writer.appendLengthPrefixed(passphrase)
            writer.append(bigEndian: seconds ?? 0)
        case .lock: writer.append(3)
        case .ticket: writer.append(4)
        case .waitForUnlock(let milliseconds):
            writer.append(5)
            writer.append(bigEndian: milliseconds)
        }
        return writer
    }

    /// The request in `payload`, or a precise error for a malformed one.
    static func decode(_ payload: Data) throws(KeychainError) -> AgentRequest {
        var reader = ByteReader(payload)
        defer { reader.wipe() }
        guard let version = reader.readByte(), version == AgentMessage.version else {
            throw KeychainError.agentProtocolVersion(payload.first)
        }
        let request: AgentRequest
        switch reader.readByte() {
        case 1: request = .status
        case 2:
            guard let passphrase = reader.readLengthPrefixedText(),
                passphrase.utf8.count <= AgentMessage.maximumPassphraseSize,
                let seconds = reader.readBigEndian(UInt64.self)
            else { throw KeychainError.agentMalformedMessage(what: "unlock request") }
            request = .unlock(passphrase: passphrase, seconds: seconds == 0 ? nil : seconds)
        case 3: request = .lock
        case 4: request = .ticket
        case 5:
            guard let milliseconds = reader.readBigEndian(UInt32.self) else {
                throw KeychainError.agentMalformedMessage(what: "waitForUnlock request")
            }
            request = .waitForUnlock(milliseconds: milliseconds)
        default: throw KeychainError.agentMalformedMessage(what: "request kind")
        }
        guard reader.isAtEnd else { throw KeychainError.agentMalformedMessage(what: "request (trailing bytes)") }
        return request
    }
}

/// The agent's reply (``AgentMessage``).
package enum AgentReply: Sendable, Equatable {
    /// The agent's state.
    case status(AgentStatus)
    /// The request was carried out.
    case done
    /// The session's ticket, `nil` when there is no session.
    case ticket(Data?)
    /// Whether the keychain is unlocked (`waitForUnlock`).
    case unlocked(Bool)
    /// The request failed: a ``KeychainError``'s code and message.
    case failure(code: String, message: String)

    /// The reply's frame payload.
    func encoded() -> ByteWriter {
        var writer = ByteWriter(capacity: 256)
        writer.append(AgentMessage.version)
        switch self {
        case .status(let status):
            writer.append(1)
            status.encode(into: &writer)
        case .done: writer.append(2)
        case .ticket(let bytes):
            writer.append(3)
            writer.appendLengthPrefixed(bytes ?? Data())
        case .unlocked(let unlocked):
            writer.append(4)
            writer.append(unlocked ? 1 : 0)
        case .failure(let code, let message):
            writer.append(5)
            writer.appendLengthPrefixed(code)
            writer.appendLengthPrefixed(message)
        }
        return writer
    }

    /// The reply in `payload`, or a precise error for a malformed one.
    static func decode(_ payload: Data) throws(KeychainError) -> AgentReply {
        var reader = ByteReader(payload)
        defer { reader.wipe() }
        guard let version = reader.readByte(), version == AgentMessage.version else {
            throw KeychainError.agentProtocolVersion(payload.first)
        }
        let reply: AgentReply
        switch reader.readByte() {
        case 1:
            guard let status = AgentStatus.decode(from: &reader) else {
                throw KeychainError.agentMalformedMessage(what: "status reply")
            }
            reply = .status(status)
        case 2: reply = .done
        case 3:
            guard let bytes = reader.readLengthPrefixed() else {
                throw KeychainError.agentMalformedMessage(what: "ticket reply")
            }
            reply = .ticket(bytes.isEmpty ? nil : bytes)
        case 4:
            guard let byte = reader.readByte(), byte <= 1 else {
                throw KeychainError.agentMalformedMessage(what: "waitForUnlock reply")
            }
            reply = .unlocked(byte == 1)
        case 5:
            guard let code = reader.readLengthPrefixedText(), let message = reader.readLengthPrefixedText() else {
                throw KeychainError.agentMalformedMessage(what: "failure reply")
            }
            reply = .failure(code: code, message: message)
        default: throw KeychainError.agentMalformedMessage(what: "reply kind")
        }
        guard reader.isAtEnd else { throw KeychainError.agentMalformedMessage(what: "reply (trailing bytes)") }
        return reply
    }
}
