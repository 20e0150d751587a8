import Foundation
import SecureStorageFoundation

/// What the agent says of itself (`keychain status` shows it).
package struct AgentStatus: Sendable, Hashable {
    /// The agent's process id.
    package var pid: Int32
    /// When the agent started.
    package var since: Date
    /// The keychain's lock state in the agent.
    package var lockState: LockState
    /// When the agent's unlock session ends (`nil`: until lock, or no session).
    package var sessionExpiry: Date?
    /// The path of the keychain the agent holds (clients of another copy of the keychain, which
    /// shares its vault id, do not use this agent).
    package var databasePath: String

    /// A status with these values.
    package init(pid: Int32, since: Date, lockState: LockState, sessionExpiry: Date?, databasePath: String) {
        self.pid = pid
        self.since = since
        self.lockState = lockState
        self.sessionExpiry = sessionExpiry
        self.databasePath = databasePath
    }

    /// pid (i32) ‖ since (u64 seconds) ‖ lock state (text) ‖ expiry (u64 seconds, 0: none) ‖ path (text).
    func encode(into writer: inout ByteWriter) {
        writer.append(bigEndian: pid)
        writer.append(bigEndian: UInt64(max(0, since.timeIntervalSince1970)))
        writer.appendLengthPrefixed(lockState.rawValue)
        writer.append(bigEndian: UInt64(max(0, (sessionExpiry?.timeIntervalSince1970 ?? 0).rounded(.up))))
        writer.appendLengthPrefixed(databasePath)
    }

    /// The status at `reader`'s position, `nil` when malformed.
    static func decode(from reader: inout ByteReader) -> AgentStatus? {
        guard let pid = reader.readBigEndian(Int32.self), let since = reader.readBigEndian(UInt64.self),
            let state = reader.readLengthPrefixedText().flatMap(LockState.init(rawValue:)),
            let expiry = reader.readBigEndian(UInt64.self), let path = reader.readLengthPrefixedText()
        else { return nil }
        return AgentStatus(
            pid: pid, since: Date(timeIntervalSince1970: TimeInterval(since)), lockState: state,
            sessionExpiry: expiry == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(expiry)), databasePath: path)
    }
}
