import Foundation
import KeychainCore

/// The items of a persistent collection: generic-password items of one access group of the keychain.
///
/// Mapping (both ways, so the `keychain` tool, the facade and D-Bus clients share items):
/// - attributes: the ``SecretServiceAttributes`` encoded in `generic` (kSecAttrGeneric) when it
///   holds one, else synthesized as `{"service": svce, "username": acct}` — so
///   `keyring.get_password("svc", "alice")` finds what `keychain add-generic-password -s svc -a alice` made;
/// - on create and on a change of attributes: `svce` ← `service`, `acct` ← `username`, else `user`,
///   else `account` (so `keychain find-generic-password -s svc -a alice` finds what Python keyring
///   stored), `labl` ← label, the full map in `generic`, the content type in `desc` unless `text/plain`;
/// - duplicates: the Secret Service allows items with equal attributes, the keychain's primary key
///   (account, service, group, …) does not. When an item's `svce`/`acct` collide with another's,
///   the new item gets `vwht` (kSecAttrSyncViewHint, part of the primary key and meaningless for
///   an item that does not sync) set to ``duplicateMarkerPrefix`` + a random UUID: `svce` and
///   `acct` stay exact, and a tool query by service and account finds every one of them;
/// - the object path element is the item's permanent UUID (its persistent reference).
///
/// While the keychain is locked, an item's attributes are encrypted and cannot be read or matched.
struct KeychainItemStore: ItemStore {
    /// The `vwht` of an item whose `svce`/`acct` equal another item's.
    static let duplicateMarkerPrefix = SecretServiceAttributes.duplicateViewHintPrefix

    let keychain: Keychain

    func items(group: String) throws(SecretServiceError) -> [StoredItem] {
        try run { () throws(KeychainError) in
            try keychain.findAll(Query(.genericPassword, synchronizable: .any, accessGroups: [group])).compactMap(
                Self.storedItem)
        }
    }

    /// Narrowed by the keychain's own lookup columns first: an item's service is its attribute
    /// `service` and its account its `username` (both set from the map on every write, and
    /// synthesized from them for items the tool made), so a query naming them reads only the items
    /// of that service and account rather than every item's encrypted attributes.
    func items(group: String, matching query: [String: String]) throws(SecretServiceError) -> [StoredItem] {
        var narrowing: [AttributeKey: AttributeValue] = [:]
        if let service = query["service"] { narrowing[.service] = .string(service) }
        if let username = query["username"] { narrowing[.account] = .string(username) }
        let candidates = try run { () throws(KeychainError) in
            try keychain.findAll(Query(.genericPassword, narrowing, synchronizable: .any, accessGroups: [group]))
                .compactMap(Self.storedItem)
        }
        return candidates.filter { $0.matches(query) }
    }

    func item(_ id: String, group: String) throws(SecretServiceError) -> StoredItem? {
        guard let query = Self.query(id, group: group) else { return nil }
        return try run { () throws(KeychainError) in try keychain.findAll(query).first.flatMap(Self.storedItem) }
    }

    func secret(_ id: String, group: String) throws(SecretServiceError) -> (secret: Data, contentType: String) {
        guard let query = Self.query(id, group: group) else { throw .noSuchObject(id) }
        let found = try run { () throws(KeychainError) in try keychain.find(query, returning: [.attributes, .data]) }
        guard let item = found.first, let stored = Self.storedItem(item) else { throw .noSuchObject(id) }
        return (item.data ?? Data(), stored.contentType)
    }

    func create(_ content: ItemContent, group: String) throws(SecretServiceError) -> StoredItem {
        var attributes = try Self.keychainAttributes(label: content.label, attributes: content.attributes)
        attributes[.accessGroup] = .string(group)
        if content.contentType != Self.defaultContentType {
            attributes[.itemDescription] = .string(content.contentType)
        }
        let found = try run { () throws(KeychainError) -> FoundItem in
            do throws(KeychainError) {
                return try keychain.add(
                    NewItem(.genericPassword, attributes: attributes, data: content.secret), returning: .attributes)
            } catch  where error.code == .duplicateItem {
                attributes[.syncViewHint] = .string(Self.duplicateMarkerPrefix + UUID().uuidString.lowercased())
                return try keychain.add(
                    NewItem(.genericPassword, attributes: attributes, data: content.secret), returning: .attributes)
            }
        }
        guard let stored = Self.storedItem(found) else { throw .noSuchObject(group) }
        return stored
    }

