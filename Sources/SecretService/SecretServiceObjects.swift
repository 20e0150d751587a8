import Foundation
import KeychainCore
import SecureStorageDBus
import SecureStorageFoundation

/// The Secret Service's object tree over the keychain: it answers one method call at a time from
/// a caller already identified, and emits signals through a ``SecretServiceSignalSink``.
///
/// It knows nothing of the bus connection (``SecretServiceProvider`` feeds it), so every method
/// can be exercised without a bus. The interfaces' methods are in `Objects+<Interface>.swift`.
final class SecretServiceObjects: Sendable {
    let unlocker: any SecretServiceUnlocker
    let loginGroup: String
    let collections: CollectionRegistry
    let keychainStore: KeychainItemStore
    let memoryStore = MemoryItemStore()
    let sessions = SessionRegistry()
    let prompts = PromptRegistry()
    let signals: any SecretServiceSignalSink

    init(
        keychain: Keychain, unlocker: any SecretServiceUnlocker, loginGroup: String,
        signals: any SecretServiceSignalSink
    ) {
        self.unlocker = unlocker
        self.loginGroup = loginGroup
        self.collections = CollectionRegistry(keychain: keychain)
        self.keychainStore = KeychainItemStore(keychain: keychain)
        self.signals = signals
    }

    /// One method call from `caller`; the reply's values or the error to send.
    func handle(
        path: String, interface: String?, member: String, body: [DBusValue], caller: SecretServiceCaller
    ) async -> Result<[DBusValue], SecretServiceError> {
        do {
            return .success(try await dispatch(path: path, interface: interface, member: member, body: body, caller))
        } catch let error as SecretServiceError {
            return .failure(error)
        } catch let error as KeychainError {
            return .failure(.keychain(error))
        } catch {
            return .failure(.unexpected())
        }
    }

    private func dispatch(
        path: String, interface: String?, member: String, body: [DBusValue], _ caller: SecretServiceCaller
    ) async throws -> [DBusValue] {
        switch interface {
        case "org.freedesktop.DBus.Introspectable":
            _ = try MethodArguments(member: member, body: body, signature: "")
            guard member == "Introspect" else {
                throw SecretServiceError.unknownMethod(member, interface: interface, path: path)
            }
            return [.string(try introspect(path, caller))]
        case "org.freedesktop.DBus.Peer":
            guard member == "Ping" else {
                throw SecretServiceError.unknownMethod(member, interface: interface, path: path)
            }
            return []
        default: break
        }
        guard let object = object(at: path, caller) else {
            if member == "Introspect" { return [.string(try introspect(path, caller))] }
            throw SecretServiceError.unknownObject(path)
        }
        if interface == "org.freedesktop.DBus.Properties" {
            return try await properties(object, path: path, member: member, body: body, caller)
        }
        let expected = Self.interface(of: object)
        guard interface == nil || interface == expected else {
            throw SecretServiceError.unknownMethod(member, interface: interface, path: path)
        }
        switch object {
        case .service: return try await serviceMethod(member, body, caller)
        case .collection(let id): return try await collectionMethod(id, path: path, member, body, caller)
        case .item(let collection, let id):
            return try await itemMethod(collection, id, path: path, member, body, caller)
        case .session(let session): return try sessionMethod(session, member, body, caller)
        case .prompt(let prompt): return try promptMethod(prompt, member, body, caller)
        }
    }

    /// The interface of an object's own methods.
    static func interface(of object: SecretObject) -> String {
        switch object {
        case .service: SecretServiceNames.serviceInterface
        case .collection: SecretServiceNames.collectionInterface
        case .item: SecretServiceNames.itemInterface
        case .session: SecretServiceNames.sessionInterface
        case .prompt: SecretServiceNames.promptInterface
        }
    }

    // MARK: - Objects and their existence

    /// The object at `path` if it exists for `caller`. An item of a locked keychain collection is
    /// taken to exist when its id is a UUID (its attributes cannot be read to check).
    func object(at path: String, _ caller: SecretServiceCaller) -> SecretObject? {
        guard
            let object = SecretObject.parse(
                path, resolveAlias: { self.collections.resolveAlias($0, scope: caller.scope) })
        else { return nil }
        switch object {
        case .service: return object
        case .collection(let id): return collections.info(id, scope: caller.scope) == nil ? nil : object
        case .item(let collection, let id):
            guard collections.info(collection, scope: caller.scope) != nil else { return nil }
            if isLocked(collection) { return UUID(pathElement: id) == nil ? nil : object }
            return (try? store(collection).item(id, group: group(collection, caller))) == nil ? nil : object
        case .session(let session): return sessions.exists(session, caller: caller.uniqueName) ? object : nil
        case .prompt(let prompt): return prompts.exists(prompt, owner: caller.uniqueName) ? object : nil
        }
    }

