import SecureStorageDBus

/// `org.freedesktop.DBus.Properties` of the service, collections and items.
extension SecretServiceObjects {
    func properties(
        _ object: SecretObject, path: String, member: String, body: [DBusValue], _ caller: SecretServiceCaller
    ) async throws -> [DBusValue] {
        let own = Self.interface(of: object)
        switch member {
        case "Get":
            let arguments = try MethodArguments(member: member, body: body, signature: "ss")
            try checkInterface(arguments.string(0), own)
            let all = try propertyValues(object, path: path, caller)
            guard let value = all[arguments.string(1)] else {
                throw SecretServiceError.unknownProperty(arguments.string(1), interface: own)
            }
            return [.variant(value)]
        case "GetAll":
            let arguments = try MethodArguments(member: member, body: body, signature: "s")
            try checkInterface(arguments.string(0), own)
            let all = try propertyValues(object, path: path, caller)
            return [
                .dictionary(
                    keySignature: "s", valueSignature: "v",
                    all.sorted { $0.key < $1.key }.map {
                        DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
                    })
            ]
        case "Set":
            let arguments = try MethodArguments(member: member, body: body, signature: "ssv")
            try checkInterface(arguments.string(0), own)
            try await setProperty(
                object, path: path, name: arguments.string(1), value: body[2].unwrappingVariant, caller)
            return []
        default:
            throw SecretServiceError.unknownMethod(member, interface: "org.freedesktop.DBus.Properties", path: path)
        }
    }

    private func checkInterface(_ asked: String, _ own: String) throws {
        guard asked.isEmpty || asked == own else { throw SecretServiceError.unknownProperty("*", interface: asked) }
    }

    /// Every property of `object`.
    private func propertyValues(_ object: SecretObject, path: String, _ caller: SecretServiceCaller) throws
        -> [String: DBusValue]
    {
        switch object {
        case .service:
            return ["Collections": .objectPaths(collections.ids(for: caller.scope).map(SecretObject.collectionPath))]
        case .collection(let id):
            guard let info = collections.info(id, scope: caller.scope) else {
                throw SecretServiceError.noSuchObject(path)
            }
            return [
                "Items": .objectPaths(
                    try items(of: id, caller).map { SecretObject.itemPath(collection: id, id: $0.id) }),
                "Label": .string(info.label), "Locked": .boolean(isLocked(id)), "Created": .uint64(info.created),
                "Modified": .uint64(info.modified)
            ]
        case .item(let collection, let id):
            if isLocked(collection) { return ["Locked": .boolean(true)] }
            let item = try existingItem(collection, id, path: path, caller)
            return [
                "Locked": .boolean(false), "Attributes": .stringDictionary(item.attributes),
                "Label": .string(item.label),
                "Created": .uint64(item.created), "Modified": .uint64(item.modified), "Type": .string("")
            ]
        case .session, .prompt:
            return [:]
        }
    }

    private func setProperty(
        _ object: SecretObject, path: String, name: String, value: DBusValue, _ caller: SecretServiceCaller
    ) async throws {
        switch (object, name) {
        case (.collection(let id), "Label"):
            guard case .string(let label) = value else { throw SecretServiceError.invalidArgument("Label is a string") }
            guard !caller.scope.isSandboxed else { throw SecretServiceError.sandboxed("rename collections") }
            guard id != "session" else {
                throw SecretServiceError.readOnlyProperty(name, interface: Self.interface(of: object))
            }
            try collections.setLabel(String(label.prefix(1024)), of: id)
            await propertyChanged(path, SecretServiceNames.collectionInterface, name, value)
        case (.item(let collection, let id), "Label"):
            guard case .string(let label) = value else { throw SecretServiceError.invalidArgument("Label is a string") }
            _ = try existingItem(collection, id, path: path, caller)
            try store(collection).update(
                id, group: group(collection, caller), label: String(label.prefix(1024)), attributes: nil, secret: nil)
            await itemSignal("ItemChanged", collection, SecretObject.itemPath(collection: collection, id: id), caller)
        case (.item(let collection, let id), "Attributes"):
            let attributes = try MethodArguments.attributes(value)
            _ = try existingItem(collection, id, path: path, caller)
            try store(collection).update(
                id, group: group(collection, caller), label: nil, attributes: attributes, secret: nil)
            await itemSignal("ItemChanged", collection, SecretObject.itemPath(collection: collection, id: id), caller)
        default:
            let all = try propertyValues(object, path: path, caller)
            if all[name] != nil {
                throw SecretServiceError.readOnlyProperty(name, interface: Self.interface(of: object))
            }
            throw SecretServiceError.unknownProperty(name, interface: Self.interface(of: object))
        }
    }

    private func propertyChanged(_ path: String, _ interface: String, _ name: String, _ value: DBusValue) async {
        await broadcast(
            path, "org.freedesktop.DBus.Properties", "PropertiesChanged",
            [
                .string(interface),
                .dictionary(
                    keySignature: "s", valueSignature: "v",
                    [DBusDictionaryEntry(key: .string(name), value: .variant(value))]),
                .array(elementSignature: "s", [])
            ])
    }
}
