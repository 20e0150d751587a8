import Foundation

/// The contents of one GNOME Keyring keyring file (`~/.local/share/keyrings/NAME.keyring`):
/// its items with their labels, secrets and Secret Service attributes, read by
/// ``parse(_:password:keyringName:)`` from either format gnome-keyring-daemon writes — the
/// binary one (AES-128-CBC, for keyrings with a password) or the textual one (an ini-style file,
/// for keyrings whose password is empty).
package struct GnomeKeyring: Sendable {
    /// One item of a keyring.
    package struct Item: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        /// The item's number in the keyring: the last element of its Secret Service object path
        /// (`/org/freedesktop/secrets/collection/login/7`), unique within the keyring.
        package let id: UInt32
        /// The display name (the Secret Service `Label`); empty when the file has none.
        package let label: String
        /// The secret's bytes.
        package let secret: Data
        /// Every attribute, as gnome-keyring-daemon's Secret Service shows it after loading the
        /// file: `uint32` attributes as decimal text, and `xdg:schema` from the item type (0
        /// `org.freedesktop.Secret.Generic`, 1 `org.gnome.keyring.NetworkPassword`, …) when the
        /// file's attributes have none.
        package let attributes: [String: String]
        /// The legacy item type (0 generic secret, 1 network password, 2 note, …).
        package let itemType: UInt32

        /// An item; `xdg:schema` is added to `attributes` from `itemType` when they lack one, as
        /// gnome-keyring-daemon does when it loads a keyring (`setup_item_from_info`).
        init(id: UInt32, label: String, secret: Data, attributes: [String: String], itemType: UInt32) {
            self.id = id
            self.label = label
            self.secret = secret
            self.itemType = itemType
            var attributes = attributes
            if attributes["xdg:schema"] == nil, let schema = Self.schema(ofItemType: itemType) {
                attributes["xdg:schema"] = schema
            }
            self.attributes = attributes
        }

        /// The schema gnome-keyring gives an item of a legacy type (its low 16 bits), or nil.
        static func schema(ofItemType type: UInt32) -> String? {
            switch type & 0xFFFF {
            case 0: "org.freedesktop.Secret.Generic"
            case 1: "org.gnome.keyring.NetworkPassword"
            case 2: "org.gnome.keyring.Note"
            case 3: "org.gnome.keyring.ChainedKeyring"
            case 4: "org.gnome.keyring.EncryptionKey"
            case 0x100: "org.gnome.keyring.PkStorage"
            default: nil
            }
        }

        /// The item's number and label only: never the secret or the attributes.
        package var description: String { "GnomeKeyring.Item(\(id))" }

        /// The description alone, so `dump` and test failures never show the secret.
        package var customMirror: Mirror { Mirror(self, children: ["description": description]) }
    }

    /// The keyring's display name as recorded in the file (`Login` for `login.keyring`).
    package let displayName: String
    /// The items, in the file's order.
    package let items: [Item]
    /// Whether the file was the textual (unencrypted) format.
    package let wasTextual: Bool

    /// The largest keyring file read (16 MiB; real keyrings are kilobytes): a bigger file is
    /// refused before it is read.
    package static let maximumFileSize = 16 << 20

    /// The items of the keyring file `contents`. `password` opens a binary (encrypted) file and
    /// is ignored for a textual one; `keyringName` (the file's name without `.keyring`) is only
    /// used in messages.
    ///
    /// - Throws: `.authFailed` when `password` does not open the file ("wrong password for
    ///   keyring …"); `.invalidParameter` naming the field when the file is not a keyring file,
    ///   is cut short, damaged, or crafted (lengths and counts beyond what the file holds, more
    ///   hash iterations than gnome-keyring ever writes).
    package static func parse(_ contents: Data, password: Data, keyringName: String) throws(KeychainError)
        -> GnomeKeyring
    {
        guard contents.count <= maximumFileSize else {
            throw .gnomeKeyringTooLarge(keyring: keyringName, size: contents.count, limit: maximumFileSize)
        }
        if contents.starts(with: GnomeKeyringBinaryFormat.magic) {
            return try GnomeKeyringBinaryFormat.parse(contents, password: password, keyringName: keyringName)
        }
        if GnomeKeyringTextualFormat.looksTextual(contents) {
            return try GnomeKeyringTextualFormat.parse(contents, keyringName: keyringName)
        }
        throw .gnomeKeyringDamaged(
            keyring: keyringName, what: "it is neither the binary nor the textual keyring format")
    }
}
