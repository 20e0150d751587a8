import ArgumentParser
import Foundation
import KeychainCore

struct DumpKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-keychain", abstract: "List every item's attributes (never secrets), in every access group.",
        discussion: "Example: keychain dump-keychain --json --unlock")
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open()
        let items = try reportingErrors {
            try ItemClass.storedClasses.flatMap { itemClass in
                try keychain.findAll(Query(itemClass, synchronizable: .any), returning: .attributes)
            }
        }
        if output.json {
            print(try JSONText.render(["items": .array(items.map { .object(JSONText.item($0)) })]))
        } else {
            print(items.map(ItemText.render).joined(separator: "\n"))
        }
    }
}

struct ShowKeychainInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-keychain-info", abstract: "Show where the keychain is, whether it has a passphrase, and its lock state.",
        discussion: "Example: keychain show-keychain-info --json")
    @OptionGroup var keychain: KeychainSelection
    @OptionGroup var output: OutputOptions

    func run() throws {
        let keychain = try self.keychain.open()
        var info: [String: JSONValue] = [
            "database": .string(keychain.location.databaseURL.path),
            "deviceKey": .string(keychain.location.deviceKeyURL.path),
            "hasPassphrase": .bool(keychain.hasPassphrase),
            "lockState": .string(keychain.lockState.rawValue),
            "vaultID": .string(keychain.vaultID.uuidString),
            "defaultAccessGroup": .string(keychain.options.defaultAccessGroup),
        ]
        if let parameters = keychain.passphraseParameters { info["passphraseKDF"] = .string(parameters.description) }
        if output.json {
            print(try JSONText.render(info))
        } else {
            for key in info.keys.sorted() {
                if case .string(let text) = info[key] { print("\(key): \(text)") }
                if case .bool(let flag) = info[key] { print("\(key): \(flag)") }
            }
        }
    }
}

struct SetPassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-passphrase", abstract: "Protect the keychain with a passphrase (it becomes lockable; whenUnlocked items need it in each new process).",
        discussion: "Reads the passphrase from the terminal (twice) or one line of standard input.")
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        let keychain = try self.keychain.open()
        let passphrase = try SecretInput.readNew(prompt: "New passphrase: ")
        try reportingErrors { try keychain.setPassphrase(passphrase) }
        printError("passphrase set (\(keychain.passphraseParameters?.description ?? "?"))")
    }
}

struct ChangePassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-passphrase", abstract: "Change the keychain passphrase (reads the current one, then the new one).")
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        let keychain = try self.keychain.open()
        let current = try SecretInput.read(prompt: "Current passphrase: ")
        let new = try SecretInput.readNew(prompt: "New passphrase: ")
        try reportingErrors { try keychain.changePassphrase(from: current, to: new) }
        printError("passphrase changed")
    }
}

struct RemovePassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-passphrase", abstract: "Remove the passphrase. Destroys every whenPasscodeSetThisDeviceOnly item, as removing a device passcode does.")
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        let keychain = try self.keychain.open()
        let current = try SecretInput.read(prompt: "Current passphrase: ")
        let destroyed = try reportingErrors { try keychain.removePassphrase(current: current) }
        printError("passphrase removed; \(destroyed) passcode-set item\(destroyed == 1 ? "" : "s") destroyed")
    }
}