    func update(
        _ id: String, group: String, label: String?, attributes: [String: String]?, secret: (Data, String)?
    ) throws(SecretServiceError) {
        guard let query = Self.query(id, group: group) else { throw .noSuchObject(id) }
        var changes = ItemChanges()
        if let label { changes.attributes[.label] = .string(label) }
        if let attributes {
            for (key, value) in try Self.keychainAttributes(label: nil, attributes: attributes) {
                changes.attributes[key] = value
            }
        }
        if let (data, contentType) = secret {
            changes.data = data
            changes.attributes[.itemDescription] = .string(contentType == Self.defaultContentType ? "" : contentType)
        }
        let updated = try run { () throws(KeychainError) -> Int in
            do throws(KeychainError) {
                return try keychain.update(query, with: changes)
            } catch  where error.code == .duplicateItem {
                changes.attributes[.syncViewHint] = .string(
                    Self.duplicateMarkerPrefix + UUID().uuidString.lowercased())
                return try keychain.update(query, with: changes)
            }
        }
        guard updated > 0 else { throw .noSuchObject(id) }
    }

    func delete(_ id: String, group: String) throws(SecretServiceError) {
        guard let query = Self.query(id, group: group) else { throw .noSuchObject(id) }
        let deleted = try run { () throws(KeychainError) -> Int in try keychain.delete(query) }
        guard deleted > 0 else { throw .noSuchObject(id) }
    }

    func deleteAll(group: String) throws(SecretServiceError) {
        try run { () throws(KeychainError) in
            do throws(KeychainError) {
                _ = try keychain.delete(Query(.genericPassword, synchronizable: .any, accessGroups: [group]))
            } catch  where error.code == .itemNotFound {}
        }
    }

    // MARK: - Mapping

    static let defaultContentType = "text/plain"

    /// The keychain attributes an attribute map (and label) sets.
    static func keychainAttributes(label: String?, attributes: [String: String]) throws(SecretServiceError)
        -> [AttributeKey: AttributeValue]
    {
        let encoded: Data
        do {
            encoded = try SecretServiceAttributes(attributes).encodedWithinBounds()
        } catch {
            throw .invalidArgument("the attribute map encodes to more than 64 KiB")
        }
        var result: [AttributeKey: AttributeValue] = [
            .service: .string(attributes["service"] ?? ""),
            .account: .string(attributes["username"] ?? attributes["user"] ?? attributes["account"] ?? ""),
            .generic: .data(encoded)
        ]
        if let label { result[.label] = .string(label) }
        return result
    }

    /// The Secret Service view of a keychain item; `nil` for an item without a UUID reference.
    static func storedItem(_ found: FoundItem) -> StoredItem? {
        guard case .uuid(let uuid) = found.persistentReference.target else { return nil }
        let attributes = found.attributes
        let pairs: [String: String]
        if let generic = attributes[.generic]?.dataValue, let decoded = try? SecretServiceAttributes.decode(generic) {
            pairs = decoded.pairs
        } else {
            pairs = [
                "service": attributes[.service]?.stringValue ?? "", "username": attributes[.account]?.stringValue ?? ""
            ]
        }
        let contentType = attributes[.itemDescription]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        return StoredItem(
            id: uuid.pathElement, label: attributes[.label]?.stringValue ?? "", attributes: pairs,
            contentType: contentType ?? defaultContentType, created: seconds(attributes[.creationDate]),
            modified: seconds(attributes[.modificationDate]))
    }

    private static func seconds(_ value: AttributeValue?) -> UInt64 {
        UInt64(max(0, value?.dateValue?.timeIntervalSince1970 ?? 0))
    }

    /// The query for one item by its path element, within its group.
    private static func query(_ id: String, group: String) -> Query? {
        UUID(pathElement: id).map {
            Query(
                persistentReference: PersistentReference(itemClass: .genericPassword, uuid: $0), accessGroups: [group])
        }
    }

    private func run<Result>(_ body: () throws(KeychainError) -> Result) throws(SecretServiceError) -> Result {
        do { return try body() } catch { throw .keychain(error) }
    }
}
