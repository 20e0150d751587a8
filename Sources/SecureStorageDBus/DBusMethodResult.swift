/// What a method-call handler answers: return values, or an error reply.
package enum DBusMethodResult: Sendable {
    /// A METHOD_RETURN with these values.
    case reply([DBusValue])
    /// An ERROR named `name` (for example `org.freedesktop.DBus.Error.InvalidArgs`) whose one
    /// string argument is `message`. Never put a secret in it.
    case error(name: String, message: String)
}

/// Who is behind a bus name, as the bus daemon reports it (`GetConnectionCredentials`).
package struct DBusPeerCredentials: Sendable, Hashable {
    /// The peer's user id.
    package var uid: UInt32
    /// The peer's process id, when the bus knows it.
    package var pid: UInt32?
    /// The peer's LSM label (SELinux context, AppArmor profile), without its trailing NUL.
    package var securityLabel: String?
    /// A pidfd for the peer's process, when the bus hands one (dbus ≥ 1.15.6); the receiver owns it.
    package var processFD: Int32?

    /// Credentials with the given fields.
    package init(uid: UInt32, pid: UInt32? = nil, securityLabel: String? = nil, processFD: Int32? = nil) {
        self.uid = uid
        self.pid = pid
        self.securityLabel = securityLabel
        self.processFD = processFD
    }
}
