import Crypto
import Foundation

/// Validation, coercion and defaults for the attributes of items being added, searched or updated.
enum ItemAttributes {
    /// Checks every attribute against the class's schema and coerces each value to its kind.
    /// - Throws: `.noSuchAttribute` for an attribute the class does not have,
    ///   `.invalidParameter` for a value of the wrong type.
    static func coerce(_ attributes: [AttributeKey: AttributeValue], for itemClass: ItemClass) throws(KeychainError)
        -> [AttributeKey: AttributeValue]
    {
        let schema = ItemSchema.of(itemClass)
        var result: [AttributeKey: AttributeValue] = [:]
        for (key, value) in attributes {
            guard schema.accepts(key) else {
                throw KeychainError.attributeNotInClass(key: key, itemClass: itemClass.rawValue)
            }
            result[key] = try key.kind.coerce(value, for: key)
        }
        return result
    }

    /// The complete attributes of an item being added: coerced, with Apple's defaults,
    /// server-set values (dates, user, tombstone) and the item digest.
    static func forNewItem(_ item: NewItem, defaultAccessGroup: String, now: Date) throws(KeychainError)
        -> [AttributeKey: AttributeValue]
    {
        var attributes = try coerce(item.attributes, for: item.itemClass)
        for (key, value) in ItemSchema.of(item.itemClass).defaults where attributes[key] == nil {
            attributes[key] = value
        }
        attributes[.accessGroup] = attributes[.accessGroup] ?? .string(defaultAccessGroup)
        attributes[.accessible] =
            attributes[.accessible]
            ?? .string(
                item.itemClass.defaultAccessibility(inAccessGroup: attributes[.accessGroup]?.stringValue).rawValue)
        attributes[.synchronizable] = .number(attributes[.synchronizable]?.numberValue.map { $0 != 0 ? 1 : 0 } ?? 0)
        attributes[.creationDate] = .date(now)
        attributes[.modificationDate] = .date(now)
        attributes[.multiUser] = .data(Data())
        attributes[.tombstone] = 0
        if let owner = item.owner {
            guard attributes[.synchronizable]?.numberValue == 0 else {
                throw KeychainError.libraryOwnedItemSynchronizable(owner: owner)
            }
            attributes[LibraryOwner.attribute] = owner.attributeValue
        }
        return attributes
    }

    /// Attributes the keychain sets itself, which a restored item takes from the backup or recomputes.
    private static let serverSetAttributes: Set<AttributeKey> = [
        .creationDate, .modificationDate, .multiUser, .tombstone, .sha1
    ]

    /// The complete attributes of an item restored from a backup: validated like a new item,
    /// keeping its creation and modification dates.
    static func forRestoredItem(_ record: BackupRecord, defaultAccessGroup: String, now: Date) throws(KeychainError)
        -> [AttributeKey: AttributeValue]
    {
        let item = NewItem(
            record.itemClass, attributes: record.attributes.filter { !serverSetAttributes.contains($0.key) })
        var attributes = try forNewItem(item, defaultAccessGroup: defaultAccessGroup, now: now)
        for key in [AttributeKey.creationDate, .modificationDate] {
            if let date = record.attributes[key]?.dateValue { attributes[key] = .date(date) }
        }
        return attributes
    }

    /// The attributes of an item after an update: the changes applied over the current values,
    /// with a modification date later than the previous one. `musr` is ignored, `ggrp` refused.
    static func applying(
        _ changes: [AttributeKey: AttributeValue], to current: [AttributeKey: AttributeValue],
        itemClass: ItemClass, now: Date
    ) throws(KeychainError) -> [AttributeKey: AttributeValue] {
        if changes[.sharingGroup] != nil {
            throw KeychainError.sharingGroupChanged()
        }
        var updated = current
        for (key, value) in try coerce(changes.filter { $0.key != .multiUser }, for: itemClass) {
            updated[key] = value
        }
        if let sync = updated[.synchronizable]?.numberValue { updated[.synchronizable] = .number(sync != 0 ? 1 : 0) }
        let previous = current[.modificationDate]?.dateValue?.timeIntervalSinceReferenceDate ?? 0
        updated[.modificationDate] = .date(
            Date(timeIntervalSinceReferenceDate: max(now.timeIntervalSinceReferenceDate, previous.nextUp)))
        return updated
    }

    /// `sha1`: a digest of the item's identifying attributes and data, like Apple's (returned
    /// with data). Computed over the encoded primary-key attributes followed by the data.
    static func digest(itemClass: ItemClass, attributes: [AttributeKey: AttributeValue], data: Data) -> Data {
        let identifying = attributes.filter { ItemSchema.of(itemClass).primaryKey.contains($0.key) }
        var hasher = Insecure.SHA1()
        hasher.update(data: AttributeCodec.encode(identifying))
        hasher.update(data: data)
        return Data(hasher.finalize())
    }

    /// The accessibility recorded in complete attributes.
    static func accessibility(of attributes: [AttributeKey: AttributeValue]) -> Accessibility {
        attributes[.accessible]?.stringValue.flatMap(Accessibility.init(rawValue:)) ?? .whenUnlocked
    }
}
