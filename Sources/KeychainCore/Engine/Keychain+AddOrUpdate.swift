import Foundation
import GRDB

/// What ``Keychain/addOrUpdate(_:)`` did.
public enum AddOrUpdateOutcome: Sendable, Hashable {
    /// No item had the primary key; the item was added.
    case added
    /// The item with the same primary key was updated.
    case updated
}

extension Keychain {
    /// Adds the item or, when an item with the same primary key exists (the item `add` would
    /// collide with), updates exactly that item: its data and every given attribute outside the
    /// primary key. One transaction, so no other writer can slip in between.
    ///
    /// ```swift
    /// try keychain.addOrUpdate(NewItem(.genericPassword, attributes: [.service: "api", .account: "ci"],
    ///                                  data: token, accessibility: .afterFirstUnlock))
    /// ```
    ///
    /// - Throws: as ``add(_:returning:)`` and ``update(_:with:)``; `.interactionNotAllowed` when
    ///   the existing item's class or the new one is locked (nothing changes).
    @discardableResult
    public func addOrUpdate(_ item: NewItem) throws(KeychainError) -> AddOrUpdateOutcome {
        guard item.itemClass.isStored else {
            throw KeychainError(.invalidParameter, "An identity cannot be added or updated on its own: use its certificate and private key items.")
        }
        let now = Date()
        let attributes = try ItemAttributes.forNewItem(item, defaultAccessGroup: options.defaultAccessGroup, now: now)
        let primaryKeyIndex = ItemIndexes(itemClass: item.itemClass, attributes: attributes, indexer: keys.indexer).primaryKey
        let primaryKey = Set(ItemSchema.of(item.itemClass).primaryKey)
        let changes = try ItemAttributes.coerce(item.attributes, for: item.itemClass).filter { !primaryKey.contains($0.key) }
        return try write { db -> AddOrUpdateOutcome in
            let existing = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM items WHERE primary_key_index = ?"), arguments: [primaryKeyIndex])
            guard let existing else {
                _ = try self.insert(item.itemClass, attributes: attributes, data: item.data ?? Data(), db)
                return .added
            }
            let current = try self.open(self.row(id: existing, db), includingData: true)
            try self.rewrite(current, attributes: ItemAttributes.applying(changes, to: current.attributes, itemClass: item.itemClass, now: now),
                             data: item.data ?? current.data ?? Data(), db)
            return .updated
        }
    }
}
