import ArgumentParser
import Foundation
import KeychainCore

/// Options every item command takes: where the keychain is, and whether to unlock it first.
struct KeychainSelection: ParsableArguments {
    @Option(name: .customLong("home"), help: ArgumentHelp("Use the keychain in this directory (as SECURE_STORAGE_HOME does).", valueName: "dir"))
    var home: String?

    @Flag(name: .customLong("unlock"), help: "Unlock with the passphrase first (prompted, or one line of standard input).")
    var unlock = false

    var location: KeychainLocation {
        home.map { KeychainLocation(directory: URL(fileURLWithPath: $0, isDirectory: true)) } ?? .default
    }

    /// Opens the keychain, unlocking it when asked.
    func open() throws -> Keychain {
        loggingConfigured
        return try reportingErrors {
            let keychain = try Keychain(location: location)
            if unlock && keychain.hasPassphrase {
                try keychain.unlock(passphrase: SecretInput.read(prompt: "Passphrase for \(location.databaseURL.path): "))
            }
            return keychain
        }
    }
}

/// The filters and attributes shared by the password commands.
struct ItemOptions: ParsableArguments {
    @Option(name: .short, help: "Account name (kSecAttrAccount).")
    var account: String?

    @Option(name: .short, help: "Label (kSecAttrLabel).")
    var label: String?

    @Option(name: .customLong("access-group"), help: "Access group (kSecAttrAccessGroup). Searches cover every group when omitted; adds use the application's default group.")
    var accessGroup: String?

    func attributes() -> [AttributeKey: AttributeValue] {
        var attributes: [AttributeKey: AttributeValue] = [:]
        if let account { attributes[.account] = .string(account) }
        if let label { attributes[.label] = .string(label) }
        if let accessGroup { attributes[.accessGroup] = .string(accessGroup) }
        return attributes
    }
}

/// Where a new secret comes from: `-w` on the command line or, when omitted, standard input.
struct SecretOptions: ParsableArguments {
    @Option(name: .customShort("w"), help: ArgumentHelp("The secret. When omitted it is prompted for, or read from standard input (one line), which keeps it out of the process list.", valueName: "password"))
    var secret: String?

    @Option(name: .customLong("accessibility"), help: "When the item may be read: ak, ck, dk, aku, cku, dku, akpu (kSecAttrAccessible…). Default ak.")
    var accessibility: String?

    @Flag(name: .customShort("U"), help: "Update the item if it already exists.")
    var updateIfExists = false

    func secretData() throws -> Data {
        Data((try secret ?? SecretInput.read(prompt: "Password: ")).utf8)
    }

    func accessibilityAttribute() throws -> [AttributeKey: AttributeValue] {
        guard let accessibility else { return [:] }
        guard Accessibility(rawValue: accessibility) != nil else {
            throw ValidationError("Unknown accessibility '\(accessibility)'; use one of \(Accessibility.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return [.accessible: .string(accessibility)]
    }
}

/// `--json` for scripts.
struct OutputOptions: ParsableArguments {
    @Flag(name: .customLong("json"), help: "Print JSON instead of text.")
    var json = false
}
