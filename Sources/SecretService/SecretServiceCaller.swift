/// Who sent a Secret Service call: the bus's word on the uid and pid, and what `/proc` says about
/// that process (executable, systemd unit, Flatpak application id).
package struct SecretServiceCaller: Sendable, Hashable {
    /// The sender's unique bus name (`:1.42`); sessions and prompts belong to it.
    package var uniqueName: String
    /// The uid the bus daemon read from the socket (SO_PEERCRED).
    package var uid: UInt32
    /// The process id the bus daemon read from the socket, if it gave one.
    package var pid: UInt32?
    /// `/proc/<pid>/exe`, when readable.
    package var executable: String?
    /// The systemd unit from `/proc/<pid>/cgroup` (`app-….scope`, `foo.service`), when there is one.
    package var systemdUnit: String?
    /// The Flatpak application id from `/proc/<pid>/root/.flatpak-info` (`[Application] name=`),
    /// `nil` for a process that is not sandboxed.
    package var flatpakAppID: String?

    /// A caller.
    package init(
        uniqueName: String, uid: UInt32, pid: UInt32? = nil, executable: String? = nil, systemdUnit: String? = nil,
        flatpakAppID: String? = nil
    ) {
        self.uniqueName = uniqueName
        self.uid = uid
        self.pid = pid
        self.executable = executable
        self.systemdUnit = systemdUnit
        self.flatpakAppID = flatpakAppID
    }

    /// The items this caller sees: ``CallerScope/unsandboxed`` for an ordinary process of the
    /// user, ``CallerScope/sandboxed(appID:)`` for a Flatpak app.
    package var scope: CallerScope { flatpakAppID.map(CallerScope.sandboxed) ?? .unsandboxed }
}

/// Which items a caller may see and change.
///
/// An unsandboxed process of the user sees the `login` collection (the keychain's shared default
/// access group), created collections and the `session` collection, as with gnome-keyring. A
/// Flatpak app sees, in its `login` collection, only items of its own access group
/// (``accessGroup(login:)``), and only its own items of the `session` collection; it cannot create,
/// delete or alias collections. This separates sandboxed apps from each other and from the user's
/// items; it cannot separate two unsandboxed processes of the same user, which can read each
/// other's memory anyway.
package enum CallerScope: Sendable, Hashable {
    /// An ordinary process of the user.
    case unsandboxed
    /// A Flatpak app with this application id.
    case sandboxed(appID: String)

    /// The keychain access group that holds this scope's `login` items: the keychain's default
    /// group for an unsandboxed caller, `flatpak:<app-id>` for a sandboxed one.
    package func accessGroup(login: String) -> String {
        switch self {
        case .unsandboxed: login
        case .sandboxed(let appID): "flatpak:" + appID
        }
    }

    /// Whether this is a sandboxed app.
    package var isSandboxed: Bool { if case .sandboxed = self { true } else { false } }
}
