import ArgumentParser
import Foundation
import KeychainCore

/// What differs between generic and internet passwords: the class and the class's own attributes.
protocol PasswordCommand {
    static var itemClass: ItemClass { get }
    var keychain: KeychainSelection { get }
    var item: ItemOptions { get }
    func classAttributes() throws -> [AttributeKey: AttributeValue]
}

extension PasswordCommand {
    func attributes() throws -> [AttributeKey: AttributeValue] {
        try item.attributes().merging(classAttributes()) { $1 }
    }

    func query() throws -> Query {
        var query = Query(Self.itemClass, try attributes())
        if let group = item.accessGroup { query.accessGroups = [group] }
        if item.synchronizable { query.synchronizable = .yes }
        return query
    }

    func add(_ secret: SecretOptions) throws {
        // Before anything is read or created: standard input carries the secret or the passphrase, never both.
        try StandardInput.plan([self.keychain.passphraseInput(), secret.standardInputUse])
        var attributes = try self.attributes().merging(secret.accessibilityAttribute) { $1 }
        if item.synchronizable { attributes[.synchronizable] = .number(1) }
        if let note = secret.ignoredApplicationAccessNote { printError(note) }
        // No keychain yet: the secret is read first, so a refused or empty input creates nothing.
        let readFirst = self.keychain.exists ? nil : try secret.secretData()
        let keychain = try self.keychain.open(.creatingIfMissing)
        let data = try readFirst ?? secret.secretData()
        try reportingErrors {
            var item = NewItem(Self.itemClass, attributes: attributes, data: data)
            if secret.requireUserPresence { item = item.protected(by: try AccessPolicy(flags: [.userPresence])) }
            if secret.updateIfExists {
                try keychain.addOrUpdate(item)  // one transaction: only the colliding item is updated
            } else {
                try keychain.add(item)
            }
        }
    }

    /// Prints the first match: attributes (`-g` adds the password), or only the password (`-w`).
    func find(printing printed: FoundOutput, output: OutputOptions) throws {
        try FindRequest(
            itemClass: Self.itemClass, query: query(), keychain: keychain.choice, printed: printed, json: output.json
        ).run()
    }

    /// Deletes every match; with no attribute given, only when `all` says so.
    func delete(all: Bool) throws {
        let query = try query()
        if query.attributes.isEmpty && query.accessGroups == nil && !all {
            throw usageFailure(
                "No attribute given, so every \(Self.itemClass.rawValue) item would be deleted. Name the item (-s, -a, …) or pass --all."
            )
        }
        let keychain = try self.keychain.open()
        let count = try reportingErrors(searching: query, in: keychain, deleting: true) { try keychain.delete(query) }
        printError("deleted \(count) item\(count == 1 ? "" : "s")")
    }
}

/// What a find command prints.
enum FoundOutput { case attributes, attributesAndSecret, secretOnly }

/// `-g` and `-w` of the find commands.
struct FindOutputOptions: ParsableArguments {
    @Flag(
        name: .customShort("g"),
        help: "Print the password too, on standard error (as macOS `security -g`); with --json it is in the JSON.")
    var withSecret = false
    @Flag(name: .customShort("w"), help: "Print only the password (raw bytes and a newline).") var secretOnly = false
    @OptionGroup var output: OutputOptions

    var printed: FoundOutput { secretOnly ? .secretOnly : withSecret ? .attributesAndSecret : .attributes }
}

// MARK: - Generic passwords

/// Options naming a generic password.
struct GenericPasswordOptions: ParsableArguments {
    @Option(name: .short, help: ArgumentHelp("Service name (kSecAttrService).", valueName: "service")) var service:
        String?
    @Option(
        name: .customShort("G"), help: ArgumentHelp("Generic attribute value (kSecAttrGeneric).", valueName: "value"))
    var generic: String?

    func attributes() -> [AttributeKey: AttributeValue] {
        var attributes: [AttributeKey: AttributeValue] = [:]
        if let service { attributes[.service] = .string(service) }
        if let generic { attributes[.generic] = .data(Data(generic.utf8)) }
        return attributes
    }
}

