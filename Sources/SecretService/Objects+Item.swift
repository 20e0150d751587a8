import Foundation
import SecureStorageDBus
import SecureStorageFoundation

/// `org.freedesktop.Secret.Item` (spec 0.2).
extension SecretServiceObjects {
    func itemMethod(
        _ collection: String, _ id: String, path: String, _ member: String, _ body: [DBusValue],
        _ caller: SecretServiceCaller
    ) async throws -> [DBusValue] {
        let canonical = SecretObject.itemPath(collection: collection, id: id)
        switch member {
        case "Delete":
            _ = try MethodArguments(member: member, body: body, signature: "")
            _ = try existingItem(collection, id, path: path, caller)
            try store(collection).delete(id, group: group(collection, caller))
            await itemSignal("ItemDeleted", collection, canonical, caller)
            return [.objectPath(SecretServiceNames.noObject)]
        case "GetSecret":
            let session = try MethodArguments(member: member, body: body, signature: "o").string(0)
            _ = try sessions.cipher(session, caller: caller.uniqueName)
            // The item's existence was checked when its path was resolved; reading the secret
            // checks it again, so only the lock is checked here (one keychain read fewer).
            guard !isLocked(collection) else { throw SecretServiceError.locked(path) }
            return [try secretValue(collection, id, session: session, caller).dbusValue]
        case "SetSecret":
            let secret = try MethodArguments(member: member, body: body, signature: SecretValue.signature).secret(0)
            var data = try openSecret(secret, caller)
            defer { _ = SecretWiping.wipe(&data) }
            _ = try existingItem(collection, id, path: path, caller)
            let contentType = secret.contentType.isEmpty ? "text/plain" : String(secret.contentType.prefix(256))
            try store(collection).update(
                id, group: group(collection, caller), label: nil, attributes: nil, secret: (data, contentType))
            await itemSignal("ItemChanged", collection, canonical, caller)
            return []
        default:
            throw SecretServiceError.unknownMethod(member, interface: SecretServiceNames.itemInterface, path: path)
        }
    }

    /// Emits `ItemCreated`, `ItemDeleted` or `ItemChanged` from the item's collection: to every
    /// listener for an unsandboxed caller's item (as gnome-keyring does; the body is the item's
    /// path, a UUID, never an attribute), to the caller alone for a sandboxed app's item, so that
    /// other apps do not learn that it stores something.
    func itemSignal(_ member: String, _ collection: String, _ itemPath: String, _ caller: SecretServiceCaller) async {
        await signals.emit(
            path: SecretObject.collectionPath(collection), interface: SecretServiceNames.collectionInterface,
            member: member, body: [.objectPath(itemPath)],
            destination: caller.scope.isSandboxed ? caller.uniqueName : nil)
    }
}
