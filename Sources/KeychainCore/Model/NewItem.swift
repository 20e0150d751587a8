import Foundation

/// An item to add to the keychain: its class, attributes and secret data.
///
/// Attributes left out get Apple's defaults: an empty account and service, the caller's
/// default access group, `whenUnlocked` accessibility (`always` for certificates), and the
/// current date as creation and modification date.
///
/// ```swift
/// let item = NewItem(.genericPassword,
///                    attributes: [.service: "api.example.com", .account: "alice"],
///                    data: Data("s3cret".utf8),
///                    accessibility: .afterFirstUnlockThisDeviceOnly)
/// try keychain.add(item)
/// ```
public struct NewItem: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The class of the item; ``ItemClass/identity`` cannot be added this way (add the
    /// certificate and the private key instead).
    public var itemClass: ItemClass
    /// The item's attributes, by Apple's raw names.
    public var attributes: [AttributeKey: AttributeValue]
    /// The secret (`kSecValueData`). `nil` stores an item without data.
    public var data: Data?
    /// The library component that owns the item (``LibraryOwner``); `nil` for every item an app
    /// adds. Only code of this package can set it.
    package var owner: LibraryOwner?

    /// Creates an item, optionally with an explicit accessibility.
    public init(
        _ itemClass: ItemClass,
        attributes: [AttributeKey: AttributeValue] = [:],
        data: Data? = nil,
        accessibility: Accessibility? = nil
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.data = data
        if let accessibility { self.attributes[.accessible] = .string(accessibility.rawValue) }
    }

    /// The accessibility given in the attributes, if any.
    public var accessibility: Accessibility? {
        attributes[.accessible]?.stringValue.flatMap(Accessibility.init(rawValue:))
    }

    /// Class, attribute names and the data's size; never the data.
    public var description: String {
        "NewItem(\(itemClass.rawValue), attributes: [\(attributes.keys.sorted().map(\.rawValue).joined(separator: ","))], data: \(data.map { "\($0.count) bytes (redacted)" } ?? "none"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Class, attributes and the data's size, so `dump(_:)` never prints the data.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["itemClass": itemClass, "attributes": attributes, "dataByteCount": data?.count as Any],
            displayStyle: .struct)
    }
}

/// What an update changes on every matching item (`SecItemUpdate`'s `attributesToUpdate`).
public struct ItemChanges: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
    /// Attributes to set; the others keep their values.
    public var attributes: [AttributeKey: AttributeValue]
    /// New secret data, or `nil` to keep the current data.
    public var data: Data?

    /// Creates a change set.
    public init(attributes: [AttributeKey: AttributeValue] = [:], data: Data? = nil) {
        self.attributes = attributes
        self.data = data
    }

    /// Whether the change set changes nothing.
    public var isEmpty: Bool { attributes.isEmpty && data == nil }

    /// Attribute names and the new data's size; never the data.
    public var description: String {
        "ItemChanges(attributes: [\(attributes.keys.sorted().map(\.rawValue).joined(separator: ","))], data: \(data.map { "\($0.count) bytes (redacted)" } ?? "unchanged"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Attributes and the data's size, so `dump(_:)` never prints the data.
    public var customMirror: Mirror {
        Mirror(self, children: ["attributes": attributes, "dataByteCount": data?.count as Any], displayStyle: .struct)
    }
}
