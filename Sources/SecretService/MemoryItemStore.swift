import Foundation
import SecureStorageFoundation

/// The items of the `session` collection: in this process's memory only, gone when it exits.
final class MemoryItemStore: ItemStore {
    private struct Entry {
        var item: StoredItem
        var group: String
        var secret: Data
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

    func create(_ content: ItemContent, group: String) -> StoredItem {
        let now = UInt64(Date().timeIntervalSince1970)
        let item = StoredItem(
            id: UUID().pathElement, label: content.label, attributes: content.attributes,
            contentType: content.contentType, created: now, modified: now)
        entries.withLock { $0[item.id] = Entry(item: item, group: group, secret: content.secret) }
        return item
    }

    func update(
        _ id: String, group: String, label: String?, attributes: [String: String]?, secret: (Data, String)?
    ) throws(SecretServiceError) {
        try entries.withLock { entries throws(SecretServiceError) in
            guard var entry = entries[id], entry.group == group else { throw .noSuchObject(id) }
            if let label { entry.item.label = label }
            if let attributes { entry.item.attributes = attributes }
            if let (data, contentType) = secret {
                entry.secret = data
                entry.item.contentType = contentType
            }
            entry.item.modified = UInt64(Date().timeIntervalSince1970)
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
