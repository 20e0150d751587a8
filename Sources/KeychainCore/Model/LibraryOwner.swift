/// Which part of SecureStorage owns an item it keeps for itself (sync state, a database
/// sealer's key, protected files' keys): the reserved namespace of library-owned items.
///
/// Library-owned items live apart from every item an app or the `keychain` tool can name. No
/// public API, backup import, migration or sync can create one, replace one or move an item
/// into the namespace: only a ``Query`` or ``NewItem`` whose `owner` is set — which only code of
/// this package can do — sees or writes them, and such a query sees nothing else. An item's owner
/// is sealed with its attributes (the item's AEAD), mixed into its primary-key index (so an
/// item of the same names outside the namespace never collides with it) and recorded in lookup
/// tags that its row seal covers (so a delete, which works without class keys, tells the two
/// apart too). A row that claims one namespace in its clear columns and the other in its
/// sealed attributes is tampering (`.integrityViolation`), never data.
package struct LibraryOwner: Hashable, Sendable, CustomStringConvertible {
    /// The owning component, for example `"sync"`.
    package let purpose: String

    /// An owner by its purpose.
    package init(_ purpose: String) {
        self.purpose = purpose
    }

    /// The sync state of a keychain's circle (KeychainSync). The facade's components name
    /// theirs through `SecureStorage.LibraryComponent`.
    package static let sync = LibraryOwner("sync")

    /// The attribute holding the owner inside an item's sealed metadata; never returned, never
    /// accepted from a caller (no class's schema has it).
    static let attribute: AttributeKey = "ssow"

    /// The attribute value recording this owner.
    var attributeValue: AttributeValue { .string(purpose) }

    /// The owner an item's decrypted attributes record, if any.
    static func of(_ attributes: [AttributeKey: AttributeValue]) -> LibraryOwner? {
        attributes[attribute]?.stringValue.map(LibraryOwner.init)
    }

    /// The purpose.
    package var description: String { purpose }
}
