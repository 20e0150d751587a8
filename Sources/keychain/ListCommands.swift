// keychain-lint:disable-file logged-secret -- `list` prints attributes and `dump-keychain -d` secrets on request: the tool's job
import ArgumentParser
import Foundation
import KeychainCore

/// Which classes `list` covers.
enum ClassSelection: String, ExpressibleByArgument, CaseIterable {
    case genp, inet, cert, keys, all

    var classes: [ItemClass] {
        switch self {
        case .genp: [.genericPassword]
        case .inet: [.internetPassword]
        case .cert: [.certificate]
        case .keys: [.key]
        case .all: ItemClass.storedClasses
        }
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract:
            "List items, one line each (class, service or protocol://server:port, account, label, protection, access group, `synchronizable` for items that sync); never secrets.",
        discussion: """
            Items that sync with the other devices of a sync circle (kSecAttrSynchronizable) end \
            in `synchronizable` (`"sync": 1` in --json): find and delete them with --synchronizable, \
            since a search without it looks only at items that do not sync, as SecItem queries do.

            What SecureStorage keeps for itself (the journals of `keychain migrate`, the keys of \
            protected-file stores and database sealers, the sync state) lives in a namespace of its \
            own that no command lists, changes or exports; an item of the same names is an \
            ordinary item and is listed.
            Examples:
              keychain list
              keychain list --class genp -s api.example.com --json
              keychain list --accessibility aku
            """)
    @OptionGroup var keychain: KeychainSelection
    @Option(name: .customLong("class"), help: "Item class: genp, inet, cert, keys or all.") var itemClass:
        ClassSelection = .all
    @Option(name: .short, help: "Only items with this service (generic passwords) or server (internet passwords).")
    var service: String?
    @Option(name: .short, help: "Only items with this account.") var account: String?
    @Option(name: .short, help: "Only items with this label.") var label: String?
    @Option(name: .customLong("access-group"), help: "Only items in this access group.") var accessGroup: String?
    @Option(
        name: .customLong("accessibility"), help: "Only items with this protection (ak, ck, dk, aku, cku, dku, akpu).")
    var accessibility: String?
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let accessibility { _ = try AttributeNames.accessibility(accessibility) }
    }

    func run() throws {
        if keychain.isFreshDefault {  // nothing stored yet: an empty list
            if output.json { print(try JSONText.render(["items": .array([])])) }
            printError("0 items (no keychain yet at \(keychain.location.databaseURL.path))")
            return
        }
        let keychain = try self.keychain.open(.reading)
        // What the library keeps for itself lives in its own namespace: no query of the tool sees it.
        let items = try reportingErrors {
            try itemClass.classes.compactMap { try query(for: $0) }.flatMap { query in
                try keychain.findAll(query, returning: .attributes)
            }
        }
        if output.json {
            print(try JSONText.render(["items": .array(items.map { .object(JSONText.item($0)) })]))
            return
        }
        for item in items {
            let a = item.attributes
            let name =
                item.itemClass == .internetPassword
                ? Self.location(a)
                : (a[.service] ?? a[.applicationTag] ?? a[.subject]).map(ItemText.text) ?? "-"
            var columns = [
                item.itemClass.rawValue, name, a[.account].map(ItemText.text) ?? "-",
                a[.label].map(ItemText.text) ?? "-",
                a[.accessible]?.stringValue ?? "-", a[.accessGroup]?.stringValue ?? "-"
            ]
            // Found only with --synchronizable by find and delete (SecItem's rule): said on the line.
            if a[.synchronizable]?.numberValue == 1 { columns.append("synchronizable") }
            print(PrintableText.sanitized(columns.joined(separator: "  ")))
        }
        printError("\(items.count) item\(items.count == 1 ? "" : "s")")
    }

    /// An internet password's protocol, server and port as one column: `htps://example.com:8443`.
    private static func location(_ attributes: [AttributeKey: AttributeValue]) -> String {
        let server = attributes[.server]?.stringValue ?? "-"
        let scheme = attributes[.protocol]?.stringValue.map { $0.trimmingCharacters(in: .whitespaces) + "://" } ?? ""
        let port =
            attributes[.port].flatMap { if case .number(let port) = $0, port != 0 { ":\(port)" } else { nil } } ?? ""
        return scheme + server + port
    }

    /// The query for one class; `nil` when the class lacks a filtered attribute (nothing can match).
    private func query(for itemClass: ItemClass) throws -> Query? {
        var attributes: [AttributeKey: AttributeValue] = [:]
        if let service { attributes[itemClass == .internetPassword ? .server : .service] = .string(service) }
        if let account { attributes[.account] = .string(account) }
        if let label { attributes[.label] = .string(label) }
        if let accessibility {
            attributes[.accessible] = .string(try AttributeNames.accessibility(accessibility).rawValue)
        }
        let schema = ItemSchema.of(itemClass)
        guard attributes.keys.allSatisfy(schema.accepts) else { return nil }
        var query = Query(itemClass, attributes, synchronizable: .any)
        if let accessGroup { query.accessGroups = [accessGroup] }
        return query
    }
}

struct DumpKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-keychain",
        abstract: "Print every item's attributes, in every access group; -d adds the secrets.",
        discussion: """
            Secrets are printed only with -d, which needs every class unlocked.
            Examples:
              keychain dump-keychain --json
              keychain dump-keychain -d --unlock
            """)
    @OptionGroup var keychain: KeychainSelection
    @Flag(name: .short, help: "Include each item's secret data.") var data = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open(.reading)
        let items = try reportingErrors {
            try ItemClass.storedClasses.flatMap { itemClass in
                try keychain.findAll(
                    Query(itemClass, synchronizable: .any), returning: data ? [.attributes, .data] : .attributes)
            }
        }
        if output.json {
            let objects = items.map { item -> JSONValue in
                var object = JSONText.item(item)
                if let secret = item.data { object["data"] = JSONText.secret(secret) }
                return .object(object)
            }
            print(try JSONText.render(["items": .array(objects)]))
            return
        }
        for item in items {
            print(ItemText.render(item))
            if let secret = item.data { print("data:\n\(ItemText.secret(secret))") }
        }
    }
}
