#if !canImport(Security) || SECURE_STORAGE_FORCE_PORTABLE
import Foundation
import KeychainCore

/// Changes every item the query matches.
///
/// - Returns: `errSecSuccess`, `errSecItemNotFound` (-25300), `errSecParam` (-50) for a query with
///   `kSecReturn…` true or any `kSecMatch…` key (including `kSecMatchLimit`),
///   `errSecNoSuchAttr` (-25303) for an unknown or non-attribute key in `attributesToUpdate`,
///   `errSecDuplicateItem` (-25299) when the change would collide — then nothing changes —,
///   `errSecMissingEntitlement` (-34018), `errSecInteractionNotAllowed` (-25308) while locked.
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    SecItemCall.run("SecItemUpdate") { () throws(KeychainError) in
        let request = SecItemDictionary(query)
        try request.checkClientRules(allowsSkip: false)
        let changes = SecItemChanges(attributesToUpdate)
        if changes.accessControl?.requiresAuthentication == true
            && (request.synchronizable == .value(true) || changes.synchronizable == true)
        {
            throw KeychainError.protectedItemSynchronizable()
        }
        let accessGroups = SecItemAccessGroups(identity: SecItemEnvironment.applicationIdentity)
        let groups = try accessGroups.searchGroups(explicit: request.attributes[.accessGroup])
        if let newGroup = changes.attributes[.accessGroup] { _ = try accessGroups.writeGroup(explicit: newGroup) }
        try request.checkParsed()
        if request.returnsAnything { throw KeychainError.updateQueryAsksReturn() }
        guard request.matchKeys.isEmpty, !request.useItemList else {
            throw KeychainError.updateQueryWithMatchKeys()
        }
        if let reference = request.persistentReference, reference.isLegacy, request.hasAttributesBesideReference {
            throw KeychainError.legacyReferenceWithAttributes()
        }
        var itemChanges = try changes.itemChanges(for: request.itemClass ?? request.persistentReference?.itemClass)
        if changes.accessControl != nil, itemChanges.attributes[.accessible] != nil {
            throw KeychainError.accessibleAndAccessControl()
        }
        if let control = changes.accessControl {
            itemChanges.attributes[.accessible] = .string(control.accessibility.rawValue)
            itemChanges.attributes[.accessControl] =
                (control.accessPolicy ?? (try? AccessPolicy(flags: [])))?.attributeValue
        }
        var engineQuery = try SecItemQueryBuilder.query(request, groups: groups)
        engineQuery.limit = .all
        try SecItemEnvironment.keychain().update(engineQuery, with: itemChanges)
    }
}

/// SecItemUpdate's `attributesToUpdate`: `kSecValueData` sets the data, `musr` is ignored, and
/// every other key is treated as an attribute — so `class`, `r_…`, `m_…`, `u_…` and unknown keys
/// are `errSecNoSuchAttr`.
struct SecItemChanges {
    var attributes: [AttributeKey: AttributeValue] = [:]
    var data: Data?
    var accessControl: SecAccessControl?
    var synchronizable: Bool?
    private var error: KeychainError?

    init(_ dictionary: CFDictionary) {
        for (rawKey, value) in dictionary {
            guard let key = SecValue.string(rawKey) else {
                record(
                    SecValue.isNumber(rawKey)
                        ? KeychainError.numericUpdateKey(key: rawKey)
                        : KeychainError.nonStringUpdateKey())
                continue
            }
            switch key {
            case "v_Data":
                guard let bytes = SecValue.data(value) else {
                    record(KeychainError.nonDataValue(type: type(of: value)))
                    continue
                }
                data = bytes
            case "musr", "nleg":
                continue
            case "clip":
                record(KeychainError.clipAttributeRefused())
            case "accc":
                guard let control = value as? SecAccessControl else {
                    record(KeychainError.accessControlNotSecAccessControl())
                    continue
                }
                accessControl = control
            case "sync":
                guard case .value(let flag) = SecValue.synchronizable(value) else {
                    record(KeychainError.nonBooleanSynchronizableUpdate())
                    continue
                }
                synchronizable = flag
                attributes[.synchronizable] = .bool(flag)
            default:
                guard key.utf16.count == 4 else {
                    record(KeychainError.notAnUpdatableAttribute(key: key))
                    continue
                }
                do {
                    attributes[AttributeKey(rawValue: key)] = try SecValue.attribute(value, key: key)
                } catch {
                    record(error)
                }
            }
        }
    }

    private mutating func record(_ error: KeychainError) {
        self.error = self.error ?? error
    }

    /// The engine change set, after checking every attribute exists for the class.
    func itemChanges(for itemClass: ItemClass?) throws(KeychainError) -> ItemChanges {
        if let error { throw error }
        if let itemClass {
            let schema = ItemSchema.of(itemClass)
            for key in attributes.keys.sorted() where !schema.accepts(key) {
                throw KeychainError.attributeNotInClassForSecItem(key: key, itemClass: itemClass.rawValue)
            }
        }
        return ItemChanges(attributes: attributes, data: data)
    }
}
#endif