struct AddGenericPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-generic-password", abstract: "Add a generic password (creates the keychain if needed).",
        discussion: """
            Examples:
              keychain add-generic-password -s api.example.com -a alice -w      # prompts, no echo
              printf %s "$TOKEN" | keychain add-generic-password -s api -a ci --stdin
              printf %s "$TOKEN" | keychain add-generic-password -s api -a ci --stdin --passphrase-file /run/secrets/keychain-passphrase
              keychain add-generic-password -s api.example.com -a alice -U --accessibility cku -w
            """)
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
        commandName: "find-generic-password",
        abstract:
            "Find the first matching generic password; print its attributes, -g with the password, -w the password only.",
        discussion: "Example: keychain find-generic-password -s api.example.com -a alice -w")
    static let itemClass = ItemClass.genericPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var generic: GenericPasswordOptions
    @OptionGroup var found: FindOutputOptions
    func classAttributes() -> [AttributeKey: AttributeValue] { generic.attributes() }
    func run() throws { try find(printing: found.printed, output: found.output) }
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
    @Flag(name: .customLong("all"), help: "Allow deleting every item of the class when no attribute is given.")
    var all = false
    func run() throws { try delete(all: all) }
}

// MARK: - Internet passwords

/// Options naming an internet password.
struct InternetPasswordOptions: ParsableArguments {
    @Option(name: .short, help: ArgumentHelp("Server name (kSecAttrServer).", valueName: "server")) var server: String?
    @Option(name: .short, help: ArgumentHelp("Security domain (kSecAttrSecurityDomain).", valueName: "domain"))
    var domain: String?
    @Option(
        name: .customShort("r"),
        help: ArgumentHelp(
            "Protocol: a name such as https or ftp, or Apple's code (htps, 'ftp ') (kSecAttrProtocol).",
            valueName: "protocol")) var `protocol`: String?
    @Option(name: .customShort("P"), help: ArgumentHelp("Port (kSecAttrPort).", valueName: "port")) var port: Int64?
    @Option(name: .short, help: ArgumentHelp("Path (kSecAttrPath).", valueName: "path")) var path: String?
    @Option(
        name: .short,
        help: ArgumentHelp(
            "Authentication type: a name such as htmlForm or default, or Apple's code (form, dflt) (kSecAttrAuthenticationType).",
            valueName: "type")) var type: String?

    func validate() throws {
        if let `protocol` { _ = try AttributeNames.protocolCode(`protocol`) }
        if let type { _ = try AttributeNames.authenticationTypeCode(type) }
    }

    func attributes() throws -> [AttributeKey: AttributeValue] {
        var attributes: [AttributeKey: AttributeValue] = [:]
        if let server { attributes[.server] = .string(server) }
        if let domain { attributes[.securityDomain] = .string(domain) }
        if let `protocol` { attributes[.protocol] = .string(try AttributeNames.protocolCode(`protocol`)) }
        if let port { attributes[.port] = .number(port) }
        if let path { attributes[.path] = .string(path) }
        if let type { attributes[.authenticationType] = .string(try AttributeNames.authenticationTypeCode(type)) }
        return attributes
    }
}

struct AddInternetPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-internet-password", abstract: "Add an internet password (creates the keychain if needed).",
        discussion: "Example: keychain add-internet-password -s example.com -a bob -r htps -P 443 -p /login -w")
    static let itemClass = ItemClass.internetPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var internet: InternetPasswordOptions
    @OptionGroup var secret: SecretOptions
    func classAttributes() throws -> [AttributeKey: AttributeValue] { try internet.attributes() }
    func run() throws { try add(secret) }
}

struct FindInternetPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-internet-password",
        abstract: "Find the first matching internet password; -g adds the password, -w prints it alone.",
        discussion: "Example: keychain find-internet-password -s example.com -a bob -w")
    static let itemClass = ItemClass.internetPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var internet: InternetPasswordOptions
    @OptionGroup var found: FindOutputOptions
    func classAttributes() throws -> [AttributeKey: AttributeValue] { try internet.attributes() }
    func run() throws { try find(printing: found.printed, output: found.output) }
}

struct DeleteInternetPassword: ParsableCommand, PasswordCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-internet-password", abstract: "Delete every matching internet password.",
        discussion: "Example: keychain delete-internet-password -s example.com -a bob")
    static let itemClass = ItemClass.internetPassword
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var item: ItemOptions
    @OptionGroup var internet: InternetPasswordOptions
    func classAttributes() throws -> [AttributeKey: AttributeValue] { try internet.attributes() }
    @Flag(name: .customLong("all"), help: "Allow deleting every item of the class when no attribute is given.")
    var all = false
    func run() throws { try delete(all: all) }
}
