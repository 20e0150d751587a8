import ArgumentParser
import Foundation
import KeychainCore

/// What differs between generic and internet passwords: the class and the class's own attributes.
protocol PasswordCommand {
    static var itemClass: ItemClass { get }
    var keychain: KeychainSelection { get }
    var item: ItemOptions { get }
    func classAttributes() -> [AttributeKey: AttributeValue]
}

extension PasswordCommand {
    var attributes: [AttributeKey: AttributeValue] { item.attributes().merging(classAttributes()) { $1 } }

    var query: Query {
        var query = Query(Self.itemClass, attributes)
        if let group = item.accessGroup { query.accessGroups = [group] }
        return query
    }

    func add(_ secret: SecretOptions) throws {
        let data = try secret.secretData()
        let attributes = self.attributes.merging(try secret.accessibilityAttribute()) { $1 }
        let keychain = try self.keychain.open()
        try reportingErrors {
            do {
                try keychain.add(NewItem(Self.itemClass, attributes: attributes, data: data))
            } catch let error as KeychainError where error.code == .duplicateItem && secret.updateIfExists {
                var changes = ItemChanges(data: data)
                changes.attributes = attributes.filter { $0.key == .label || $0.key == .accessible }
                try keychain.update(query, with: changes)
            }
        }
    }

    func find(printSecretOnly: Bool, output: OutputOptions) throws {
        let keychain = try self.keychain.open()
        let found = try reportingErrors {
            try keychain.find(with(query) { $0.limit = .one }, returning: printSecretOnly ? [.data] : [.attributes])
        }
        guard let first = found.first else { return }
        if printSecretOnly {
            let secret = first.data ?? Data()
            if output.json {
                print(try JSONText.render(["password": String(data: secret, encoding: .utf8).map(JSONValue.string) ?? .string(secret.base64EncodedString())]))
            } else {
                FileHandle.standardOutput.write(secret + Data("\n".utf8))
            }
        } else {
            print(output.json ? try JSONText.render(JSONText.item(first)) : ItemText.render(first))
        }
    }

    func delete() throws {
        let keychain = try self.keychain.open()
        let count = try reportingErrors { try keychain.delete(query) }
        printError("deleted \(count) item\(count == 1 ? "" : "s")")
    }
}

func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
    var copy = value
    change(&copy)
    return copy
}

// MARK: - Generic passwords

/// Options naming a generic password.
struct GenericPasswordOptions: ParsableArguments {
    @Option(name: .short, help: "Service name (kSecAttrService).")
    var service: String?

    func attributes() -> [AttributeKey: AttributeValue] {
        service.map { [.service: .string($0)] } ?? [:]
    }
}

struct AddGenericPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-generic-password", abstract: "Add a generic password.",
        discussion: "Example: keychain add-generic-password -s api.example.com -a alice -w 's3cret' --accessibility cku")
    static let itemClass = ItemClass.genericPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var generic: GenericPasswordOptions
    @OptionGroup var secret: SecretOptions
    func classAttributes() -> [AttributeKey: AttributeValue] { generic.attributes() }
    func run() throws { try add(secret) }
}

struct FindGenericPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-generic-password", abstract: "Find the first matching generic password and print its attributes, or its secret with -w.",
        discussion: "Example: keychain find-generic-password -s api.example.com -a alice -w")
    static let itemClass = ItemClass.genericPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var generic: GenericPasswordOptions
    @Flag(name: .customShort("w"), help: "Print only the secret.") var printSecret = false
    @OptionGroup var output: OutputOptions
    func classAttributes() -> [AttributeKey: AttributeValue] { generic.attributes() }
    func run() throws { try find(printSecretOnly: printSecret, output: output) }
}

struct DeleteGenericPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-generic-password", abstract: "Delete every matching generic password.",
        discussion: "Example: keychain delete-generic-password -s api.example.com -a alice")
    static let itemClass = ItemClass.genericPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var generic: GenericPasswordOptions
    func classAttributes() -> [AttributeKey: AttributeValue] { generic.attributes() }
    func run() throws { try delete() }
}

// MARK: - Internet passwords

/// Options naming an internet password.
struct InternetPasswordOptions: ParsableArguments {
    @Option(name: .short, help: "Server name (kSecAttrServer).") var server: String?
    @Option(name: .short, help: "Security domain (kSecAttrSecurityDomain).") var domain: String?
    @Option(name: .customShort("r"), help: "Protocol, a four-character code such as htps (kSecAttrProtocol).") var `protocol`: String?
    @Option(name: .customShort("P"), help: "Port (kSecAttrPort).") var port: Int64?
    @Option(name: .short, help: "Path (kSecAttrPath).") var path: String?
    @Option(name: .short, help: "Authentication type, a four-character code such as form (kSecAttrAuthenticationType).") var type: String?

    func attributes() -> [AttributeKey: AttributeValue] {
        var attributes: [AttributeKey: AttributeValue] = [:]
        if let server { attributes[.server] = .string(server) }
        if let domain { attributes[.securityDomain] = .string(domain) }
        if let `protocol` { attributes[.protocol] = .string(`protocol`) }
        if let port { attributes[.port] = .number(port) }
        if let path { attributes[.path] = .string(path) }
        if let type { attributes[.authenticationType] = .string(type) }
        return attributes
    }
}

struct AddInternetPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-internet-password", abstract: "Add an internet password.",
        discussion: "Example: keychain add-internet-password -s example.com -a bob -r htps -P 443 -w 'pw'")
    static let itemClass = ItemClass.internetPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var internet: InternetPasswordOptions
    @OptionGroup var secret: SecretOptions
    func classAttributes() -> [AttributeKey: AttributeValue] { internet.attributes() }
    func run() throws { try add(secret) }
}

struct FindInternetPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-internet-password", abstract: "Find the first matching internet password.",
        discussion: "Example: keychain find-internet-password -s example.com -a bob -w")
    static let itemClass = ItemClass.internetPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var internet: InternetPasswordOptions
    @Flag(name: .customShort("w"), help: "Print only the secret.") var printSecret = false
    @OptionGroup var output: OutputOptions
    func classAttributes() -> [AttributeKey: AttributeValue] { internet.attributes() }
    func run() throws { try find(printSecretOnly: printSecret, output: output) }
}

struct DeleteInternetPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-internet-password", abstract: "Delete every matching internet password.")
    static let itemClass = ItemClass.internetPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var internet: InternetPasswordOptions
    func classAttributes() -> [AttributeKey: AttributeValue] { internet.attributes() }
    func run() throws { try delete() }
}
