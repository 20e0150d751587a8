/// Which items a find, update or delete applies to.
///
/// Every attribute given is an exact-match filter (there is no substring or case-insensitive
/// matching, as on Apple's data-protection keychain). Like Apple's keychain, a query sees only
/// non-synchronizable items unless it says otherwise.
///
/// ```swift
/// let query = Query(.genericPassword, [.service: "api.example.com", .account: "alice"])
/// let items = try keychain.find(query, returning: .data)
/// ```
public struct Query: Sendable, Hashable {
    /// The class searched. `nil` only for a lookup by ``persistentReference``.
    public var itemClass: ItemClass?
    /// Exact-match filters. Values are coerced to their attribute's kind first.
    public var attributes: [AttributeKey: AttributeValue]
    /// Which synchronizable state matches (default: non-synchronizable items only).
    public var synchronizable: SynchronizableFilter
    /// The access groups searched; `nil` searches every group.
    public var accessGroups: [String]?
    /// How many items a find returns (ignored by update and delete, which affect every match).
    public var limit: MatchLimit
    /// A lookup of one item by its persistent reference. It skips the synchronizable filter.
    public var persistentReference: PersistentReference?
    /// How the call may authenticate the user for items whose ``AccessPolicy`` requires it.
    public var authentication = AuthenticationOptions()
    /// The library-owned namespace searched (``LibraryOwner``): `nil`, for every caller outside
    /// this package, searches the items apps own and never sees a library-owned one.
    package var owner: LibraryOwner?

    /// Creates a query for items of a class.
    public init(
        _ itemClass: ItemClass,
        _ attributes: [AttributeKey: AttributeValue] = [:],
        synchronizable: SynchronizableFilter = .no,
        accessGroups: [String]? = nil,
        limit: MatchLimit = .all
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.synchronizable = synchronizable
        self.accessGroups = accessGroups
        self.limit = limit
    }

    /// Creates a query for the one item a persistent reference points at.
    public init(persistentReference: PersistentReference, accessGroups: [String]? = nil) {
        self.itemClass = nil
        self.attributes = [:]
        self.synchronizable = .any
        self.accessGroups = accessGroups
        self.limit = .all
        self.persistentReference = persistentReference
    }
}

/// Which items a query matches by their synchronizable flag (`kSecAttrSynchronizable`).
public enum SynchronizableFilter: Sendable, Hashable {
    /// Only items that do not sync (the default, as on Apple platforms).
    case no
    /// Only synchronizable items.
    case yes
    /// Both (`kSecAttrSynchronizableAny`).
    case any
}

/// How many items a find returns (`kSecMatchLimit`).
public enum MatchLimit: Sendable, Hashable {
    /// At most one item, the first in insertion order.
    case one
    /// Every match, in insertion order.
    case all
    /// At most this many items, in insertion order.
    case count(Int)

    /// The SQL row limit, or `nil` for no limit.
    var rowLimit: Int? {
        switch self {
        case .one: 1
        case .all: nil
        case .count(let count): count
        }
    }
}
