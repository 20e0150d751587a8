import Foundation
import GRDB

extension Keychain {
    /// Changes every item the query matches (the query's limit is ignored), in one transaction.
    ///
    /// Each item is re-encrypted under fresh per-item keys with a new row version; its
    /// modification date moves forward. Changing `pdmn` moves it to another protection class.
    ///
    /// - Returns: how many items changed (at least 1).
    /// - Throws: `.itemNotFound` when nothing matches; `.duplicateItem` when the change would give
    ///   an item the primary key of another live item — then **nothing** changes;
    ///   `.interactionNotAllowed` when a matched item's old or new class is locked.
    @discardableResult
    public func update(_ query: Query, with changes: ItemChanges) throws(KeychainError) -> Int {
        var resolved = try ResolvedQuery(query)
        resolved.limit = .all
        try adoptItemsWrittenBeforeOwnership(resolved)
        let changed = try ItemAttributes.coerce(changes.attributes, for: resolved.itemClass)
        // An identity's data is its certificate's; its private key keeps its own.
        let keepsData = { (itemClass: ItemClass) in
            changes.data == nil || (resolved.itemClass == .identity && itemClass == .key)
        }
        let authorization =
            changed[.accessControl] == nil
            ? RewriteAuthorization()
            : try authorizeRewrite(
                of: read { db in try self.rowsToChange(resolved, proof: .attributes, db).compactMap(\.opened) },
                newPolicy: changed[.accessControl], options: resolved.authentication)
        let count = try write { db -> Int in
            let rows = try self.rowsToChange(resolved, proof: .attributes, db)
            if rows.isEmpty { throw KeychainError.itemNotFound() }
            let now = Date()
            for match in rows {
                let row = match.row
                var current = match.opened!
                // Protected data is re-encrypted only when the user authenticated anyway; otherwise
                // it is kept as sealed (an attribute change never prompts).
                if keepsData(row.itemClass) && (!row.sealed.isPresenceSealed || authorization.presenceKey != nil) {
                    try self.openData(of: &current, presenceKey: authorization.presenceKey)
                }
                let ownChanges = changed.filter { ItemSchema.of(row.itemClass).accepts($0.key) }
                let newData = keepsData(row.itemClass) ? nil : changes.data
                let updated = try self.guardedChange(
                    of: current, changes: ownChanges, replacingData: newData != nil, authorized: authorization.policies,
                    now: now)
                try self.rewrite(current, attributes: updated, data: newData ?? current.data, db)
            }
            return rows.count
        }
        logger.debug("updated items", metadata: ["class": "\(resolved.itemClass.rawValue)", "count": "\(count)"])
        return count
    }

    /// What rewriting items was authorized for: the policies the user authenticated to replace,
    /// and the presence key that authentication unwrapped (the data of those items is then
    /// re-encrypted under its new policy).
    struct RewriteAuthorization {
        var policies: Set<AccessPolicy> = []
        var presenceKey: PresencePrivateKey?
    }

    /// Replacing an item's access control needs the authentication its current policy asks for
    /// (otherwise removing the policy would bypass it). Runs before the write transaction, so a
    /// prompt never holds the database; each distinct policy is asked for once. Other changes,
    /// data included, never prompt.
    func authorizeRewrite(of items: [OpenedItem], newPolicy: AttributeValue?, options: AuthenticationOptions)
        throws(KeychainError) -> RewriteAuthorization
    {
        var authorization = RewriteAuthorization()
        let changing = Set(
            items.compactMap(\.accessPolicy).filter {
                $0.requiresAuthentication && Self.changesPolicy(newPolicy, of: $0)
            })
        for policy in changing.sorted(by: { $0.description < $1.description }) {
            guard let granted = try authorize(policy, operation: "access control", options: options) else {
                throw KeychainError.accessControlChangeNeedsAuthentication()
            }
            authorization.policies.insert(policy)
            authorization.presenceKey = authorization.presenceKey ?? granted.presenceKey
        }
        return authorization
    }

