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
            throw KeychainError.identityWrittenAlone()
        }
        let now = Date()
        let attributes = try ItemAttributes.forNewItem(item, defaultAccessGroup: options.defaultAccessGroup, now: now)
        let primaryKeyIndex = ItemIndexes(itemClass: item.itemClass, attributes: attributes, indexer: keys.indexer)
            .primaryKey
        let primaryKey = Set(ItemSchema.of(item.itemClass).primaryKey)
        let changes = try ItemAttributes.coerce(item.attributes, for: item.itemClass).filter {
            !primaryKey.contains($0.key)
        }
        // Replacing an existing item's access control needs the authentication its policy asks
        // for, before the transaction (a prompt never holds the database).
        var authorization = RewriteAuthorization()
        if changes[.accessControl] != nil {
            let existingItem = try read { db in
                try self.existingRow(primaryKeyIndex, db).map {
                    try self.open(self.row(id: $0, db), includingData: false)
                }
            }
            authorization = try authorizeRewrite(
                of: existingItem.map { [$0] } ?? [], newPolicy: changes[.accessControl],
                options: AuthenticationOptions())
        }
        return try write { db -> AddOrUpdateOutcome in
            guard let existing = try self.existingRow(primaryKeyIndex, db) else {
                let prepared = try self.prepareForAdd(item, now: now)
                _ = try self.insert(prepared.itemClass, attributes: prepared.attributes, data: prepared.data, db)
                return .added
            }
            var current = try self.open(self.row(id: existing, db), includingData: false)
            if item.data == nil && (!current.row.sealed.isPresenceSealed || authorization.presenceKey != nil) {
                try self.openData(of: &current, presenceKey: authorization.presenceKey)
            }
            let updated = try self.guardedChange(
                of: current, changes: changes, replacingData: item.data != nil, authorized: authorization.policies,
                now: now)
            try self.rewrite(current, attributes: updated, data: item.data ?? current.data, db)
            return .updated
        }
    }

    /// The row id of the live item with this primary-key index, if any. The row's own column is
    /// compared too (SQLite's index is data in the file); the primary-key index is bound into the
    /// item's ciphertexts, so opening the row then proves it is that item.
    func existingRow(_ primaryKeyIndex: Data, _ db: Database) throws -> Int64? {
        guard let row = try ItemTable.row(in: db, primaryKeyIndex: primaryKeyIndex) else { return nil }
        guard (row[1] as Data?) == primaryKeyIndex else {
            throw KeychainError.tamperedPrimaryKeyLookup()
        }
        return try row.checked(0, "id", in: "items")
    }
}
