import Foundation
import SecureStorageDBus
import SecureStorageFoundation

/// `org.freedesktop.Secret.Collection` (spec 0.2).
extension SecretServiceObjects {
    func collectionMethod(
        _ id: String, path: String, _ member: String, _ body: [DBusValue], _ caller: SecretServiceCaller
    ) async throws -> [DBusValue] {
        let canonical = SecretObject.collectionPath(id)
        switch member {
        case "Delete":
            _ = try MethodArguments(member: member, body: body, signature: "")
            guard !caller.scope.isSandboxed else { throw SecretServiceError.sandboxed("delete collections") }
            guard id != "login" && id != "session" else { throw SecretServiceError.permanentCollection(canonical) }
            guard !isLocked(id) else { throw SecretServiceError.locked(canonical) }
            try store(id).deleteAll(group: group(id, caller))
            try collections.remove(id)
            await broadcast(
                SecretServiceNames.servicePath, SecretServiceNames.serviceInterface, "CollectionDeleted",
                [.objectPath(canonical)])
            return [.objectPath(SecretServiceNames.noObject)]
        case "SearchItems":
            let query = try MethodArguments(member: member, body: body, signature: "a{ss}").attributes(0)
            return [
                .objectPaths(
                    try items(of: id, caller, matching: query).map {
                        SecretObject.itemPath(collection: id, id: $0.id)
                    })
            ]
        case "CreateItem":
            let arguments = try MethodArguments(
                member: member, body: body, signature: "a{sv}" + SecretValue.signature + "b")
            return try await createItem(in: id, arguments, caller)
        default:
            throw SecretServiceError.unknownMethod(
                member, interface: SecretServiceNames.collectionInterface, path: path)
        }
    }

    private func createItem(in id: String, _ arguments: MethodArguments, _ caller: SecretServiceCaller) async throws
        -> [DBusValue]
    {
        let canonical = SecretObject.collectionPath(id)
        let properties = arguments.properties(0)
        let label = properties[SecretServiceNames.itemInterface + ".Label"]?.stringValue ?? ""
        let attributes =
            try properties[SecretServiceNames.itemInterface + ".Attributes"].map(MethodArguments.attributes)
            ?? [:]
        let secret = try arguments.secret(1)
        var data = try openSecret(secret, caller)
        defer { _ = SecretWiping.wipe(&data) }
        guard !isLocked(id) else { throw SecretServiceError.locked(canonical) }
        let store = store(id)
        let group = group(id, caller)
        let contentType = secret.contentType.isEmpty ? "text/plain" : String(secret.contentType.prefix(256))
        if arguments.boolean(2),
            let existing = try store.items(group: group, matching: attributes).first(where: {
                $0.attributes == attributes
            })
        {
            try store.update(existing.id, group: group, label: label, attributes: nil, secret: (data, contentType))
            let path = SecretObject.itemPath(collection: id, id: existing.id)
            await itemSignal("ItemChanged", id, path, caller)
            return [.objectPath(path), .objectPath(SecretServiceNames.noObject)]
        }
        let item = try store.create(
            ItemContent(label: label, attributes: attributes, secret: data, contentType: contentType), group: group)
        let path = SecretObject.itemPath(collection: id, id: item.id)
        await itemSignal("ItemCreated", id, path, caller)
        return [.objectPath(path), .objectPath(SecretServiceNames.noObject)]
    }
}
