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
            await broadcast(
                SecretObject.collectionPath(collection), SecretServiceNames.collectionInterface, "ItemDeleted",
                [.objectPath(canonical)])
            return [.objectPath(SecretServiceNames.noObject)]
        case "GetSecret":
            let session = try MethodArguments(member: member, body: body, signature: "o").string(0)
            _ = try sessions.cipher(session, caller: caller.uniqueName)
            _ = try existingItem(collection, id, path: path, caller)
            return [try secretValue(collection, id, session: session, caller).dbusValue]
        case "SetSecret":
            let secret = try MethodArguments(member: member, body: body, signature: SecretValue.signature).secret(0)
            var data = try openSecret(secret, caller)
            defer { _ = SecretWiping.wipe(&data) }
            _ = try existingItem(collection, id, path: path, caller)
            let contentType = secret.contentType.isEmpty ? "text/plain" : String(secret.contentType.prefix(256))
            try store(collection).update(
                id, group: group(collection, caller), label: nil, attributes: nil, secret: (data, contentType))
            await itemChanged(collection, canonical)
            return []
        default:
            throw SecretServiceError.unknownMethod(member, interface: SecretServiceNames.itemInterface, path: path)
        }
    }

    /// Tells listeners an item changed.
    func itemChanged(_ collection: String, _ itemPath: String) async {
        await broadcast(
            SecretObject.collectionPath(collection), SecretServiceNames.collectionInterface, "ItemChanged",
            [.objectPath(itemPath)])
    }
}