    /// Whether a new access-control value changes an item's policy: its flags, or an unreadable
    /// value. The same flags keep the stored policy, enrolment state included (which a caller can
    /// neither set nor refresh).
    static func changesPolicy(_ newValue: AttributeValue?, of current: AccessPolicy?) -> Bool {
        guard let newValue else { return false }
        guard let new = newValue.dataValue.flatMap(AccessPolicy.init(encoded:)) else { return true }
        return new.flags != (current?.flags ?? [])
    }

    /// The attributes of an existing item after `changes`, under the rules every change of a
    /// stored item follows (update, add-or-update):
    /// - a key generated inside the keychain keeps its key material, token ID, key properties and
    ///   a `ThisDeviceOnly` accessibility, and no key is moved into the token;
    /// - a new access control is sealed (enrolment recorded), and only replaces a policy the
    ///   caller authenticated for (`authorized`, checked in this transaction, so a policy changed
    ///   by another writer in between is not overwritten unseen);
    /// - constrained items stay non-synchronizable.
    func guardedChange(
        of current: OpenedItem, changes: [AttributeKey: AttributeValue], replacingData: Bool,
        authorized: Set<AccessPolicy>, now: Date
    ) throws -> [AttributeKey: AttributeValue] {
        let itemClass = current.row.itemClass
        var changes = changes
        if !Self.changesPolicy(changes[.accessControl], of: current.accessPolicy) { changes[.accessControl] = nil }
        let indexer = keys.indexer
        let effective = changes.filter { key, value in
            current.attributes[key].map { indexer.attribute(key, $0) } != indexer.attribute(key, value)
        }
        var updated = try ItemAttributes.applying(changes, to: current.attributes, itemClass: itemClass, now: now)
        if current.isTokenKey {
            let changeable: Set<AttributeKey> = [
                .label, .applicationTag, .accessGroup, .accessControl, .accessible, .alias
            ]
            let accessibility = ItemAttributes.accessibility(of: updated)
            if replacingData || !Set(effective.keys).isSubset(of: changeable) || !accessibility.isThisDeviceOnly {
                throw KeychainError.tokenKeyAttributesFixed()
            }
        } else if TokenKeys.isTokenKey(itemClass, updated) {
            throw KeychainError.keyMovedIntoToken()
        }
        if effective[.accessControl] != nil {
            if let policy = current.accessPolicy, policy.requiresAuthentication, !authorized.contains(policy) {
                throw KeychainError.accessControlChangedDuringAuthentication()
            }
            updated = try sealingAccessPolicy(updated, isTokenKey: current.isTokenKey)
        } else if current.accessPolicy?.requiresAuthentication == true, updated[.synchronizable]?.numberValue == 1 {
            throw KeychainError.protectedItemSynchronizable()
        }
        return updated
    }

    /// Every stored row an update or delete affects, proved as `proof` says: the items
    /// themselves, or both halves of identities.
    func rowsToChange(_ query: ResolvedQuery, proof: MatchProof, _ db: Database) throws -> [MatchedItem] {
        guard query.itemClass == .identity else { return try matchingItems(query, limit: nil, proof: proof, db) }
        var seen = Set<Int64>()
        return try matchingIdentities(query, limit: nil, proof: proof, db)
            .flatMap { [$0.certificate, $0.key] }
            .filter { seen.insert($0.row.rowID ?? -1).inserted }
    }

