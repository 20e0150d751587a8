import ArgumentParser
import Foundation
import KeychainCore

struct SetPassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-passphrase", abstract: "Protect the keychain with a passphrase: it becomes lockable, and whenUnlocked items need it in each new process.",
        discussion: "Reads the passphrase from the terminal (twice, no echo) or one line of standard input.")
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
        commandName: "change-passphrase", abstract: "Change the passphrase: reads the current one, then the new one (twice on a terminal).",
        discussion: "Only the class keys are rewrapped, so this takes the same time for ten items as for a million. Unlock sessions end. Also answers to set-keychain-password, as in macOS `security`; on a keychain without a passphrase it sets one (as set-passphrase).",
        aliases: ["set-keychain-password"])
    @OptionGroup var keychain: KeychainSelection

    func run() throws {
        let keychain = try self.keychain.open()
        guard keychain.hasPassphrase else {
            // macOS `security set-keychain-password` on a keychain without one just sets it.
            let passphrase = try SecretInput.readNew(prompt: "New passphrase: ")
            try reportingErrors { try keychain.setPassphrase(passphrase) }
            printError("passphrase set (\(keychain.passphraseParameters?.description ?? "?"))")
            return
        }
        let current = try SecretInput.read(prompt: "Current passphrase: ")
        let new = try SecretInput.readNew(prompt: "New passphrase: ")
        try reportingErrors { try keychain.changePassphrase(from: current, to: new) }
        printError("passphrase changed")
    }
}

struct RemovePassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-passphrase", abstract: "Remove the passphrase. Destroys every whenPasscodeSetThisDeviceOnly item, as removing a device passcode does.",
        discussion: "When such items exist, it asks for confirmation on a terminal; scripts must pass --yes.")
    @OptionGroup var keychain: KeychainSelection
    @Flag(name: .customLong("yes"), help: "Confirm that passcode-set items will be destroyed.") var confirmed = false

    func run() throws {
        let keychain = try self.keychain.open()
        let doomed = try reportingErrors { try keychain.inventory() }.byAccessibility[.whenPasscodeSetThisDeviceOnly] ?? 0
        let current = try SecretInput.read(prompt: "Current passphrase: ")
        if doomed > 0 && !confirmed {
            guard SecretInput.confirm("This destroys \(doomed) passcode-set item\(doomed == 1 ? "" : "s") for good. Continue?") else {
                printError("keychain: nothing changed; \(doomed) passcode-set item(s) would be destroyed. Pass --yes to confirm.")
                throw ExitCode(ExitStatus.usage)
            }
        }
        let destroyed = try reportingErrors { try keychain.removePassphrase(current: current) }
        printError("passphrase removed; \(destroyed) passcode-set item\(destroyed == 1 ? "" : "s") destroyed")
    }
}
