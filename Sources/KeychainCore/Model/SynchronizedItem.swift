import Crypto
import Foundation

/// An item as it travels between the devices of a sync circle: its class, every attribute the
/// keychain keeps for it (creation and modification dates included) and its data.
///
/// Only items Apple would sync travel: `kSecAttrSynchronizable` true and an accessibility that is
/// not `…ThisDeviceOnly` (which also rules out passcode-set items); never a key generated inside
/// the keychain (its private key never leaves it). Persistent references stay on the device:
/// each keychain gives the item its own row.
package struct SynchronizedItem: Sendable, Hashable {
    /// The item's class.
    package var itemClass: ItemClass
    /// Every attribute, with the keychain's own (`cdat`, `mdat`, `sha1`, …).
    package var attributes: [AttributeKey: AttributeValue]
    /// The item's data (empty for an item without data).
    package var data: Data

    /// An item with these parts.
    package init(itemClass: ItemClass, attributes: [AttributeKey: AttributeValue], data: Data) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.data = data
    }

    /// The attributes that travel: all but the keychain's internal ones and those every keychain
    /// sets or recomputes itself when it stores an item (`sha1`, `musr`, `tomb`), so an item
    /// encodes to the same bytes on every device that holds it.
    package static func portable(_ attributes: [AttributeKey: AttributeValue]) -> [AttributeKey: AttributeValue] {
        attributes.filter { !ItemIndexes.internalAttributes.contains($0.key) && !recomputedAttributes.contains($0.key) }
    }

    private static let recomputedAttributes: Set<AttributeKey> = [.sha1, .multiUser, .tombstone]

    /// When the item was last changed on the device that changed it.
    package var modificationDate: Date {
        attributes[.modificationDate]?.dateValue ?? Date(timeIntervalSinceReferenceDate: 0)
    }

    /// The item's accessibility.
    package var accessibility: Accessibility { ItemAttributes.accessibility(of: attributes) }

    /// Whether Apple's rules let this item leave its device through sync: synchronizable, an
    /// explicit accessibility that is not `…ThisDeviceOnly` (a missing one could default to a
    /// this-device-only class in some access groups), not a key generated inside a keychain.
    package var maySync: Bool {
        guard itemClass.isStored, attributes[.synchronizable]?.numberValue == 1,
            let raw = attributes[.accessible]?.stringValue, let accessibility = Accessibility(rawValue: raw),
            !accessibility.isThisDeviceOnly
        else {
            return false
        }
        if let token = attributes[.tokenID], token.stringValue == nil { return false }
        return !TokenKeys.isTokenKey(itemClass, attributes)
    }

    /// The item's identity across devices: its class and primary key (exactly what makes two
    /// items duplicates) MAC'd under `key`, 16 bytes. Equal on every device that holds `key`;
    /// without it the value cannot be tested against guessed services or accounts.
    package func identifier(key: SymmetricKey) -> Data {
        BlindIndexer(key: key).primaryKey(of: itemClass, attributes: attributes)
    }

    /// A 16-byte digest of the item's value (SHA-256 of a value marker and ``encoded``): equal on
    /// every device for the same attributes and data.
    package var valueDigest: Data {
        var hasher = SHA256()
        hasher.update(data: [1])
        hasher.update(data: encoded)
        return Data(hasher.finalize().prefix(16))
    }

    /// The item's class, attributes and data in one self-delimiting encoding.
    package var encoded: Data {
        var out = Data()
        let classBytes = Data(itemClass.rawValue.utf8)
        let attributeBytes = AttributeCodec.encode(attributes)
        for part in [classBytes, attributeBytes, data] {
            withUnsafeBytes(of: UInt32(part.count).bigEndian) { out.append(contentsOf: $0) }
            out.append(part)
        }
        return out
    }

    /// Decodes ``encoded``; `nil` for anything else (a short, long or malformed input).
    package init?(encoded: Data) {
        var parts: [Data] = []
        var offset = encoded.startIndex
        while parts.count < 3 {
            guard encoded.endIndex - offset >= 4 else { return nil }
            let length = encoded[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard encoded.endIndex - offset >= length else { return nil }
            parts.append(Data(encoded[offset..<offset + length]))
            offset += length
        }
        guard offset == encoded.endIndex,
            let name = String(data: parts[0], encoding: .utf8), let itemClass = ItemClass(rawValue: name),
            itemClass.isStored,
            let attributes = AttributeCodec.decode(parts[1])
        else { return nil }
        self.init(itemClass: itemClass, attributes: attributes, data: parts[2])
    }
}

/// A change that arrived from another device of the sync circle, and what the sync saw of the
/// local item when it decided it: the change is applied only if the item is still that way, so
/// a write made meanwhile by an app is never overwritten.
package struct SynchronizedChange: Sendable, Hashable {
    /// Whether the item is written or deleted.
    package enum Kind: Sendable, Hashable {
        /// The item now has these attributes and data (added, or replacing the item with its primary key).
        case upsert
        /// The item with this class and primary key (the other attributes do not matter) is deleted.
        case delete
    }

    /// Write or delete.
    package var kind: Kind
    /// The item (for a delete, only its class and primary key matter).
    package var item: SynchronizedItem
    /// ``SynchronizedItem/valueDigest`` of the local item the decision was made on; `nil` when
    /// there was none.
    package var expectedLocalDigest: Data?

    /// A change of `kind` to `item`, expecting the local item to have `expectedLocalDigest`.
    package init(_ kind: Kind, _ item: SynchronizedItem, expectedLocalDigest: Data?) {
        self.kind = kind
        self.item = item
        self.expectedLocalDigest = expectedLocalDigest
    }
}

/// What ``Keychain/applySynchronized(_:state:)`` did with each change.
package enum SynchronizedOutcome: Sendable, Hashable {
    /// Written (or, for a delete, removed or already absent).
    case applied
    /// Not written now because the item's class is locked; apply it again once unlocked.
    case locked
    /// Not written because the local item with that primary key is one that sync never replaces
    /// (a key generated inside the keychain, an item whose data needs the user, a
    /// `…ThisDeviceOnly` item).
    case keptLocal
    /// Not written because the local item changed after the sync read it; the next sync merges again.
    case changedLocally
}
