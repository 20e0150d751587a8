import Foundation
import SecureStorageFoundation

/// The process at the other end of an agent connection, as the kernel recorded it
/// (`SO_PEERCRED`: at `connect` for a client, at `listen` for the agent), which the peer cannot forge.
///
/// The rule, on both sides: the peer's effective uid equals this process's. Root is not special
/// in either direction. A root agent serves only uid 0, since a keychain's agent serves the
/// owner of that keychain and nobody else (root can read the user's files, but then it opens
/// them itself: the agent grants nothing on its behalf). And a user's client refuses an "agent"
/// owned by root: a process the user did not start, to which it would hand its passphrase;
/// root could impersonate the user by other means, but accepting it here would turn a
/// misconfigured system service that binds users' names into a passphrase collector.
package struct AgentPeer: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process id (in this process's pid namespace; 0 when it is outside it).
    package let pid: pid_t
    /// The peer's effective uid.
    package let uid: uid_t
    /// The peer's effective gid.
    package let gid: gid_t

    /// The credentials of the peer of the connected socket `descriptor`.
    static func of(_ descriptor: Int32) -> AgentPeer? {
        // struct ucred: pid, uid, gid (three 32-bit fields on every Linux ABI).
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            length == socklen_t(MemoryLayout.size(ofValue: credentials))
        else { return nil }
        return AgentPeer(pid: credentials.0, uid: credentials.1, gid: credentials.2)
    }

    /// Whether the peer runs as this process's effective uid (the only peer either side accepts).
    var isSameUser: Bool { uid == geteuid() }

    /// `uid 65534, pid 1234`.
    package var description: String { "uid \(uid), pid \(pid)" }
}
