import Foundation
import SecureStorageDBus

/// `org.freedesktop.Secret.Service` (spec 0.2, "org.freedesktop.Secret.Service").
extension SecretServiceObjects {
    func serviceMethod(_ member: String, _ body: [DBusValue], _ caller: SecretServiceCaller) async throws
        -> [DBusValue]
    {
        switch member {
        case "OpenSession":
            let arguments = try MethodArguments(member: member, body: body, signature: "sv")
            return try openSession(algorithm: arguments.string(0), input: body[1].unwrappingVariant, caller)
        case "CreateCollection":
            let arguments = try MethodArguments(member: member, body: body, signature: "a{sv}s")
            return try await createCollection(arguments, caller)
        case "SearchItems":
            let query = try MethodArguments(member: member, body: body, signature: "a{ss}").attributes(0)
            var unlocked: [String] = []
            for id in collections.ids(for: caller.scope) {
                unlocked += try items(of: id, caller, matching: query).map {
                    SecretObject.itemPath(collection: id, id: $0.id)
                }
            }
            return [.objectPaths(unlocked), .objectPaths([])]
        case "Unlock":
            let objects = try MethodArguments(member: member, body: body, signature: "ao").objectPaths(0)
            return try unlock(objects, caller)
        case "Lock":
            let objects = try MethodArguments(member: member, body: body, signature: "ao").objectPaths(0)
            return try await lock(objects, caller)
        case "GetSecrets":
            let arguments = try MethodArguments(member: member, body: body, signature: "aoo")
            let session = arguments.string(1)
            _ = try sessions.cipher(session, caller: caller.uniqueName)
            var entries: [DBusDictionaryEntry] = []
            for path in Set(arguments.objectPaths(0)).sorted() {
                guard case .item(let collection, let id)? = object(at: path, caller), !isLocked(collection),
                    let secret = try? secretValue(collection, id, session: session, caller)
                else { continue }
                entries.append(DBusDictionaryEntry(key: .objectPath(path), value: secret.dbusValue))
            }
            return [.dictionary(keySignature: "o", valueSignature: SecretValue.signature, entries)]
        case "ReadAlias":
            let name = try MethodArguments(member: member, body: body, signature: "s").string(0)
            let id = collections.resolveAlias(name, scope: caller.scope)
            return [.objectPath(id.map(SecretObject.collectionPath) ?? SecretServiceNames.noObject)]
        case "SetAlias":
            let arguments = try MethodArguments(member: member, body: body, signature: "so")
            return try await setAlias(arguments.string(0), arguments.string(1), caller)
        default:
            throw SecretServiceError.unknownMethod(member, interface: SecretServiceNames.serviceInterface, path: "/")
        }
    }

    private func openSession(algorithm: String, input: DBusValue, _ caller: SecretServiceCaller) throws
        -> [DBusValue]
    {
        switch algorithm {
        case SessionCipher.plainName:
            let path = try sessions.open(owner: caller.uniqueName, cipher: .plain)
            return [.variant(.string("")), .objectPath(path)]
        case SessionCipher.dhName:
            guard let clientKey = SecretValue.bytes(input) else {
                throw SecretServiceError.invalidArgument(
                    "the DH algorithm's input must be the client's public key (ay)")
            }
            let (cipher, publicKey) = try SessionCipher.agree(clientPublicKey: [UInt8](clientKey))
            let path = try sessions.open(owner: caller.uniqueName, cipher: cipher)
            return [.variant(SecretValue.byteArray(Data(publicKey))), .objectPath(path)]
        default:
            throw SecretServiceError.unsupportedAlgorithm(algorithm)
        }
    }

    private func createCollection(_ arguments: MethodArguments, _ caller: SecretServiceCaller) async throws
        -> [DBusValue]
    {
        guard !caller.scope.isSandboxed else { throw SecretServiceError.sandboxed("create collections") }
        let alias = arguments.string(1)
        if !alias.isEmpty, let existing = collections.resolveAlias(alias, scope: caller.scope) {
            return [.objectPath(SecretObject.collectionPath(existing)), .objectPath(SecretServiceNames.noObject)]
        }
        guard !unlocker.isLocked else { throw SecretServiceError.locked(SecretServiceNames.servicePath) }
        let properties = arguments.properties(0)
        let label = properties[SecretServiceNames.collectionInterface + ".Label"]?.stringValue ?? ""
        if !alias.isEmpty { try Self.checkAlias(alias) }
        let id = try collections.create(label: label)
        if !alias.isEmpty { try collections.setAlias(alias, to: id) }
        let path = SecretObject.collectionPath(id)
        await broadcast(
            SecretServiceNames.servicePath, SecretServiceNames.serviceInterface, "CollectionCreated",
            [.objectPath(path)])
        return [.objectPath(path), .objectPath(SecretServiceNames.noObject)]
    }

    private func setAlias(_ name: String, _ path: String, _ caller: SecretServiceCaller) async throws -> [DBusValue] {
        guard !caller.scope.isSandboxed else { throw SecretServiceError.sandboxed("change aliases") }
        try Self.checkAlias(name)
        if path == SecretServiceNames.noObject {
            try collections.setAlias(name, to: nil)
            return []
        }
        guard case .collection(let id)? = object(at: path, caller) else { throw SecretServiceError.noSuchObject(path) }
        try collections.setAlias(name, to: id)
        return []
    }

    static func checkAlias(_ name: String) throws {
        guard (1...64).contains(name.count),
            name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
            })
        else { throw SecretServiceError.invalidAlias() }
    }

    /// `Unlock`: what is not locked comes back at once; the rest waits for a prompt.
    private func unlock(_ paths: [String], _ caller: SecretServiceCaller) throws -> [DBusValue] {
        var unlocked: [String] = []
        var needing: [String] = []
        for path in paths {
            guard let object = object(at: path, caller) else { continue }
            switch object {
            case .collection(let id), .item(let id, _):
                if isLocked(id) { needing.append(path) } else { unlocked.append(path) }
            default: continue
            }
        }
        guard !needing.isEmpty else { return [.objectPaths(unlocked), .objectPath(SecretServiceNames.noObject)] }
        let prompt = try prompts.create(caller: caller, objects: needing)
        return [.objectPaths(unlocked), .objectPath(prompt)]
    }

    /// `Lock`: the keychain locks for every process; the session collection cannot lock.
    private func lock(_ paths: [String], _ caller: SecretServiceCaller) async throws -> [DBusValue] {
        let keychainObjects = paths.filter {
            switch object(at: $0, caller) {
            case .collection(let id)?, .item(let id, _)?: id != "session"
            default: false
            }
        }
        // Locking a keychain collection locks the whole keychain for every process of the user:
        // a sandboxed app may not do that to the user's tools and other apps.
        if !keychainObjects.isEmpty && caller.scope.isSandboxed {
            throw SecretServiceError.sandboxed("lock the keychain")
        }
        if !keychainObjects.isEmpty && !unlocker.isLocked { try await unlocker.lock() }
        return [.objectPaths(unlocker.isLocked ? keychainObjects : []), .objectPath(SecretServiceNames.noObject)]
    }
}
