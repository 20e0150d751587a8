import Foundation
import SecureStorageFoundation

/// The agent protocol, version 1: one request and one reply per connection (but see
/// `servePrompts`), each one frame
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
/// - `servePrompts` (6): empty. The connection stays open and makes its client the agent's
///   prompter (``AgentPrompts``): the agent replies `done` (or a failure naming the prompter that
///   serves already), then sends `prompt` frames; the client answers each with `promptAnswer` or
///   `promptDecline`, and the agent closes each prompt with `promptClosed` (after a wrong
///   passphrase: a `failure`, and the prompt stays open).
/// - `promptAnswer` (7): prompt id (u64) ‖ passphrase (text) ‖ session seconds (u64, 0: until
///   lock). Only on a `servePrompts` connection.
/// - `promptDecline` (8): prompt id (u64). Only on a `servePrompts` connection.
/// - `requestUnlock` (9): milliseconds (u32, at most ``maximumWait``) ‖ reason (text, at most
///   ``maximumReasonSize`` bytes): a same-user program asks to have the keychain unlocked through
///   the prompter; replied `unlocked` when it is, or when it is not and no longer will be
///   (no prompter, declined, timed out). Closing the connection withdraws the request.
///
/// Replies:
/// - `status` (1): ``AgentStatus``'s fields.
/// - `done` (2): empty.
/// - `ticket` (3): the unlock session's ticket (length-prefixed; empty when there is none).
/// - `unlocked` (4): one byte, 1 when the keychain is unlocked.
/// - `failure` (5): error code (text) ‖ message (text): a ``KeychainError``, which never holds a secret.
/// - `prompt` (6): prompt id (u64) ‖ reason (text): who asks (to a prompter).
/// - `promptClosed` (7): prompt id (u64) ‖ ``AgentPromptClosing`` (byte) (to a prompter).
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
    /// The longest reason a `requestUnlock` or a `prompt` carries, in UTF-8 bytes (longer ones are cut).
    package static let maximumReasonSize = 256

    /// `reason` cut to at most ``maximumReasonSize`` UTF-8 bytes, on a character boundary.
    package static func boundedReason(_ reason: String) -> String {
        guard reason.utf8.count > maximumReasonSize else { return reason }
        var kept = ""
        for character in reason {
            guard kept.utf8.count + character.utf8.count <= maximumReasonSize else { break }
            kept.append(character)
        }
        return kept
    }
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
    /// Become the agent's prompter for as long as the connection stays open.
    case servePrompts
    /// The prompter's passphrase for prompt `id`, for a session of `seconds` (`nil`: until lock).
    case promptAnswer(id: UInt64, passphrase: String, seconds: UInt64?)
    /// The prompter declines prompt `id`.
    case promptDecline(id: UInt64)
    /// Ask for an unlock through the prompter: `reason` says who asks; wait at most `milliseconds`.
    case requestUnlock(reason: String, milliseconds: UInt32)

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
        case .servePrompts: writer.append(6)
        case .promptAnswer(let id, let passphrase, let seconds):
            writer = ByteWriter(capacity: 2 + 8 + 4 + passphrase.utf8.count + 8)
            writer.append(AgentMessage.version)
            writer.append(7)
            writer.append(bigEndian: id)
            writer.appendLengthPrefixed(passphrase)
            writer.append(bigEndian: seconds ?? 0)
        case .promptDecline(let id):
            writer.append(8)
            writer.append(bigEndian: id)
        case .requestUnlock(let reason, let milliseconds):
            writer.append(9)
            writer.append(bigEndian: milliseconds)
            writer.appendLengthPrefixed(AgentMessage.boundedReason(reason))
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
        case 6: request = .servePrompts
        case 7:
            guard let id = reader.readBigEndian(UInt64.self), let passphrase = reader.readLengthPrefixedText(),
                passphrase.utf8.count <= AgentMessage.maximumPassphraseSize,
                let seconds = reader.readBigEndian(UInt64.self)
            else { throw KeychainError.agentMalformedMessage(what: "promptAnswer request") }
            request = .promptAnswer(id: id, passphrase: passphrase, seconds: seconds == 0 ? nil : seconds)
        case 8:
            guard let id = reader.readBigEndian(UInt64.self) else {
                throw KeychainError.agentMalformedMessage(what: "promptDecline request")
            }
            request = .promptDecline(id: id)
        case 9:
            guard let milliseconds = reader.readBigEndian(UInt32.self), let reason = reader.readLengthPrefixedText(),
                reason.utf8.count <= AgentMessage.maximumReasonSize
            else { throw KeychainError.agentMalformedMessage(what: "requestUnlock request") }
            request = .requestUnlock(reason: reason, milliseconds: milliseconds)
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
    /// To the prompter: prompt `id`, asked by `reason` (text from a client: escape it before printing).
    case prompt(id: UInt64, reason: String)
    /// To the prompter: prompt `id` is over, and why.
    case promptClosed(id: UInt64, AgentPromptClosing)

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
        case .prompt(let id, let reason):
            writer.append(6)
            writer.append(bigEndian: id)
            writer.appendLengthPrefixed(AgentMessage.boundedReason(reason))
        case .promptClosed(let id, let closing):
            writer.append(7)
            writer.append(bigEndian: id)
            writer.append(closing.rawValue)
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
        case 6:
            guard let id = reader.readBigEndian(UInt64.self), let reason = reader.readLengthPrefixedText(),
                reason.utf8.count <= AgentMessage.maximumReasonSize
            else { throw KeychainError.agentMalformedMessage(what: "prompt reply") }
            reply = .prompt(id: id, reason: reason)
        case 7:
            guard let id = reader.readBigEndian(UInt64.self), let byte = reader.readByte(),
                let closing = AgentPromptClosing(rawValue: byte)
            else { throw KeychainError.agentMalformedMessage(what: "promptClosed reply") }
            reply = .promptClosed(id: id, closing)
        default: throw KeychainError.agentMalformedMessage(what: "reply kind")
        }
        guard reader.isAtEnd else { throw KeychainError.agentMalformedMessage(what: "reply (trailing bytes)") }
        return reply
    }
}