    /// Re-seals an item with new attributes and data under fresh keys and the next row version.
    ///
    /// With `data` nil, the item's data must be sealed to the presence key and stay so: its data
    /// ciphertext and presence wrap are kept (they cannot be re-encrypted without the user), only
    /// the class wrap moves to the new class key, and the attributes keep the record of how the
    /// data was sealed (``SecretBinding``). `sealingTo` is the presence key the first enrolment
    /// is creating (see ``presenceSealing(_:establishing:)``).
    ///
    /// `keepingAdoptionTag`: an internal re-seal (moving protected items under the presence key)
    /// keeps ``BlindIndexer/writtenBeforeOwnershipTag`` on an item that has it; any other rewrite
    /// computes the tags afresh, without it.
    func rewrite(
        _ item: OpenedItem, attributes: [AttributeKey: AttributeValue], data: Data?,
        sealingTo establishing: PresencePublicKey? = nil,
        keepingAdoptionTag: Bool = false, _ db: Database
    ) throws {
        // The data half was not opened (it is replaced, or kept sealed): authenticate what can be
        // without the user, so a damaged item is reported rather than silently overwritten.
        if item.data == nil {
            let binding = item.row.binding(vaultID: keys.header.vaultID)
            let classKeys = try keys.classKeys(for: item.row.accessibility)
            if item.row.sealed.isPresenceSealed {
                try ItemCipher.checkPresenceWrap(item.row.sealed, binding: binding, keys: classKeys)
            } else {
                _ = try ItemCipher.openSecret(item.row.sealed, binding: binding, keys: classKeys)
            }
        }
        var attributes = attributes
        let accessibility = ItemAttributes.accessibility(of: attributes)
        let classKeys = try keys.classKeys(for: accessibility)
        let presence = presenceSealing(attributes, establishing: establishing)
        // Never sealed plain while items sealed to a presence key exist (the keybag's presence
        // slots were removed: re-sealing without one would hand the data to the class key).
        if presence == nil, AccessPolicy.of(attributes)?.requiresAuthentication == true,
            try Self.hasPresenceSealedItems(db)
        {
            throw KeychainError.presenceSlotsRemoved()
        }
        var row = item.row
        row.accessibility = accessibility
        row.synchronizable = attributes[.synchronizable]?.numberValue == 1
        row.indexes = ItemIndexes(itemClass: row.itemClass, attributes: attributes, indexer: keys.indexer)
        // Only a tag the row seal proves is kept: one inserted by editing the file is dropped.
        if keepingAdoptionTag, let rowID = item.row.rowID,
            try RowSealer.tags(of: rowID, db).contains(keys.indexer.writtenBeforeOwnershipTag),
            try keys.rowSealer.isValid(item.row, db)
        {
            row.indexes.tags.insert(keys.indexer.writtenBeforeOwnershipTag)
        }
        row.rowVersion += 1
        let binding = row.binding(vaultID: keys.header.vaultID)
        if let data {
            attributes[.sha1] = .data(
                ItemAttributes.digest(itemClass: row.itemClass, attributes: attributes, data: data))
            attributes[SecretBinding.attribute] = presence.map { _ in SecretBinding(binding).attributeValue }
            row.sealed = try ItemCipher.seal(
                metadata: AttributeCodec.encode(Self.storedAttributes(attributes, presenceSealed: presence != nil)),
                secret: data,
                binding: binding, keys: classKeys, presence: presence, randomness: ItemRandomness())
        } else {
            guard presence != nil, item.row.sealed.isPresenceSealed, attributes[SecretBinding.attribute] != nil else {
                throw KeychainError.itemChangeNeedsAuthentication()
            }
            row.sealed = try ItemCipher.reseal(
                metadata: AttributeCodec.encode(Self.storedAttributes(attributes, presenceSealed: true)),
                keepingDataOf: item.row.sealed, binding: binding,
                from: keys.classKeys(for: item.row.accessibility), to: classKeys)
        }
        let before = try keys.stateDigest.fingerprint(rowID: row.rowID ?? -1, db)
        let previousTags = try item.row.rowID.map { try RowSealer.tags(of: $0, db) } ?? []
        try row.update(
            seal: keys.rowSealer.seal(row, rowID: row.rowID ?? -1, tags: row.indexes.tags), replacing: item.row,
            previousTags: previousTags, db)
        try keys.stateDigest.record(removing: [before], adding: [fingerprint(ofWritten: row, db)], db)
    }
}