    /// Whether a collection's items are unavailable: the keychain ones follow the keychain's lock.
    func isLocked(_ collection: String) -> Bool { collection == "session" ? false : unlocker.isLocked }

    /// Where a collection's items live.
    func store(_ collection: String) -> any ItemStore { collection == "session" ? memoryStore : keychainStore }

    /// The group of a collection's items for `caller`.
    func group(_ collection: String, _ caller: SecretServiceCaller) -> String {
        switch collection {
        case "login": caller.scope.accessGroup(login: loginGroup)
        case "session": caller.scope.accessGroup(login: "unsandboxed")
        default: CollectionRegistry.createdGroupPrefix + collection
        }
    }

    /// The items of `collection` visible to `caller` (none while it is locked).
    func items(of collection: String, _ caller: SecretServiceCaller) throws -> [StoredItem] {
        if isLocked(collection) { return [] }
        return try store(collection).items(group: group(collection, caller))
    }

    /// The items of `collection` visible to `caller` whose attributes include every pair of `query`.
    func items(of collection: String, _ caller: SecretServiceCaller, matching query: [String: String]) throws
        -> [StoredItem]
    {
        if isLocked(collection) { return [] }
        return try store(collection).items(group: group(collection, caller), matching: query)
    }

    /// The item `id` of `collection`, or ``SecretServiceError/noSuchObject(_:)``; IsLocked while locked.
    func existingItem(_ collection: String, _ id: String, path: String, _ caller: SecretServiceCaller) throws
        -> StoredItem
    {
        guard !isLocked(collection) else { throw SecretServiceError.locked(path) }
        guard let item = try store(collection).item(id, group: group(collection, caller)) else {
            throw SecretServiceError.noSuchObject(path)
        }
        return item
    }

    /// The `(oayays)` of item `id` for `session`.
    func secretValue(_ collection: String, _ id: String, session: String, _ caller: SecretServiceCaller) throws
        -> SecretValue
    {
        let cipher = try sessions.cipher(session, caller: caller.uniqueName)
        var (secret, contentType) = try store(collection).secret(id, group: group(collection, caller))
        defer { _ = SecretWiping.wipe(&secret) }
        let (parameters, value) = try cipher.seal(secret)
        return SecretValue(session: session, parameters: parameters, value: value, contentType: contentType)
    }

    /// The secret a client sent, opened with its session.
    func openSecret(_ secret: SecretValue, _ caller: SecretServiceCaller) throws -> Data {
        let cipher = try sessions.cipher(secret.session, caller: caller.uniqueName)
        let data = try cipher.open(parameters: secret.parameters, value: secret.value)
        guard data.count <= MethodArguments.secretByteLimit else {
            throw SecretServiceError.secretTooLarge(size: data.count, limit: MethodArguments.secretByteLimit)
        }
        return data
    }

    /// Emits a signal to everyone listening.
    func broadcast(_ path: String, _ interface: String, _ member: String, _ body: [DBusValue]) async {
        await signals.emit(path: path, interface: interface, member: member, body: body, destination: nil)
    }

    /// A client left the bus: its sessions close and its prompts go.
    func clientLeft(_ uniqueName: String) {
        sessions.closeAll(of: uniqueName)
        prompts.dismissAll(of: uniqueName)
    }

    /// The keychain's lock state changed: collections are re-read, listeners told.
    func lockStateChanged(locked: Bool) async {
        if !locked { collections.reload() }
        for id in collections.ids(for: .unsandboxed) where id != "session" {
            let path = SecretObject.collectionPath(id)
            await broadcast(
                path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                [
                    .string(SecretServiceNames.collectionInterface),
                    .dictionary(
                        keySignature: "s", valueSignature: "v",
                        [DBusDictionaryEntry(key: .string("Locked"), value: .variant(.boolean(locked)))]),
                    .array(elementSignature: "s", [])
                ])
            await broadcast(
                SecretServiceNames.servicePath, SecretServiceNames.serviceInterface, "CollectionChanged",
                [.objectPath(path)])
        }
    }
}
