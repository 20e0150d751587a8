import Foundation

/// One item of a collection as the Secret Service shows it: its id (the last element of its object
/// path), label, attribute map, content type and dates. Never holds the secret.
struct StoredItem: Sendable, Hashable {
    /// 32 lowercase hex digits: the keychain item's permanent UUID, so the path lives as long as the item.
    var id: String
    /// The item's label (`labl`).
    var label: String
    /// The Secret Service attributes.
    var attributes: [String: String]
    /// The secret's content type (`text/plain` unless the client said otherwise).
    var contentType: String
    /// Seconds since 1970.
    var created: UInt64
    /// Seconds since 1970.
    var modified: UInt64

    /// Whether every pair of `query` is in this item's attributes (the spec's match rule; an empty
    /// query matches every item).
    func matches(_ query: [String: String]) -> Bool { query.allSatisfy { attributes[$0.key] == $0.value } }
}

/// A new item's or a changed item's content, as a client sent it.
struct ItemContent: Sendable {
    var label: String
    var attributes: [String: String]
    var secret: Data
    var contentType: String
}

/// Where the items of one collection live: the keychain (``KeychainItemStore``) or this process's
/// memory (``MemoryItemStore``). `group` separates callers: the keychain access group for the
/// keychain, the caller scope's group for memory.
protocol ItemStore: Sendable {
    /// Every item of `group`.
    func items(group: String) throws(SecretServiceError) -> [StoredItem]
    /// The items of `group` whose attributes include every pair of `query`.
    func items(group: String, matching query: [String: String]) throws(SecretServiceError) -> [StoredItem]
    /// The item `id` of `group`, or `nil`.
    func item(_ id: String, group: String) throws(SecretServiceError) -> StoredItem?
    /// The secret and content type of item `id` of `group`.
    func secret(_ id: String, group: String) throws(SecretServiceError) -> (secret: Data, contentType: String)
    /// Stores a new item in `group`.
    func create(_ content: ItemContent, group: String) throws(SecretServiceError) -> StoredItem
    /// Changes item `id`: a `nil` field keeps its value.
    func update(
        _ id: String, group: String, label: String?, attributes: [String: String]?, secret: (Data, String)?
    ) throws(SecretServiceError)
    /// Deletes item `id` of `group`.
    func delete(_ id: String, group: String) throws(SecretServiceError)
    /// Deletes every item of `group` (a deleted collection).
    func deleteAll(group: String) throws(SecretServiceError)
}

extension UUID {
    /// The 32 lowercase hex digits of this UUID: a valid D-Bus object path element.
    var pathElement: String { uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    /// The UUID of a path element made by ``pathElement``.
    init?(pathElement: String) {
        guard pathElement.count == 32, pathElement.allSatisfy(\.isHexDigit) else { return nil }
        let hex = Array(pathElement)
        let dashed = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
        self.init(uuidString: dashed)
    }
}
