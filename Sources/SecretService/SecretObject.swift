/// What an object path names, parsed from the path alone (existence is checked by the dispatcher).
///
/// Paths: the service `/org/freedesktop/secrets`; collections `…/collection/<id>`, reachable too as
/// `…/aliases/<alias>`; items `<collection path>/<item id>`; sessions `…/session/<id>`; prompts
/// `…/prompt/<id>`.
enum SecretObject: Sendable, Hashable {
    /// The service object.
    case service
    /// A collection, by id (aliases resolved).
    case collection(String)
    /// An item: its collection's id and its own id.
    case item(collection: String, id: String)
    /// A session, by full path.
    case session(String)
    /// A prompt, by full path.
    case prompt(String)

    /// The canonical path of a collection.
    static func collectionPath(_ id: String) -> String { SecretServiceNames.collectionPrefix + id }

    /// The canonical path of an item.
    static func itemPath(collection: String, id: String) -> String { collectionPath(collection) + "/" + id }

    /// Parses `path`; `resolveAlias` maps an alias name to a collection id.
    static func parse(_ path: String, resolveAlias: (String) -> String?) -> SecretObject? {
        if path == SecretServiceNames.servicePath { return .service }
        for prefix in [SecretServiceNames.collectionPrefix, SecretServiceNames.aliasPrefix] where path.hasPrefix(prefix)
        {
            let rest = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            guard (1...2).contains(rest.count), rest.allSatisfy({ !$0.isEmpty }) else { return nil }
            let name = String(rest[0])
            guard let id = prefix == SecretServiceNames.aliasPrefix ? resolveAlias(name) : name else { return nil }
            return rest.count == 1 ? .collection(id) : .item(collection: id, id: String(rest[1]))
        }
        for (prefix, make) in [
            (SecretServiceNames.sessionPrefix, SecretObject.session),
            (SecretServiceNames.promptPrefix, SecretObject.prompt)
        ] where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            return rest.isEmpty || rest.contains("/") ? nil : make(path)
        }
        return nil
    }
}
