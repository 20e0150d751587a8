import Foundation
import KeychainCore
import SecureStorageDBus
import SecureStorageFoundation

/// The Flatpak secret portal's backend, `org.freedesktop.impl.portal.Secret` at
/// `/org/freedesktop/portal/desktop` (xdg-desktop-portal's "Secret" backend interface, version 1):
/// `RetrieveSecret(o handle, s app_id, h fd, a{sv} options) → (u response, a{sv} results)` writes a
/// 64-byte secret for `app_id` to `fd`: random on first request, then the same for that app id,
/// kept in the keychain (access group ``accessGroup``, service ``service``, account = app id).
///
/// The frontend (xdg-desktop-portal, unsandboxed) calls it on an app's behalf and names the app;
/// a sandboxed caller is refused, since it could name another app. An unsandboxed process of the
/// user can ask for any app's secret, as with gnome-keyring's backend: it is the same user.
struct PortalSecretBackend: Sendable {
    static let interface = "org.freedesktop.impl.portal.Secret"
    static let path = "/org/freedesktop/portal/desktop"
    static let accessGroup = "org.freedesktop.portal.Secret"
    static let service = "org.freedesktop.portal.Secret"
    static let secretLength = 64
    /// The most portal requests delivering a secret at once; each may wait for its reader up to
    /// ``writeDeadline`` on a thread of its own.
    static let concurrentDeliveries = 4
    /// The requests delivering now.
    private static let deliveries = Locked(0)

    let keychain: Keychain
    let unlocker: any SecretServiceUnlocker

    /// Answers one call to the portal interface.
    func handle(member: String, body: [DBusValue], fileDescriptors: [Int32], caller: SecretServiceCaller) throws
        -> [DBusValue]
    {
        switch member {
        case "RetrieveSecret":
            let arguments = try MethodArguments(member: member, body: body, signature: "osha{sv}")
            guard !caller.scope.isSandboxed else { throw SecretServiceError.sandboxed("call the portal backend") }
            guard case .unixFD(let index) = body[2], Int(index) < fileDescriptors.count else {
                throw SecretServiceError.invalidArgument("RetrieveSecret needs a file descriptor")
            }
            let appID = arguments.string(1)
            guard FlatpakInfo.isValidApplicationID(appID) else {
                throw SecretServiceError.invalidArgument("the application id is not a valid Flatpak id")
            }
            guard !unlocker.isLocked else { throw SecretServiceError.locked(Self.path) }
            try Self.deliveries.withLock { count throws(SecretServiceError) in
                guard count < Self.concurrentDeliveries else {
                    throw .tooMany("portal requests at once", limit: Self.concurrentDeliveries)
                }
                count += 1
            }
            defer { Self.deliveries.withLock { $0 -= 1 } }
            var secret = try secret(for: appID)
            defer { _ = SecretWiping.wipe(&secret) }
            try send(secret, to: fileDescriptors[Int(index)])
            return [.uint32(0), .dictionary(keySignature: "s", valueSignature: "v", [])]
        case "version":
            return [.variant(.uint32(1))]
        default:
            throw SecretServiceError.unknownMethod(member, interface: Self.interface, path: Self.path)
        }
    }

    /// The app's secret, made on first use.
    private func secret(for appID: String) throws(SecretServiceError) -> Data {
        let attributes: [AttributeKey: AttributeValue] = [
            .service: .string(Self.service), .account: .string(appID), .accessGroup: .string(Self.accessGroup)
        ]
        do throws(KeychainError) {
            if let found = try keychain.findAll(
                Query(.genericPassword, attributes, accessGroups: [Self.accessGroup]), returning: [.data]
            ).first, let data = found.data, data.count == Self.secretLength {
                return data
            }
            var generator = SystemRandomNumberGenerator()
            let secret = Data((0..<Self.secretLength).map { _ in UInt8.random(in: 0...255, using: &generator) })
            var item = NewItem(.genericPassword, attributes: attributes, data: secret)
            item.attributes[.label] = .string("Secret portal key for \(appID)")
            _ = try keychain.addOrUpdate(item)
            return secret
        } catch {
            throw .keychain(error)
        }
    }

    /// The longest a reader of the caller's descriptor may keep the secret waiting.
    static let writeDeadline: Duration = .seconds(2)

    /// Writes the secret to the caller's descriptor, non-blocking with a deadline: a descriptor
    /// that is never read (a full pipe) costs at most ``writeDeadline``, never a thread of the
    /// provider for good. The descriptor's own flags are left as they were.
    private func send(_ data: Data, to descriptor: Int32) throws {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0 else { throw SecretServiceError.invalidArgument("the file descriptor is not writable") }
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        let deadline = ContinuousClock.now + Self.writeDeadline
        var written = 0
        try data.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result > 0 {
                    written += result
                    continue
                }
                let code = errno
                if result < 0 && code == EINTR { continue }
                let left = deadline - ContinuousClock.now
                guard result < 0, code == EAGAIN || code == EWOULDBLOCK, left > .zero else {
                    throw SecretServiceError.invalidArgument("the file descriptor is not writable, or not read in time")
                }
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let milliseconds = Int32(
                    max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
                _ = poll(&ready, 1, milliseconds)
            }
        }
    }
}
