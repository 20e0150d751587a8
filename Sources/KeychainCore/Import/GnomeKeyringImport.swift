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
///   too.
///
/// The Secret Service allows several items with equal attributes; a keychain allows one generic
/// password per primary key (service, account, view hint, …). When two items of the import map
/// to the same (service, account), every one keeps that service and account exactly; the one
/// with the lowest (keyring name, item id) is imported as it is and each other one also gets the
/// view hint (`vwht`, kSecAttrSyncViewHint, part of the primary key and meaningless for an item
/// that does not sync) ``duplicateViewHint(keyring:itemID:)``,
/// `org.freedesktop.secrets.duplicate.gnome-keyring.login.7`: the way the keychain's Secret
/// Service keeps such items (``SecretServiceAttributes/duplicateViewHintPrefix``). A query that
/// names no view hint matches any, so `keychain find-generic-password -s svc -a alice` finds the
/// first of them, `keychain list` shows every one and `keychain delete-generic-password -s svc
/// -a alice` deletes every one. Which items got a view hint is recorded in the journal, so a
/// later run gives every item the view hint it got the first time even when the keyring changed
/// in between.
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
        /// The keychain account it goes to (the item's, a duplicate's too).
        package let account: String
        /// The view hint (`vwht`) that tells a duplicate apart from the first item of its service
        /// and account (``GnomeKeyringImport/duplicateViewHint(keyring:itemID:)``); nil for that
        /// first item.
        package let viewHint: String?
        /// The label (the item's display name).
        package let label: String
        /// Every attribute of the item.
        package let attributes: SecretServiceAttributes
        /// The secret.
        package let secret: Data
        /// What the run does with it, decided against the keychain when planned.
        package var action: Action

        /// Whether the item is the second or a later one of its service and account (it has a ``viewHint``).
        package var isDuplicate: Bool { viewHint != nil }

        /// Where the item goes, never its secret.
        package var description: String {
            let hint = viewHint.map { " / vwht \($0)" } ?? ""
            return "\(keyring)/\(itemID) → \(service) / \(account)\(hint) [\(action.rawValue)]"
        }

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
        // The view hints earlier runs gave ("" for none), by keyring and item id.
        var recorded: [String: [UInt32: String]] = [:]
        if let keychain {
            for source in sources {
                recorded[source.name] = try GnomeKeyringJournal.load(for: source.path, from: keychain)?.viewHints ?? [:]
            }
        }
        let ordered = sources.flatMap { source in source.keyring.items.map { (source.name, $0) } }
            .sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }
        // Recorded view hints are claimed first, so they stay; one whose item's service and
        // account now equal another recorded item's (the keyring changed) is planned anew.
        var claimed = Set<Slot>()
        var kept: [Origin: String] = [:]
        for (keyring, item) in ordered {
            guard let hint = recorded[keyring]?[item.id] else { continue }
            let slot = Slot(service: Self.service(for: item, keyring: keyring), account: Self.account(for: item), hint)
            if claimed.insert(slot).inserted { kept[Origin(keyring: keyring, itemID: item.id)] = hint }
        }
        var planned: [PlannedItem] = []
        for (keyring, item) in ordered {
            let service = Self.service(for: item, keyring: keyring)
            let account = Self.account(for: item)
            var viewHint: String?
            if let earlier = kept[Origin(keyring: keyring, itemID: item.id)] {
                viewHint = earlier.isEmpty ? nil : earlier
            } else if !claimed.insert(Slot(service: service, account: account, "")).inserted {
                let hint = Self.duplicateViewHint(keyring: keyring, itemID: item.id)
                claimed.insert(Slot(service: service, account: account, hint))
                viewHint = hint
            }
            var entry = PlannedItem(
                keyring: keyring, itemID: item.id, service: service, account: account, viewHint: viewHint,
                label: item.label, attributes: SecretServiceAttributes(item.attributes), secret: item.secret,
                action: .importItem)
            _ = try entry.attributes.encodedWithinBounds()
            if let keychain { entry.action = try action(for: entry, in: keychain) }
            planned.append(entry)
        }
        return planned
    }

    /// A generic password's place in the keychain: service, account and view hint ("" for none).
    private struct Slot: Hashable {
        let service: String
        let account: String
        let viewHint: String

        init(service: String, account: String, _ viewHint: String) {
            self.service = service
            self.account = account
            self.viewHint = viewHint
        }
    }

    /// An item of a keyring.
    private struct Origin: Hashable {
        let keyring: String
        let itemID: UInt32
    }

    /// The view hint of a duplicate imported from item `itemID` of keyring `keyring`:
    /// ``SecretServiceAttributes/duplicateViewHintPrefix``, `gnome-keyring.`, the keyring's name
    /// with every byte but ASCII letters, digits, `-` and `_` written `%XX` (so `.` separates
    /// unambiguously), `.` and the item id: `org.freedesktop.secrets.duplicate.gnome-keyring.login.7`.
    /// The same item always gets the same hint, so a second run finds what the first imported.
    package static func duplicateViewHint(keyring: String, itemID: UInt32) -> String {
        var escaped = ""
        for byte in keyring.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                escaped.append(Character(Unicode.Scalar(byte)))
            default:
                escaped += String(format: "%%%02X", byte)
            }
        }
        return SecretServiceAttributes.duplicateViewHintPrefix + "gnome-keyring.\(escaped).\(itemID)"
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

    /// The keychain item `item` goes to, with its attributes and secret: its service, account and
    /// exactly its view hint (none for a first item). A query that names no view hint matches an
    /// item with any, so the first item's is picked from the matches here.
    private func existing(_ item: PlannedItem, in keychain: Keychain) throws(KeychainError) -> FoundItem? {
        var attributes: [AttributeKey: AttributeValue] = [
            .service: .string(item.service), .account: .string(item.account)
        ]
        if let viewHint = item.viewHint { attributes[.syncViewHint] = .string(viewHint) }
        let candidates = try keychain.findAll(Query(.genericPassword, attributes), returning: [.attributes])
        guard
            let match = candidates.first(where: {
                ($0.attributes[.syncViewHint]?.stringValue ?? "") == (item.viewHint ?? "")
            })
        else { return nil }
        return try keychain.findFirst(
            Query(persistentReference: match.persistentReference), returning: [.attributes, .data])
    }

    private func action(for item: PlannedItem, in keychain: Keychain) throws(KeychainError) -> Action {
        guard let existing = try existing(item, in: keychain) else { return .importItem }
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
        // The view hints are recorded before anything is written, so a resumed run keeps them.
        for source in sources {
            if let earlier = try GnomeKeyringJournal.load(for: source.path, from: keychain), !earlier.done,
                earlier.fileHash == source.fileHash
            {
                resumed = true
            }
            let viewHints = Dictionary(
                plan.filter { $0.keyring == source.name }.map { ($0.itemID, $0.viewHint ?? "") },
                uniquingKeysWith: { $1 })
            try GnomeKeyringJournal(fileHash: source.fileHash, done: false, viewHints: viewHints)
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
                if let viewHint = item.viewHint { attributes[.syncViewHint] = .string(viewHint) }
                _ = try keychain.add(NewItem(.genericPassword, attributes: attributes, data: item.secret))
            case .overwrite:
                guard let replaced = try existing(item, in: keychain) else {
                    throw .gnomeKeyringVerificationFailed(keyring: item.keyring, itemID: item.itemID)
                }
                _ = try keychain.update(
                    Query(persistentReference: replaced.persistentReference),
                    with: ItemChanges(
                        attributes: [.label: .string(item.label), .generic: .data(item.attributes.encoded())],
                        data: item.secret))
            case .skip, .conflict:
                break
            }
            if item.action != .conflict {
                guard let found = try existing(item, in: keychain), Self.matches(found, item)
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
