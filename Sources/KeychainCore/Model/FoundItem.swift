import Foundation

/// What a find (or an add) returns for each item, as requested by ``ReturnOptions``.
///
/// `description` never shows the data.
public struct FoundItem: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The class of the item (``ItemClass/identity`` for an identity).
    public let itemClass: ItemClass
    /// A reference that finds this item again, stable across updates.
    public let persistentReference: PersistentReference
    /// The item's attributes when requested, otherwise empty.
    public let attributes: [AttributeKey: AttributeValue]
    /// The item's secret data when requested (empty data for an item stored without data).
    public let data: Data?
    /// For an identity: references to its certificate and its private key.
    public let identityComponents: IdentityComponents?

    /// Creates a result; used by the engine.
    public init(
        itemClass: ItemClass, persistentReference: PersistentReference,
        attributes: [AttributeKey: AttributeValue], data: Data?,
        identityComponents: IdentityComponents? = nil
    ) {
        self.itemClass = itemClass
        self.persistentReference = persistentReference
        self.attributes = attributes
        self.data = data
        self.identityComponents = identityComponents
    }

    /// The item's accessibility, when attributes were returned.
    public var accessibility: Accessibility? {
        attributes[.accessible]?.stringValue.flatMap(Accessibility.init(rawValue:))
    }

    /// A summary without the data: class, reference, attribute names and data size.
    public var description: String {
        let names = attributes.keys.sorted().map(\.rawValue).joined(separator: ",")
        let size = data.map { "\($0.count) bytes (redacted)" } ?? "not returned"
        return "FoundItem(\(persistentReference), attributes: [\(names)], data: \(size))"
    }

    /// The same as ``description``: debugger output never shows the data either.
    public var debugDescription: String { description }

    /// Class, reference, attributes and the data's size, so `dump(_:)` never prints the data.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "itemClass": itemClass, "persistentReference": persistentReference, "attributes": attributes,
                "dataByteCount": data?.count as Any
            ], displayStyle: .struct)
    }
}

/// The two stored items an identity is made of.
public struct IdentityComponents: Sendable, Hashable {
    /// The certificate item.
    public let certificate: PersistentReference
    /// The private-key item whose application label equals the certificate's public-key hash.
    public let privateKey: PersistentReference
}

/// Which parts of each found item to return (`kSecReturnData`, `kSecReturnAttributes`,
/// `kSecReturnPersistentRef`). The persistent reference is always filled in.
public struct ReturnOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Return the secret data (decrypts the secret half of each item).
    public static let data = ReturnOptions(rawValue: 1 << 0)
    /// Return the attributes.
    public static let attributes = ReturnOptions(rawValue: 1 << 1)
    /// Return the persistent reference (always available; listed for symmetry with SecItem).
    public static let persistentReference = ReturnOptions(rawValue: 1 << 2)
    /// Everything.
    public static let all: ReturnOptions = [.data, .attributes, .persistentReference]
}
