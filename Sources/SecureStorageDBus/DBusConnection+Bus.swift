extension DBusConnection {
    /// The bus daemon's name, path and interface.
    static let busName = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"

    private func callBus(_ member: String, _ body: [DBusValue] = []) async throws -> [DBusValue] {
        try await call(
            destination: Self.busName, path: Self.busPath, interface: Self.busName, member: member, body: body)
    }

    /// Asks the bus for `name` with `flags` (0x1 allow replacement, 0x2 replace existing, 0x4 do
    /// not queue); returns the reply code: 1 primary owner, 2 in queue, 3 exists, 4 already owner.
    package func requestName(_ name: String, flags: UInt32) async throws -> UInt32 {
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags)])
        guard case .uint32(let code)? = reply.first else { throw DBusConnectionError.unexpectedBusReply("RequestName") }
        return code
    }

    /// Gives `name` up.
    package func releaseName(_ name: String) async throws {
        _ = try await callBus("ReleaseName", [.string(name)])
    }

    /// Adds a match rule (which signals the bus routes to us).
    package func addMatch(_ rule: String) async throws {
        _ = try await callBus("AddMatch", [.string(rule)])
    }

    /// Removes a match rule added with ``addMatch(_:)``.
    package func removeMatch(_ rule: String) async throws {
        _ = try await callBus("RemoveMatch", [.string(rule)])
    }

    /// Who owns `busName`, from the bus daemon (`GetConnectionCredentials`): the uid always; the
    /// pid, the security label and a pidfd when the bus reports them.
    package func peerCredentials(of busName: String) async throws -> DBusPeerCredentials {
        let reply = try await call(
            DBusMessage(
                kind: .methodCall, path: Self.busPath, interface: Self.busName, member: "GetConnectionCredentials",
                destination: Self.busName, body: [.string(busName)]))
        var descriptors = reply.unixFileDescriptors
        defer { for descriptor in descriptors { closeDescriptor(descriptor) } }
        guard case .dictionary(_, _, let entries)? = reply.body.first else {
            throw DBusConnectionError.unexpectedBusReply("GetConnectionCredentials")
        }
        var uid: UInt32?
        var credentials = DBusPeerCredentials(uid: 0)
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            switch (key, entry.value.unwrappingVariant) {
            case ("UnixUserID", .uint32(let value)): uid = value
            case ("ProcessID", .uint32(let value)): credentials.pid = value
            case ("LinuxSecurityLabel", .array("y", let bytes)):
                let label = bytes.compactMap { value -> UInt8? in if case .byte(let byte) = value { byte } else { nil }
                }
                credentials.securityLabel = String(decoding: label.prefix { $0 != 0 }, as: UTF8.self)
            case ("ProcessFD", .unixFD(let index)) where Int(index) < descriptors.count:
                credentials.processFD = descriptors[Int(index)]
                descriptors[Int(index)] = -1
            default: continue
            }
        }
        descriptors.removeAll { $0 < 0 }
        guard let uid else { throw DBusConnectionError.unexpectedBusReply("GetConnectionCredentials") }
        credentials.uid = uid
        return credentials
    }
}
