import Crypto
import Foundation
import SecureStorageFoundation

/// Imports the items of GNOME Keyring keyrings into a keychain as generic passwords: plan →
/// write → read each item back and compare → record, so a second run skips what the first
/// imported and a run killed midway finishes when started again. Nothing is removed from the
/// keyring files.
///
/// Each item becomes one generic password:
/// - `service` ← the attribute `service`; else, for a network password
///   (`org.gnome.keyring.NetworkPassword`), `server` (as `protocol://server:port` when those are
///   set); for a NetworkManager secret, `connection-uuid`; else the keyring's name (`login`);
/// - `account` ← the attribute `username`, else `user`, else `account`, else empty;
/// - label ← the item's display name;
/// - `generic` (kSecAttrGeneric) ← every attribute of the item, as ``SecretServiceAttributes``
///   (the Secret Service provider reads the same encoding), so `username` stays `alice` there
///   whatever the account below says.
///
/// The Secret Service allows several items with equal attributes; a keychain allows one item per
/// (service, account). When two items of the import map to the same pair, the one with the
/// lowest (keyring name, item id) keeps the account and each other one gets the account
/// `alice (gnome-keyring login/7)` — the keyring and item id it came from — in its primary key
/// only; its attribute map still says `username` = `alice`. The choice is recorded in the
/// journal, so a later run gives every item the account it got the first time even when the
/// keyring changed in between.
package struct GnomeKeyringImport: Sendable {
    /// One keyring to import: its name (the file name without `.keyring`), its file's path (which
    /// names its journal record) and its parsed contents.
    package struct Source: Sendable {
        /// The keyring's name, `login` for `login.keyring`.
        package let name: String
        /// The keyring file's absolute path.
        package let path: String
        /// The file's contents, parsed.
        package let keyring: GnomeKeyring
        /// SHA-256 of the file's bytes.
        package let fileHash: Data

        /// A keyring named `name` read from `path`, whose bytes were `contents`.
        package init(name: String, path: String, contents: Data, keyring: GnomeKeyring) {
            self.name = name
            self.path = path
            self.keyring = keyring
            fileHash = Data(SHA256.hash(data: contents))
        }
    }

    /// What happens, or happened, to one item.
    package enum Action: String, Sendable, Hashable {
        /// Not in the keychain: added.
        case importItem = "import"
        /// Already in the keychain with the same secret and attributes: left as it is.
        case skip
        /// In the keychain with another secret, label or attributes: left as it is (reported).
        case conflict
        /// In the keychain with another secret, label or attributes, and `overwrite` was given: replaced.
        case overwrite
    }

    /// One item's destination. Its `description` never shows the secret.
    package struct PlannedItem: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        /// The keyring it comes from.
        package let keyring: String
        /// Its id in that keyring.
        package let itemID: UInt32
        /// The keychain service it goes to.
        package let service: String
        /// The keychain account it goes to (suffixed for a duplicate, see ``GnomeKeyringImport``).
        package let account: String
        /// Whether ``account`` carries the duplicate suffix.
        package let isRenamedDuplicate: Bool
        /// The label (the item's display name).
        package let label: String
        /// Every attribute of the item.
        package let attributes: SecretServiceAttributes
        /// The secret.
        package let secret: Data
        /// What the run does with it, decided against the keychain when planned.
        package var action: Action

        /// Where the item goes, never its secret.
        package var description: String { "\(keyring)/\(itemID) → \(service) / \(account) [\(action.rawValue)]" }

        /// The description alone, so `dump` and test failures never show the secret.
        package var customMirror: Mirror { Mirror(self, children: ["description": description]) }
    }

    /// The service of the migration journal records (the facade's, in the same library-owned namespace).
    package static let journalService = "SecureStorage.migrations"
    /// The library-owned namespace of migration journals (`SecureStorage.LibraryComponent.migrationJournal`).
    static let journalOwner = LibraryOwner("migration-journal")

    /// The keyrings to import, in the order given.
    package let sources: [Source]
    /// Whether an item in the keychain with another secret is replaced (`--overwrite`).
    package let overwrite: Bool
    /// Called after each item is written and verified, with its index in the plan (tests stop a run here).
    package var afterItem: (@Sendable (Int) throws(KeychainError) -> Void)?

    /// An import of `sources`; nothing is read from the keychain until ``plan(in:)`` or ``run(in:)``.
    package init(sources: [Source], overwrite: Bool) {
        self.sources = sources
        self.overwrite = overwrite
    }

    // MARK: - Plan

    /// Where each item goes and what happens to it, checked against `keychain` (`nil`: a keychain
    /// not created yet, where every item is imported). Changes nothing.
    package func plan(in keychain: Keychain?) throws(KeychainError) -> [PlannedItem] {
        var claimed = Set<Pair>()
        var recorded: [String: [UInt32: String]] = [:]
        for source in sources {
            guard let keychain else { break }
            recorded[source.name] = try GnomeKeyringJournal.load(for: source.path, from: keychain)?.accounts ?? [:]
        }
        // Accounts recorded by earlier runs are claimed first, so they stay.
        for source in sources {
            for item in source.keyring.items {
                if let account = recorded[source.name]?[item.id] {
                    claimed.insert(Pair(service: Self.service(for: item, keyring: source.name), account: account))
                }
            }
        }
        var planned: [PlannedItem] = []
        let ordered = sources.flatMap { source in source.keyring.items.map { (source.name, $0) } }
            .sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }
        for (keyring, item) in ordered {
            let service = Self.service(for: item, keyring: keyring)
            let base = Self.account(for: item)
            var account = base
            if let earlier = recorded[keyring]?[item.id] {
                account = earlier
            } else if !claimed.insert(Pair(service: service, account: base)).inserted {
                account = "\(base) (gnome-keyring \(keyring)/\(item.id))"
                claimed.insert(Pair(service: service, account: account))
            }
            var entry = PlannedItem(
                keyring: keyring, itemID: item.id, service: service, account: account,
                isRenamedDuplicate: account != base,
                label: item.label, attributes: SecretServiceAttributes(item.attributes), secret: item.secret,
                action: .importItem)
            _ = try entry.attributes.encodedWithinBounds()
            if let keychain { entry.action = try action(for: entry, in: keychain) }
            planned.append(entry)
        }
        return planned
    }

    private struct Pair: Hashable {
        let service: String
        let account: String
    }

    static func service(for item: GnomeKeyring.Item, keyring: String) -> String {
        let attributes = item.attributes
        if let service = attributes["service"], !service.isEmpty { return service }
        let schema = attributes["xdg:schema"]
        if schema == "org.gnome.keyring.NetworkPassword" || (schema == nil && item.itemType == 1),
            let server = attributes["server"], !server.isEmpty
        {
            let scheme = attributes["protocol"].map { $0.isEmpty ? "" : "\($0)://" } ?? ""
            let port = attributes["port"].map { $0.isEmpty || $0 == "0" ? "" : ":\($0)" } ?? ""
            return scheme + server + port
        }
        if schema == "org.freedesktop.NetworkManager.Connection", let uuid = attributes["connection-uuid"],
            !uuid.isEmpty
        {
            return uuid
        }
        return keyring
    }

    static func account(for item: GnomeKeyring.Item) -> String {
        for name in ["username", "user", "account"] {
            if let value = item.attributes[name], !value.isEmpty { return value }
        }
        return ""
    }

    private func query(_ item: PlannedItem) -> Query {
        Query(.genericPassword, [.service: .string(item.service), .account: .string(item.account)], limit: .one)
    }

    private func action(for item: PlannedItem, in keychain: Keychain) throws(KeychainError) -> Action {
        guard let existing = try keychain.findFirst(query(item), returning: [.attributes, .data]) else {
            return .importItem
        }
        if Self.matches(existing, item) { return .skip }
        return overwrite ? .overwrite : .conflict
    }

    /// Whether the keychain item holds exactly the planned secret, label and attributes.
    static func matches(_ found: FoundItem, _ item: PlannedItem) -> Bool {
        guard let data = found.data, data.count == item.secret.count else { return false }
        let sameSecret = zip(data, item.secret).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        let generic = found.attributes[.generic]?.dataValue
        return sameSecret && generic == item.attributes.encoded()
            && (found.attributes[.label]?.stringValue ?? "") == item.label
    }

    // MARK: - Run

    /// What a run did.
    package struct Report: Sendable {
        /// Every item with the action taken (a conflict was left as it is).
        package let items: [PlannedItem]
        /// Whether this run finished one that was interrupted (a journal of an unfinished import
        /// of the same file contents was found).
        package let resumed: Bool
        /// How many items took `action`.
        package func count(_ action: Action) -> Int { items.filter { $0.action == action }.count }
    }

    /// Plans, then writes each item to import or overwrite, reads it back and compares it, and
    /// records the keyring as done. A conflict is left as it is and reported.
    /// - Throws: `.integrityViolation` when an item read back differs from the keyring's (the
    ///   run stops there; run it again); the keychain's errors (locked, full disk).
    package func run(in keychain: Keychain) throws(KeychainError) -> Report {
        let plan = try plan(in: keychain)
        var resumed = false
        // The accounts are recorded before anything is written, so a resumed run keeps them.
        for source in sources {
            if let earlier = try GnomeKeyringJournal.load(for: source.path, from: keychain), !earlier.done,
                earlier.fileHash == source.fileHash
            {
                resumed = true
            }
            let accounts = Dictionary(
                plan.filter { $0.keyring == source.name }.map { ($0.itemID, $0.account) }, uniquingKeysWith: { $1 })
            try GnomeKeyringJournal(fileHash: source.fileHash, done: false, accounts: accounts)
                .save(for: source.path, in: keychain)
        }
        for (index, item) in plan.enumerated() {
            switch item.action {
            case .importItem:
                var attributes: [AttributeKey: AttributeValue] = [
                    .service: .string(item.service), .account: .string(item.account),
                    .generic: .data(item.attributes.encoded())
                ]
                if !item.label.isEmpty { attributes[.label] = .string(item.label) }
                _ = try keychain.add(NewItem(.genericPassword, attributes: attributes, data: item.secret))
            case .overwrite:
                _ = try keychain.update(
                    query(item),
                    with: ItemChanges(
                        attributes: [.label: .string(item.label), .generic: .data(item.attributes.encoded())],
                        data: item.secret))
            case .skip, .conflict:
                break
            }
            if item.action != .conflict {
                guard let found = try keychain.findFirst(query(item), returning: [.attributes, .data]),
                    Self.matches(found, item)
                else { throw .gnomeKeyringVerificationFailed(keyring: item.keyring, itemID: item.itemID) }
            }
            try afterItem?(index)
        }
        for source in sources where !plan.contains(where: { $0.keyring == source.name && $0.action == .conflict }) {
            var journal = try GnomeKeyringJournal.load(for: source.path, from: keychain)
            journal?.done = true
            try journal?.save(for: source.path, in: keychain)
        }
        return Report(items: plan, resumed: resumed)
    }
}
