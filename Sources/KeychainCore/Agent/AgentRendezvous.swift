import Foundation
import SecureStorageFoundation

/// Where the agent of one keychain (`keychaind`) listens: the abstract Unix socket
/// `\0secure-storage/agent/<uid>/<vault id>` (Linux).
///
/// Why an abstract socket: it needs no directory, so it works where there is no
/// `XDG_RUNTIME_DIR` and no session bus (a root shell in a container, CI, cron, `su`), and it
/// leaves nothing behind when the agent dies (the kernel drops the name with the last
/// descriptor, even after SIGKILL), so there is no stale socket file to clean up or to race for.
///
/// Abstract names have no owner and no permissions: any process of the same network namespace
/// can bind a name first, or connect to it. So the name is only where to look, never proof of
/// who answers; both ends check the other with `SO_PEERCRED` (credentials the kernel records at
/// `connect`/`listen`, which the peer cannot forge): the agent serves only processes of its own
/// effective uid, and clients talk only to an agent of their own effective uid (see
/// ``AgentPeer``). A squatter of another uid gets a precise refusal from both sides and nothing
/// else: the agent refuses to start, naming its uid and pid; clients send it no byte and carry
/// on as they would without an agent.
///
/// Caveat: abstract names live in the network namespace, not the file system. A process in
/// another network namespace (a container with its own network, `unshare -n`, a systemd unit
/// with `PrivateNetwork=yes`) does not see the agent and behaves as without one; one in the same
/// namespace but another mount namespace (a Flatpak sandbox without `--share=network` aside) does.
package struct AgentRendezvous: Sendable, Hashable, CustomStringConvertible {
    /// The effective uid the agent and its clients share.
    package let uid: uid_t
    /// The keychain's vault id (its header's; copies of a keychain share it).
    package let vaultID: UUID

    /// The rendezvous of `vaultID` for `uid` (by default this process's effective uid).
    package init(vaultID: UUID, uid: uid_t = geteuid()) {
        self.uid = uid
        self.vaultID = vaultID
    }

    /// The abstract name, without its leading NUL byte.
    package var name: String { "secure-storage/agent/\(uid)/\(vaultID.uuidString.lowercased())" }

    /// `@secure-storage/agent/…`, as `ss -x` and `/proc/net/unix` show abstract names.
    package var description: String { "@\(name)" }

    /// Calls `body` with the socket address of the abstract name and its exact length (abstract
    /// names are not NUL-terminated: the length says where they end).
    func withAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0  // abstract
            for (index, byte) in bytes.enumerated() { path[index + 1] = byte }
        }
        let length = socklen_t(pathOffset + 1 + bytes.count)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
