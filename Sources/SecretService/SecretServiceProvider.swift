import Foundation
import KeychainCore
import SecureStorageDBus
import SecureStorageFoundation

/// The freedesktop Secret Service (API 0.2, `org.freedesktop.secrets`) over a ``Keychain``: the
/// entry point keychaind hosts.
///
/// ```swift
/// let provider = SecretServiceProvider(keychain: keychain, unlocker: agentUnlocker)
/// let bus = try await DBusConnection.connect(to: DBusConnection.sessionBusAddress())
/// try await provider.serve(on: bus)   // returns when the connection closes
/// ```
///
/// Every call's sender is identified through the bus (`GetConnectionCredentials`: uid, pid,
/// pidfd) and `/proc` (``ProcessInspector``): a caller of another uid gets `AccessDenied` for
/// everything; a Flatpak app sees only its own items (``CallerScope``). Sessions and prompts
/// belong to the caller's unique name; when it leaves the bus (`NameOwnerChanged`), they go.
/// What the collections are in the keychain: ``KeychainItemStore``, ``CollectionRegistry``.
package final class SecretServiceProvider: Sendable {
    private let keychain: Keychain
    private let unlocker: any SecretServiceUnlocker
    private let loginAccessGroup: String
    private let serviceUID: UInt32
    private let inspector: ProcessInspector

    /// A provider of `keychain`, whose lock state `unlocker` holds. The `login` collection is the
    /// generic passwords of `loginAccessGroup` (default: the group the `keychain` tool and
    /// unconfigured processes use); callers must run as `serviceUID` (default: this process's uid).
    package init(
        keychain: Keychain, unlocker: any SecretServiceUnlocker,
        loginAccessGroup: String = ApplicationIdentity.sharedGroup, serviceUID: UInt32 = getuid(),
        processInspector: ProcessInspector = ProcessInspector()
    ) {
        self.keychain = keychain
        self.unlocker = unlocker
        self.loginAccessGroup = loginAccessGroup
        self.serviceUID = serviceUID
        self.inspector = processInspector
    }

    /// Serves on `connection` until it closes: takes `org.freedesktop.secrets` (without
    /// queueing) and answers every call.
    ///
    /// - Throws: ``SecretServiceError/Code/nameTaken`` naming the current owner when another
    ///   connection holds the name (a second keychaind, gnome-keyring-daemon): nothing is taken over.
    /// - Parameter serving: called once the name is this connection's.
    package func serve(on connection: DBusConnection, serving: @Sendable () -> Void = {}) async throws {
        // Callers are known by unique name, and a unique name is unique on one bus daemon only: a
        // restarted bus hands out `:1.1` again. So the cache lives as long as this connection.
        let callers = Locked([String: SecretServiceCaller]())
        let objects = SecretServiceObjects(
            keychain: keychain, unlocker: unlocker, loginGroup: loginAccessGroup,
            signals: ConnectionSignalSink(connection: connection))
        connection.setMethodCallHandler { [self] message in
            await self.handle(message, objects: objects, connection: connection, callers: callers)
        }
        connection.setSignalHandler { message in
            // A signal may carry descriptors (anyone can send one to us): closed whatever it is.
            defer { message.closeFileDescriptors() }
            guard message.member == "NameOwnerChanged", message.sender == "org.freedesktop.DBus",
                message.body.count == 3, case .string(let name) = message.body[0],
                case .string(let newOwner) = message.body[2], name.hasPrefix(":"), newOwner.isEmpty
            else { return }
            callers.withLock { _ = $0.removeValue(forKey: name) }
            objects.clientLeft(name)
        }
        try await connection.addMatch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'")
        let reply = try await connection.requestName(SecretServiceNames.busName, flags: 4)  // DO_NOT_QUEUE
        switch reply {
        case 1, 4: serving()  // primary owner, already owner
        case 3:
            let owner = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", body: [.string(SecretServiceNames.busName)])
            throw SecretServiceError.nameOwned(by: owner?.first?.stringValue)
        default:
            throw SecretServiceError.nameRefused(reply: reply)
        }
        let changes = unlocker.lockStateChanges()
        let watcher = Task {
            for await locked in changes { await objects.lockStateChanged(locked: locked) }
        }
        await connection.waitUntilClosed()
        watcher.cancel()
    }

    private func handle(
        _ message: DBusMessage, objects: SecretServiceObjects, connection: DBusConnection,
        callers: Locked<[String: SecretServiceCaller]>
    ) async -> DBusMethodResult {
        // Every path closes the descriptors a call carried, refused calls first of all: a caller
        // that could make us keep them would run the process out of descriptors.
        defer { message.closeFileDescriptors() }
        guard let sender = message.sender, let path = message.path, let member = message.member else {
            return .error(
                name: SecretServiceError.Code.invalidArgs.rawValue, message: "The call has no sender, path or member.")
        }
        let caller: SecretServiceCaller
        do {
            caller = try await identify(sender, connection: connection, callers: callers)
        } catch let error as SecretServiceError {
            return .error(name: error.code.rawValue, message: error.message)
        } catch {
            return .error(
                name: SecretServiceError.Code.accessDenied.rawValue,
                message: SecretServiceError.unidentifiedCaller().message)
        }
        if path == PortalSecretBackend.path && message.interface == PortalSecretBackend.interface {
            // Off the cooperative pool: the write to the caller's descriptor may wait (up to its
            // deadline) for a reader, and a few such calls must not stall every other client.
            let portal = PortalSecretBackend(keychain: keychain, unlocker: unlocker)
            let outcome = await offloaded {
                Result { () throws -> [DBusValue] in
                    try portal.handle(
                        member: member, body: message.body, fileDescriptors: message.unixFileDescriptors, caller: caller
                    )
                }
            }
            do {
                return .reply(try outcome.get())
            } catch let error as SecretServiceError {
                return .error(name: error.code.rawValue, message: error.message)
            } catch {
                return .error(
                    name: SecretServiceError.Code.failed.rawValue, message: SecretServiceError.unexpected().message)
            }
        }
        let result = await objects.handle(
            path: path, interface: message.interface, member: member, body: message.body, caller: caller)
        switch result {
        case .success(let values): return .reply(values)
        case .failure(let error): return .error(name: error.code.rawValue, message: error.message)
        }
    }

    /// The caller behind `sender`, resolved once per unique name on this connection (a bus daemon
    /// never reuses a unique name; another daemon, after a restart, does).
    private func identify(
        _ sender: String, connection: DBusConnection, callers: Locked<[String: SecretServiceCaller]>
    ) async throws -> SecretServiceCaller {
        if let known = callers.withLock({ $0[sender] }) { return known }
        let credentials = try await connection.peerCredentials(of: sender)
        defer { if let descriptor = credentials.processFD { close(descriptor) } }
        guard credentials.uid == serviceUID else { throw SecretServiceError.otherUser(uid: credentials.uid) }
        let caller = try inspector.inspect(
            uniqueName: sender, uid: credentials.uid, pid: credentials.pid, processFD: credentials.processFD)
        callers.withLock { $0[sender] = caller }
        return caller
    }
}

/// Signals through the provider's bus connection.
private struct ConnectionSignalSink: SecretServiceSignalSink {
    let connection: DBusConnection

    func emit(path: String, interface: String, member: String, body: [DBusValue], destination: String?) async {
        try? connection.emitSignal(
            path: path, interface: interface, member: member, body: body, destination: destination)
    }
}
