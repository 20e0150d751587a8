import Foundation
import KeychainCore
import SecureStorageFoundation

/// The collections and aliases: `login` (the keychain's shared default access group, alias
/// `default`), `session` (memory only) and collections made by `CreateCollection`.
///
/// A created collection is persistent: its items are generic passwords of the access group
/// `org.freedesktop.secrets.collection.<id>`, and a record item in the group
/// ``recordsGroup`` (service `collection`, account = id, label = the collection's label) keeps
/// its label and creation date; an alias is a record too (service `alias`, account = alias
/// name, generic = the collection id). Records are read when the registry starts and after each
/// unlock, and cached, so collections stay listed while the keychain is locked.
final class CollectionRegistry: Sendable {
    /// The access group of collection and alias records.
    static let recordsGroup = "org.freedesktop.secrets.collections"
    /// The access-group prefix of created collections' items.
    static let createdGroupPrefix = "org.freedesktop.secrets.collection."
    /// The most collections `CreateCollection` makes.
    static let collectionLimit = 256

    /// One collection's label and dates.
    struct Info: Sendable, Hashable {
        var id: String
        var label: String
        var created: UInt64
        var modified: UInt64
    }

    private struct State {
        var created: [String: Info] = [:]
        var aliases: [String: String] = [:]
        var loginLabel = "Login"
        var loaded = false
    }

    private let keychain: Keychain
    private let startTime = UInt64(Date().timeIntervalSince1970)
    private let state = Locked(State())

    init(keychain: Keychain) { self.keychain = keychain }

    /// Reads the records (again); a locked keychain keeps the cached ones.
    func reload() {
        guard
            let records = try? keychain.findAll(
                Query(.genericPassword, synchronizable: .any, accessGroups: [Self.recordsGroup]))
        else { return }
        var created: [String: Info] = [:]
        var aliases: [String: String] = [:]
        var loginLabel = "Login"
        for record in records {
            let service = record.attributes[.service]?.stringValue
            let account = record.attributes[.account]?.stringValue ?? ""
            let label = record.attributes[.label]?.stringValue ?? account
            let date = UInt64(max(0, record.attributes[.creationDate]?.dateValue?.timeIntervalSince1970 ?? 0))
            let modified = UInt64(max(0, record.attributes[.modificationDate]?.dateValue?.timeIntervalSince1970 ?? 0))
            if service == "collection" {
                if account == "login" {
                    loginLabel = label
                } else if CollectionRegistry.isValidID(account) {
                    created[account] = Info(id: account, label: label, created: date, modified: modified)
                }
            } else if service == "alias", let target = record.attributes[.generic]?.dataValue {
                aliases[account] = String(decoding: target, as: UTF8.self)
            }
        }
        state.withLock {
            $0.created = created
            $0.aliases = aliases
            $0.loginLabel = loginLabel
            $0.loaded = true
        }
    }

    /// Every collection id visible to `scope`, `login` first.
    func ids(for scope: CallerScope) -> [String] {
        ensureLoaded()
        return ["login", "session"] + (scope.isSandboxed ? [] : state.withLock { $0.created.keys.sorted() })
    }

    /// The collection `id`'s label and dates, if it exists for `scope`.
    func info(_ id: String, scope: CallerScope) -> Info? {
        ensureLoaded()
        switch id {
        case "login":
            return Info(id: id, label: state.withLock { $0.loginLabel }, created: startTime, modified: startTime)
        case "session": return Info(id: id, label: "Session", created: startTime, modified: startTime)
        default: return scope.isSandboxed ? nil : state.withLock { $0.created[id] }
        }
    }

    /// The collection id an alias names (`default` is `login` unless set otherwise).
    func resolveAlias(_ alias: String, scope: CallerScope) -> String? {
        ensureLoaded()
        if scope.isSandboxed { return alias == "default" || alias == "login" ? "login" : nil }
        if let target = state.withLock({ $0.aliases[alias] }) { return target.isEmpty ? nil : target }
        switch alias {
        case "default", "login": return "login"
        case "session": return "session"
        default: return nil
        }
    }

    /// Points `alias` at `id`, or removes it for `nil`.
    func setAlias(_ alias: String, to id: String?) throws(SecretServiceError) {
        try writeRecord(service: "alias", account: alias, label: alias, generic: Data((id ?? "").utf8))
        state.withLock { $0.aliases[alias] = id ?? "" }
    }

    /// Makes a collection labelled `label`; returns its id.
    func create(label: String) throws(SecretServiceError) -> String {
        ensureLoaded()
        let base = Self.idBase(label)
        let id = try state.withLock { state throws(SecretServiceError) -> String in
            guard state.created.count < Self.collectionLimit else {
                throw .tooMany("collections", limit: Self.collectionLimit)
            }
            var candidate = base
            var suffix = 1
            while candidate == "login" || candidate == "session" || state.created[candidate] != nil {
                suffix += 1
                candidate = "\(base)_\(suffix)"
            }
            let now = UInt64(Date().timeIntervalSince1970)
            state.created[candidate] = Info(id: candidate, label: label, created: now, modified: now)
            return candidate
        }
        do {
            try writeRecord(service: "collection", account: id, label: label, generic: nil)
        } catch {
            state.withLock { _ = $0.created.removeValue(forKey: id) }
            throw error
        }
        return id
    }

    /// Sets the label of `id`.
    func setLabel(_ label: String, of id: String) throws(SecretServiceError) {
        try writeRecord(service: "collection", account: id, label: label, generic: nil)
        state.withLock { state in
            if id == "login" { state.loginLabel = label }
            state.created[id]?.label = label
            state.created[id]?.modified = UInt64(Date().timeIntervalSince1970)
        }
    }

    /// Forgets a deleted collection and its aliases.
    func remove(_ id: String) throws(SecretServiceError) {
        do {
            _ = try keychain.delete(
                Query(
                    .genericPassword, [.service: "collection", .account: .string(id)], accessGroups: [Self.recordsGroup]
                ))
        } catch  where error.code == .itemNotFound {
        } catch {
            throw .keychain(error)
        }
        state.withLock { state in
            state.created[id] = nil
            for (alias, target) in state.aliases where target == id { state.aliases[alias] = "" }
        }
    }

    /// Whether `id` is a collection id this registry could have made.
    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
            }
    }

    /// The id made from a label: its ASCII letters and digits, lowercased, `_` for the rest.
    private static func idBase(_ label: String) -> String {
        let cleaned = String(
            label.lowercased().unicodeScalars.prefix(32).map {
                $0.isASCII && (("a"..."z").contains($0) || ("0"..."9").contains($0)) ? Character($0) : "_"
            })
        return cleaned.isEmpty ? "collection" : cleaned
    }

    private func ensureLoaded() {
        if !state.withLock({ $0.loaded }) { reload() }
    }

    private func writeRecord(service: String, account: String, label: String, generic: Data?)
        throws(SecretServiceError)
    {
        var attributes: [AttributeKey: AttributeValue] = [
            .service: .string(service), .account: .string(account), .label: .string(label),
            .accessGroup: .string(Self.recordsGroup)
        ]
        if let generic { attributes[.generic] = .data(generic) }
        do {
            _ = try keychain.addOrUpdate(
                NewItem(.genericPassword, attributes: attributes, data: Data(), accessibility: .afterFirstUnlock))
        } catch {
            throw .keychain(error)
        }
    }
}
