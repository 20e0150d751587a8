import Foundation
import SecureStorageFoundation

/// The items of the `session` collection: in this process's memory only, gone when it exits.
///
/// Bounded, since the agent's memory is locked into RAM and holds the user's unlock: each caller
/// scope (the unsandboxed user, each Flatpak app) holds at most ``itemsPerGroup`` items and
/// ``bytesPerGroup`` bytes (secrets, labels and attributes), and all scopes together at most
/// ``bytesInAll``; past that, a create or a growing update is refused with `LimitsExceeded`.
final class MemoryItemStore: ItemStore {
    /// The most items one caller scope keeps in the session collection.
    static let itemsPerGroup = 1_024
    /// The most bytes one caller scope keeps in the session collection.
    static let bytesPerGroup = 16 << 20
    /// The most bytes the session collection keeps in all.
    static let bytesInAll = 64 << 20

    private struct Entry {
        var item: StoredItem
        var group: String
        var secret: Data

        /// What the entry costs against the limits.
        var size: Int { Self.size(label: item.label, attributes: item.attributes, secret: secret) }

        static func size(label: String, attributes: [String: String], secret: Data) -> Int {
            secret.count + label.utf8.count + attributes.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }
    }

    /// Refuses a change that would take `group` (or the whole store) past a limit: `adding` items,
    /// `growth` bytes.
    private static func checkLimits(_ entries: [String: Entry], group: String, adding: Int, growth: Int)
        throws(SecretServiceError)
    {
        let inGroup = entries.values.filter { $0.group == group }
        if adding > 0, inGroup.count + adding > itemsPerGroup {
            throw .tooMany("items in the session collection", limit: itemsPerGroup)
        }
        guard growth > 0 else { return }
        if inGroup.reduce(0, { $0 + $1.size }) + growth > bytesPerGroup {
            throw .tooMany("bytes in the session collection", limit: bytesPerGroup)
        }
        if entries.values.reduce(0, { $0 + $1.size }) + growth > bytesInAll {
            throw .tooMany("bytes in the session collection of all applications", limit: bytesInAll)
        }
    }

    private let entries = Locked([String: Entry]())

    func items(group: String, matching query: [String: String]) -> [StoredItem] {
        items(group: group).filter { $0.matches(query) }
    }

    func items(group: String) -> [StoredItem] {
        entries.withLock { $0.values.filter { $0.group == group }.map(\.item).sorted { $0.created < $1.created } }
    }

    func item(_ id: String, group: String) -> StoredItem? {
        entries.withLock { $0[id].flatMap { $0.group == group ? $0.item : nil } }
    }

    func secret(_ id: String, group: String) throws(SecretServiceError) -> (secret: Data, contentType: String) {
        guard let entry = entries.withLock({ $0[id] }), entry.group == group else { throw .noSuchObject(id) }
        return (entry.secret, entry.item.contentType)
    }

    func create(_ content: ItemContent, group: String) throws(SecretServiceError) -> StoredItem {
        let now = UInt64(Date().timeIntervalSince1970)
        let item = StoredItem(
            id: UUID().pathElement, label: content.label, attributes: content.attributes,
            contentType: content.contentType, created: now, modified: now)
        let entry = Entry(item: item, group: group, secret: content.secret)
        try entries.withLock { entries throws(SecretServiceError) in
            try Self.checkLimits(entries, group: group, adding: 1, growth: entry.size)
            entries[item.id] = entry
        }
        return item
    }

    func update(
        _ id: String, group: String, label: String?, attributes: [String: String]?, secret: (Data, String)?
    ) throws(SecretServiceError) {
        try entries.withLock { entries throws(SecretServiceError) in
            guard var entry = entries[id], entry.group == group else { throw .noSuchObject(id) }
            let before = entry.size
            if let label { entry.item.label = label }
            if let attributes { entry.item.attributes = attributes }
            if let (data, contentType) = secret {
                entry.secret = data
                entry.item.contentType = contentType
            }
            entry.item.modified = UInt64(Date().timeIntervalSince1970)
            try Self.checkLimits(entries, group: group, adding: 0, growth: entry.size - before)
            entries[id] = entry
        }
    }

    func delete(_ id: String, group: String) throws(SecretServiceError) {
        try entries.withLock { entries throws(SecretServiceError) in
            guard entries[id]?.group == group else { throw .noSuchObject(id) }
            entries[id] = nil
        }
    }

    func deleteAll(group: String) { entries.withLock { $0 = $0.filter { $0.value.group != group } } }
}
